// Reads a rendered maps search page: the results feed, one article per place. The feed loads
// more places as it is scrolled, so it is scrolled until it holds `args.limit` places or stops
// growing for `args.settleMs` (or `args.budgetMs` runs out). A search the site answers with one
// place goes straight to that place's page: then `kind` is "place" and place.js reads it.
// The values are read as the page writes them; browser_source.cpp shapes them.
async (args) => {
  // Selectors, in one place so they can be mended (shared/fixtures/README.md, "Maps").
  const SEL = {
    feed: 'div[role="feed"]',
    article: 'div[role="article"]',
    placeLink: 'a[href*="/maps/place/"]',
    rating: '[role="img"][aria-label*="stars"]',  // "4.8 stars 91,790 Reviews"
    detailLine: '.W4Efsd',  // one line of a result's details: "Art museum · ♿ · 1000 5th Ave"
    decoration: '[aria-hidden="true"], [role="img"]',  // the "·" separators, icons
    placeMain: 'div[role="main"][aria-label] h1',
  };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  const feed = document.querySelector(SEL.feed);
  if (!feed) {
    return {kind: document.querySelector(SEL.placeMain) ? 'place' : 'none', places: []};
  }
  const limit = args.limit > 0 ? args.limit : Infinity;
  const deadline = Date.now() + args.budgetMs;
  const articles = () => feed.querySelectorAll(SEL.article);
  let scrolls = 0;
  let grew = true;
  while (articles().length < limit && Date.now() < deadline) {
    const before = articles().length;
    const all = articles();
    if (all.length) all[all.length - 1].scrollIntoView({block: 'end'});
    feed.scrollTop = feed.scrollHeight;
    scrolls++;
    const until = Math.min(deadline, Date.now() + args.settleMs);
    while (articles().length === before && Date.now() < until) await sleep(100);
    if (articles().length === before) {
      grew = false;
      break;
    }
  }

  // The visible text of a line's part, without separators and icons.
  const partText = (el) => {
    const copy = el.cloneNode(true);
    for (const d of copy.querySelectorAll(SEL.decoration)) d.remove();
    return copy.textContent.replace(/\s+/g, ' ').trim();
  };
  const places = [...articles()].slice(0, limit).map((article) => {
    const link = article.querySelector(SEL.placeLink);
    const rating = article.querySelector(SEL.rating);
    const lines = [...article.querySelectorAll(SEL.detailLine)]
        .filter((line) => !line.querySelector(SEL.detailLine))
        .map((line) => [...line.children].filter((c) => c.tagName === 'SPAN').map(partText)
                                          .filter(Boolean))
        .filter((parts) => parts.length > 0);
    return {
      name: article.getAttribute('aria-label') || (link && link.getAttribute('aria-label')) || '',
      href: link ? link.href : '',
      rating: rating ? rating.getAttribute('aria-label') : '',
      lines,
    };
  });
  return {kind: 'list', places, scrolls, complete: !grew || places.length >= limit};
}
