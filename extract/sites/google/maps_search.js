// Reads a rendered maps search page: the results feed, one card per place. One reader for the
// scraper jobs (extract/sites/google/maps/reader.h) and GET /scrape/google-maps/search
// (maps_search.cpp). The feed loads more places as it is scrolled: the reader (read_feed() in
// maps/reader.cpp) scrolls it with this script's steps (`args.step`: "scroll" scrolls the feed to
// its end, "look" only looks; both answer how many cards it holds and whether it shows its
// end-of-list line) and waits on the page's own requests between them, then reads it whole
// (no step). A search the site answers with one place goes straight to that place's page: then
// `kind` is "place" and maps_place.js reads it. The values are read as the page writes them, in
// its language; extract/sites/google/maps/page_rows.cpp shapes them.
async (args) => {
  // Selectors, in one place so they can be mended (shared/fixtures/README.md, "Maps").
  const SEL = {
    feed: 'div[role="feed"]',
    // One result: an article in English pages (2026); the same card without the role in the
    // fr-MA pages (2025).
    article: 'div[role="article"], div.Nv2PK',
    placeLink: 'a[href*="/maps/place/"]',
    // The rating's label, "4.8 stars 91,790 Reviews" / "4,4 étoiles 14 avis": the one image
    // label that starts with a number (the others name icons: "Wheelchair accessible entrance").
    labelledImage: '[role="img"][aria-label]',
    detailLine: '.W4Efsd',  // one line of a result's details: "Art museum · ♿ · 1000 5th Ave"
    decoration: '[aria-hidden="true"], [role="img"]',  // the "·" separators, icons
    // "Closed" / "Ouvert 24h/24" in the page's green or red, inside the part that says when.
    openState: 'span[style*="color"]',
    photo: 'img[src*="googleusercontent.com"]',
    // An ad's label above its name, the one heading of a card ("Sponsored" in an en-IN page of
    // 2025; its words are the page's language, so only the heading is looked for).
    sponsoredLabel: 'h1',
    placeMain: 'div[role="main"][aria-label] h1',
    // The line a complete feed ends with, after its last card ("Das Ende der Liste ist erreicht."
    // in a de page of 2026-03; "You've reached the end of the list." in English, as scrapers
    // quote it): the list has no more to load, so nothing is waited for. Its words are the page's
    // language: only the element is looked for. A feed with more to load ends with a loading
    // block instead (div.lXJj5c in every capture of 2025-07 to 2026-03), and no such line.
    endOfList: 'span.HlvSq',
  };

  const feed = document.querySelector(SEL.feed);
  if (!feed) {
    return {kind: document.querySelector(SEL.placeMain) ? 'place' : 'none', places: []};
  }
  const articles = () => feed.querySelectorAll(SEL.article);
  const ended = () => feed.querySelector(SEL.endOfList) !== null;
  if (args.step) {
    if (args.step === 'scroll') {
      const all = articles();
      if (all.length) all[all.length - 1].scrollIntoView({block: 'end'});
      feed.scrollTop = feed.scrollHeight;
    }
    return {kind: 'feed', cards: articles().length, ended: ended()};
  }
  const limit = args.limit > 0 ? args.limit : Infinity;

  // The visible text of a line's part, without separators and icons.
  const partText = (el) => {
    const copy = el.cloneNode(true);
    for (const d of copy.querySelectorAll(SEL.decoration)) d.remove();
    return copy.textContent.replace(/\s+/g, ' ').trim();
  };
  const places = [...articles()].slice(0, limit).map((article) => {
    const link = article.querySelector(SEL.placeLink);
    const rating = [...article.querySelectorAll(SEL.labelledImage)].find(
        (img) => /^\d/.test(img.getAttribute('aria-label').trim()));
    const lines = [...article.querySelectorAll(SEL.detailLine)]
        .filter((line) => !line.querySelector(SEL.detailLine))
        .map((line) => [...line.children].filter((c) => c.tagName === 'SPAN').map(partText)
                                          .filter(Boolean))
        .filter((parts) => parts.length > 0);
    const state = article.querySelector(SEL.openState);
    const photo = article.querySelector(SEL.photo);
    const sponsored = article.querySelector(SEL.sponsoredLabel) !== null;
    return {
      name: article.getAttribute('aria-label') || (link && link.getAttribute('aria-label')) || '',
      href: link ? link.href : '',
      rating: rating ? rating.getAttribute('aria-label') : '',
      lines,
      openState: state ? partText(state.parentElement) : '',
      thumbnail: photo ? photo.src : '',
      ...(sponsored ? {sponsored: true} : {}),
    };
  });
  return {kind: 'list', places, ...(ended() ? {endOfList: true} : {})};
}
