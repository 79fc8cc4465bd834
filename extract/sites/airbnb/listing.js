// Reads an Airbnb search results page: the StaysSearch answer of `script#data-deferred-state*`
// (niobeMinimalClientData: [[query key, {data}]]), its listing items in order and its pagination.
// Pages of 2022 keep the listings and the numbered pagination in `explore.sections.sections`;
// pages of 2023 keep them in `explore.sections.sectionIndependentData.staysSearch`
// (`searchResults`, and `paginationInfo` with base64 JSON page cursors); pages of 2025 in
// `presentation.staysSearch.results` (the result's price in `structuredDisplayPrice`, its pictures
// and badges beside the listing, not in it), so the whole answer is walked. Without listings there,
// the schema.org list items the page marks up; without those (a layout that marks up neither), the
// room links of the cards a person clicks, each named by the title its link is labelled by.
(args, kit) => {
  const SEL = {
    state: 'script[id^="data-deferred-state"]',
    listItem: '[itemprop="itemListElement"]',
    roomLink: 'a[href*="/rooms/"]',
  };
  let sections = null;
  for (const script of document.querySelectorAll(SEL.state)) {
    const state = kit.parseJson(script.textContent);
    const niobe = state && state.niobeMinimalClientData;
    if (!Array.isArray(niobe)) continue;
    for (const entry of niobe) {
      const data = entry && entry[1] && entry[1].data;
      const presentation = data && data.presentation;
      if (!String(entry[0]).startsWith('StaysSearch') || !presentation) continue;
      if (presentation.explore && presentation.explore.sections) {
        sections = presentation.explore.sections;
      } else if (presentation.staysSearch && presentation.staysSearch.results) {
        sections = presentation.staysSearch.results;
      }
    }
  }
  const items = [];
  const seen = new Set();  // the map section lists the same homes again
  let pagination = null;
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (node.listing && node.listing.id && node.__typename !== 'ExploreListing') {
      const l = node.listing;
      if (seen.has(l.id)) return;
      seen.add(l.id);
      const price = (node.pricingQuote && node.pricingQuote.structuredStayDisplayPrice) ||
          node.structuredDisplayPrice;
      const pictures = l.contextualPictures || node.contextualPictures || [];
      const badges = l.formattedBadges || node.badges || [];
      items.push({
        id: l.id, name: l.name, title: l.title, roomTypeCategory: l.roomTypeCategory,
        lat: l.lat !== undefined ? l.lat : (l.coordinate || {}).latitude,
        lng: l.lng !== undefined ? l.lng : (l.coordinate || {}).longitude,
        avgRating: l.avgRating, reviewsCount: l.reviewsCount,
        avgRatingLocalized: l.avgRatingLocalized || node.avgRatingLocalized,
        isSuperhost: l.isSuperhost,
        pictures: pictures.map((p) => p.picture).filter((u) => u),
        badges: badges.map((b) => b.text).filter((t) => t),
        priceLine: price && price.primaryLine ? {price: price.primaryLine.price,
          qualifier: price.primaryLine.qualifier, discounted: price.primaryLine.discountedPrice,
          original: price.primaryLine.originalPrice, label: price.primaryLine.accessibilityLabel} : null,
        priceSecondary: price && price.secondaryLine ? {price: price.secondaryLine.price,
          label: price.secondaryLine.accessibilityLabel} : null,
      });
      return;
    }
    if (node.__typename === 'ExploreNumberedPaginationSection') {
      pagination = {itemsOffset: node.itemsOffset, pageLimit: node.pageLimit,
                    total: node.totalInventoryCount, max: node.maxTotalInventoryCount,
                    pages: node.pageParams};
    }
    if (node.__typename === 'StaysSearchPaginationInfo' && !pagination) {
      // Each cursor is base64 of {"section_offset": 3, "items_offset": 18, "version": 1}.
      const pages = [];
      for (const cursor of node.pageCursors || []) {
        let c = null;
        try { c = JSON.parse(atob(cursor)); } catch (e) { continue; }
        if (c && typeof c.items_offset === 'number')
          pages.push({itemsOffset: c.items_offset, sectionOffset: c.section_offset});
      }
      pagination = {pages};
    }
    for (const k of Object.keys(node)) walk(node[k]);
  };
  if (sections) walk(sections);
  // A StaysSearch answer that carries no listings (its results left to a later request) counts
  // as none: the page's markup is read instead.
  const hasState = items.length > 0;
  const marked = hasState ? [] : Array.from(document.querySelectorAll(SEL.listItem), (li) => ({
    name: (li.querySelector('meta[itemprop="name"]') || {}).content || null,
    position: (li.querySelector('meta[itemprop="position"]') || {}).content || null,
    url: (li.querySelector('meta[itemprop="url"]') || {}).content || null,
  }));
  const linked = [];
  if (!hasState && !marked.length) {
    const named = new Set();
    for (const a of document.querySelectorAll(SEL.roomLink)) {
      const url = a.href;
      const id = (/\/rooms\/(?:plus\/)?(\d+)/.exec(url) || [])[1];
      if (!id || named.has(id)) continue;
      const label = a.getAttribute('aria-labelledby');
      const title = label ? document.getElementById(label.split(' ')[0]) : null;
      const name = title ? kit.text(title) : (a.getAttribute('aria-label') || '');
      if (!name) continue;  // the card's picture links: the titled link names it
      named.add(id);
      linked.push({name, url});
    }
  }
  return {url: location.href, lang: document.documentElement.getAttribute('lang'), hasState, items,
          pagination, marked, linked};
}
