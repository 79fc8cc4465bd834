// Reads Google's basic results page, the one it serves browsers without JavaScript (every block a
// card: `.Gx5Zad` in the 2023 markup, `.ZINbbc` in the 2020 one, the same structure inside).
// Returns the page's own texts; light.cpp shapes them. Selectors in SEL: structure first (a
// result is a card whose link leads through `/url?q=` and holds an h3; a related search is a link
// with Google's search-icon element), class names only for the cards themselves.
(args) => {
  const SEL = {
    card: '#main .Gx5Zad, #main .ZINbbc',
    resultLink: 'a[href^="/url?"]',
    title: 'h3',
    relatedSearch: 'a[href^="/search"]',
    relatedIcon: 'accordion-entry-search-icon',
    nextPage: 'a[aria-label="Next page"], a[aria-label="Next"]',
    // The paging links in any language ("Página seguinte"): Google's `sa=N` with an offset.
    pageLink: 'footer a[href*="start="][href*="sa=N"]',
    resultStats: '#result-stats',
  };
  const text = (el) => (el ? (el.textContent || '').replace(/\s+/g, ' ').trim() : '');
  const abs = (href) => { try { return new URL(href, location.href).href; } catch (e) { return href; } };
  // `/url?q=<target>&sa=U&...`: the page a result leads to.
  const target = (href) => {
    try {
      const u = new URL(href, location.href);
      return u.pathname === '/url' ? (u.searchParams.get('q') || u.searchParams.get('url') || '') : u.href;
    } catch (e) { return ''; }
  };

  const organic = [];
  for (const card of document.querySelectorAll(SEL.card)) {
    if (card.parentElement.closest(SEL.card)) continue;  // a card nested in another (an answer)
    const a = [...card.querySelectorAll(SEL.resultLink)].find((l) => l.querySelector(SEL.title));
    if (!a) continue;
    const title = text(a.querySelector(SEL.title));
    const whole = text(a);
    const displayedLink = whole.startsWith(title) ? whole.slice(title.length).trim() : '';
    // The snippet: the first text block of the card outside the title link (a block with no
    // block inside it); the links under it are the result's sitelinks.
    const sitelinks = [];
    let snippet = '';
    for (const block of card.children) {
      if (block.contains(a)) continue;
      for (const l of block.querySelectorAll(SEL.resultLink)) {
        const t = text(l);
        if (t) sitelinks.push({ title: t, link: target(l.getAttribute('href')) });
      }
      if (snippet) continue;
      const leaf = [...block.querySelectorAll('div')].find((d) => !d.querySelector('div') && text(d));
      if (leaf) snippet = text(leaf);
    }
    organic.push({ title, link: target(a.getAttribute('href')), displayedLink, snippet, sitelinks });
  }

  const related = [];
  for (const a of document.querySelectorAll(SEL.relatedSearch)) {
    if (!a.querySelector(SEL.relatedIcon)) continue;
    related.push({ query: text(a), link: abs(a.getAttribute('href')) });
  }
  // A search that found nothing: "Your search - <query> - did not match any documents." in the
  // page's language, a card that restates the query and holds no link.
  let noResultsText = '';
  const query = (new URL(location.href).searchParams.get('q') || '').replace(/\s+/g, ' ').trim();
  if (!organic.length && query) {
    const notice = [...document.querySelectorAll(SEL.card)].find(
      (card) => !card.querySelector('a[href]') && text(card).includes(query));
    if (notice) noResultsText = text(notice);
  }
  // The English labels name the next page; elsewhere it is the paging link that goes furthest
  // (on a later page the previous page's link comes before it, with a smaller offset).
  const offset = (a) =>
      Number(new URL(a.getAttribute('href'), location.href).searchParams.get('start'));
  const next = document.querySelector(SEL.nextPage) ||
      [...document.querySelectorAll(SEL.pageLink)].sort((a, b) => offset(b) - offset(a))[0];
  return {
    url: location.href,
    statsText: text(document.querySelector(SEL.resultStats)),
    noResultsText,
    organic,
    related,
    nextPage: next ? abs(next.getAttribute('href')) : '',
  };
}
