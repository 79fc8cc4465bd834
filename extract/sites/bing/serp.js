// Reads a Bing web results page: the top-level organic results (`#b_results > li.b_algo`: the
// title link, the displayed `cite`, the caption's first paragraph), the ad blocks at the top and
// bottom (`li.b_ad`, each ad an item of its list), the related searches (`.b_rs`), the pager
// (`li.b_pag`, its current page unlinked), the result count (`.sb_count`) and the notice of a
// search that found nothing (`li.b_no`). Answer blocks that nest further `b_algo` items are not
// results of their own. A result's title link is `h2 > a`, or (Bing's layout of 2025) the link
// around the `h2` in `.b_algoheader`; the date before its snippet is `span.news_dt` where Bing
// marks it (serp.cpp reads the unmarked "2019年7月2日 · …" of other markets).
(args, kit) => {
  const SEL = {
    results: '#b_results',
    organic: ':scope > li.b_algo',
    noResults: ':scope > li.b_no',
    adBlocks: ':scope > li.b_ad',
    adItems: ':scope > ul > li',
    titleLink: 'h2 a',
    cite: 'cite',
    heading: 'h2',
    snippet: '.b_caption p, .b_paractl, p',
    snippetDate: '.news_dt',
    related: '.b_rs li a',
    pager: 'li.b_pag a',
    next: 'li.b_pag a.sb_pagN',
    current: 'li.b_pag a.sb_pagS',
    count: '.sb_count',
    adSlug: '.b_adSlug',
    sitelinks: '.b_vlist2col a, .b_ad .sb_adsWv2 a, .b_ad ul.b_vList a',
  };
  // A displayed URL as the page writes it (its style sheet may change its case on screen).
  const written = (n) => (n ? (n.textContent || '').replace(/\s+/g, ' ').trim() : '');
  const root = document.querySelector(SEL.results);
  const items = (sel) => (root ? Array.from(root.querySelectorAll(sel)) : []);
  const organic = items(SEL.organic).map((li) => {
    const heading = li.querySelector(SEL.heading);
    const a = li.querySelector(SEL.titleLink) || (heading && heading.closest('a'));
    const p = li.querySelector(SEL.snippet);
    // "Jan 30, 2025 · Notes: …": the date apart, the snippet without it and its dot.
    const date = p && p.querySelector(SEL.snippetDate);
    let snippet = kit.text(p);
    if (date) {
      const copy = p.cloneNode(true);
      copy.querySelector(SEL.snippetDate).remove();
      snippet = kit.text(copy).replace(/^[\s·]+/, '');
    }
    return {
      title: kit.text(a),
      link: a ? a.getAttribute('href') : null,
      displayedLink: written(li.querySelector(SEL.cite)),
      snippet,
      date: kit.text(date),
    };
  });
  const ads = [];
  items(SEL.adBlocks).forEach((block) => {
    const bottom = block.classList.contains('b_adBottom');
    block.querySelectorAll(SEL.adItems).forEach((li, i) => {
      const a = li.querySelector(SEL.titleLink);
      if (!a) return;
      const p = li.querySelector('.b_caption p');
      let description = '';
      if (p) {
        const copy = p.cloneNode(true);
        copy.querySelectorAll(SEL.adSlug).forEach((s) => s.remove());
        description = kit.text(copy);
      }
      ads.push({
        blockPosition: bottom ? 'bottom' : 'top',
        indexInBlock: i + 1,
        title: kit.text(a),
        link: a.getAttribute('href'),
        displayedLink: written(li.querySelector(SEL.cite)),
        description,
        sitelinks: Array.from(li.querySelectorAll('.b_caption ul a, .b_vlist2col a'), (s) => ({
          title: kit.text(s), link: s.getAttribute('href')})).filter((s) => s.title && s.link),
      });
    });
  });
  const next = document.querySelector(SEL.next);
  return {
    hasResults: !!root,
    noResults: items(SEL.noResults).length > 0,
    count: kit.text(SEL.count),
    organic,
    ads,
    related: Array.from(document.querySelectorAll(SEL.related), (a) => ({
      query: kit.text(a), link: kit.abs(a.getAttribute('href'))})),
    pages: Array.from(document.querySelectorAll(SEL.pager), (a) => ({
      label: kit.text(a), link: a.getAttribute('href') ? kit.abs(a.getAttribute('href')) : null})),
    next: next ? kit.abs(next.getAttribute('href')) : null,
    current: kit.text(SEL.current),
  };
}
