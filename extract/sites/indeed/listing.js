// Reads an Indeed search results page: the job cards the page embeds
// (`window.mosaic.providerData["mosaic-provider-jobcards"]` → metaData.mosaicProviderJobCardsModel
// .results), the related searches the page embeds (`"relatedQueries":[...]`), the job count line
// (and the count the page embeds, `"totalJobCount"`, for pages that hide the line) and the pager's
// next link (else the head's `rel=next`).
(args, kit) => {
  const SEL = {
    count: '.jobsearch-JobCountAndSortPane-jobCount',
    // The older layout (2022): "Page 1 of 154 jobs", "Halaman 1 dari 154 lowongan".
    countPages: '#searchCountPages',
    next: 'a[data-testid="pagination-page-next"]',
    // Every layout's head names the next page (the older one has no such button).
    nextInHead: 'link[rel="next"]',
    // The page's statement that the search found nothing ("The search ... did not match any
    // jobs."; "Find ... jobs in "Indonesia" on id.indeed.com" for a place of another site).
    noResults: '[class*="jobsearch-NoResult"], .no_results',
  };
  const valueAfter = (marker) => {
    for (const text of kit.scriptTexts('script:not([src])')) {
      const at = text.indexOf(marker);
      if (at < 0) continue;
      let i = at + marker.length;
      while (i < text.length && text[i] !== '{' && text[i] !== '[') i++;
      const v = kit.valueAt(text, i);
      if (v !== null) return v;
    }
    return null;
  };
  // The card's snippet is a short HTML list: its text, as a person reads it.
  const textOf = (html) => html
    ? (new DOMParser().parseFromString(html, 'text/html').body.textContent || '')
        .replace(/\s+/g, ' ').trim()
    : '';
  const cards = valueAfter('window.mosaic.providerData["mosaic-provider-jobcards"]=') ||
      valueAfter('window.mosaic.providerData["mosaic-provider-jobcards"] =');
  const model = cards && cards.metaData && cards.metaData.mosaicProviderJobCardsModel;
  const results = model && Array.isArray(model.results) ? model.results.map((r) => ({
    jobkey: r.jobkey, title: r.displayTitle || r.title, company: r.company,
    location: r.formattedLocation, snippet: textOf(r.snippet), relative: r.formattedRelativeTime,
    pubDate: r.pubDate, sponsored: r.sponsored, taxonomy: r.taxonomyAttributes,
    jobTypes: r.jobTypes, extractedSalary: r.extractedSalary, salarySnippet: r.salarySnippet,
  })) : null;
  // The number of jobs the search found, as the page's data carries it (shown or not).
  const embeddedCount = () => {
    for (const text of kit.scriptTexts('script:not([src])')) {
      const m = /"totalJobCount":(\d+)/.exec(text);
      if (m) return Number(m[1]);
    }
    return null;
  };
  const next = document.querySelector(SEL.next) || document.querySelector(SEL.nextInHead);
  return {
    origin: location.origin,
    results,
    pageNumber: model ? model.pageNumber : null,
    related: valueAfter('"relatedQueries":'),
    count: kit.text(SEL.count),
    countPages: kit.text(SEL.countPages),
    totalJobCount: embeddedCount(),
    noResults: !results && !!document.querySelector(SEL.noResults),
    next: next ? kit.abs(next.getAttribute('href')) : null,
  };
}
