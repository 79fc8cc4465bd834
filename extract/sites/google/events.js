// Reads events from a Google page: the events listing (`ibp=htl;events`) and, where that page is
// not served, the events block of a results page. No real copy of either is among the project's
// fixtures (shared/fixtures/README.md), so nothing here relies on Google's class names: an event
// is a card that links into the events listing (its href carries `ibp=htl;events`, as every event
// card of both pages does) or a list item of the listing, read as a title (role=heading, else the
// first line) followed by the lines it shows. sites/events.cpp decides which line is the date and
// which the address. Selectors live in SEL, to be mended against a live page.
(args) => {
  const SEL = {
    // The listing: one item per event.
    listingItem: '[role="list"] > [role="listitem"], [role="list"] > li, ul > li',
    // Cards of a results page that open the events listing.
    eventLink: 'a[href*="ibp=htl;events"], a[href*="ibp=htl%3Bevents"]',
    heading: '[role="heading"], h2, h3, h4',
    image: 'img[src^="http"], img[data-src^="http"]',
    ticketLink: 'a[href^="http"]:not([href*="google."])',
    results: '#rso, #search',
    organicTitle: '#rso a[href] h3',
    resultStats: '#result-stats',
  };

  const lines = (el) => (el.innerText || '').split('\n').map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l.length > 0);
  const abs = (href) => { try { return new URL(href, location.href).href; } catch (e) { return href; } };
  const first = (root, sel) => root.querySelector(sel);

  const readCard = (card, linkEl) => {
    const heading = first(card, SEL.heading);
    const all = lines(card);
    const title = heading ? (heading.innerText || '').replace(/\s+/g, ' ').trim() : (all[0] || '');
    const rest = all.filter((l) => l !== title);
    const img = first(card, SEL.image);
    const tickets = [...card.querySelectorAll(SEL.ticketLink)].map((a) => ({
      source: (a.innerText || a.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim(),
      link: abs(a.getAttribute('href')),
    })).filter((t) => t.source.length > 0);
    return {
      title,
      lines: rest,
      link: linkEl ? abs(linkEl.getAttribute('href')) : '',
      thumbnail: img ? (img.getAttribute('src') || img.getAttribute('data-src')) : '',
      tickets,
    };
  };

  const onListing = /[?&]ibp=htl(;|%3B)events/i.test(location.href);
  const events = [];
  let source = '';

  if (onListing) {
    for (const item of document.querySelectorAll(SEL.listingItem)) {
      if (!first(item, SEL.heading)) continue;
      const card = readCard(item, first(item, SEL.eventLink) || first(item, 'a[href]'));
      if (card.title && card.lines.length > 0) events.push(card);
    }
    if (events.length) source = 'listing';
  }
  if (!events.length) {
    const seen = new Set();
    const scope = first(document, SEL.results) || document.body || document.documentElement;
    for (const a of scope.querySelectorAll(SEL.eventLink)) {
      // The card is the largest ancestor that holds this one event link only.
      let card = a;
      while (card.parentElement && card.parentElement !== scope &&
             card.parentElement.querySelectorAll(SEL.eventLink).length === 1) {
        card = card.parentElement;
      }
      if (seen.has(card)) continue;
      seen.add(card);
      const read = readCard(card, a);
      if (read.title && read.lines.length > 0) events.push(read);
    }
    if (events.length) source = 'resultsBlock';
  }

  return {
    url: location.href,
    onListing,
    source,
    events,
    // A real results page (as opposed to an empty shell) even when it shows no event.
    resultsPage: !!(first(document, SEL.resultStats) || first(document, SEL.organicTitle)),
    start: args && typeof args.start === 'number' ? args.start : 0,
  };
}
