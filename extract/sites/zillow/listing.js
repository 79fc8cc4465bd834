// Reads a Zillow search results page: the search page state of the Next.js data
// (`searchPageState.cat1`: the results and the list's totals and paging) and, for pages without
// it (a reduced or client-rendered page), every property card in the list and the list header's
// count. Card selectors in SEL.
(args, kit) => {
  const SEL = {
    card: 'article[data-test="property-card"]',
    // The card's link: one over the whole card, or (2026 cards) one on its price and address.
    link: 'a[data-test="property-card-link"], a[data-test="property-card-address-link"], ' +
        'a[data-test="property-card-title-link"]',
    address: 'address',
    price: '[data-test="property-card-price"]',
    details: 'ul[data-testid="property-card-details"] li',
    photo: 'img',
    count: '.search-page-list-header .result-count',
  };
  const next = kit.nextData();
  const state = next && next.props && next.props.pageProps && next.props.pageProps.searchPageState;
  const cat = state && state.cat1;
  const pick = (o, keys) => {
    const out = {};
    for (const k of keys) if (o && o[k] !== undefined) out[k] = o[k];
    return out;
  };
  const results = cat && cat.searchResults && cat.searchResults.listResults ?
      cat.searchResults.listResults.map((r) => pick(r, [
        'zpid', 'detailUrl', 'statusType', 'statusText', 'price', 'unformattedPrice', 'address',
        'addressStreet', 'addressCity', 'addressState', 'addressZipcode', 'beds', 'baths', 'area',
        'latLong', 'imgSrc', 'brokerName', 'units', 'isBuilding', 'buildingName', 'zestimate',
        'hdpData', 'countryCurrency'])) : null;
  // The card's price as written ("$1,950+/mo"): its first piece of text, without the notes after
  // it ("Fees may apply", "Total monthly price").
  const firstText = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent.replace(/\s+/g, ' ').trim();
      if (t) return t;
    }
    return '';
  };
  const cards = [];
  if (!results) {
    for (const card of document.querySelectorAll(SEL.card)) {
      const link = card.querySelector(SEL.link);
      const price = card.querySelector(SEL.price);
      const details = Array.from(card.querySelectorAll(SEL.details), (li) => kit.text(li));
      const img = card.querySelector(SEL.photo);
      // The card's trailing " - Apartment for rent" after its details list.
      const list = card.querySelector('ul[data-testid="property-card-details"]');
      const status = list && list.parentElement ?
          kit.text(list.parentElement).replace(details.join(' '), '').replace(/^[\s-]+/, '') : '';
      cards.push({
        id: card.id || null,
        link: link ? link.href : null,
        address: kit.text(card.querySelector(SEL.address)),
        price: price ? firstText(price) : '',
        details,
        status,
        photo: img ? img.getAttribute('src') : null,
        // A building's card (several units) rather than one home's.
        building: card.classList.contains('list-card_building'),
      });
    }
  }
  return {
    url: location.href,
    title: document.title,
    hasState: !!state,
    results,
    list: cat && cat.searchList ? pick(cat.searchList, ['totalResultCount', 'totalPages', 'resultsPerPage', 'pagination', 'listResultsTitle']) : null,
    queryState: state ? pick(state.queryState, ['pagination', 'usersSearchTerm']) : null,
    cards,
    // "91 rentals available": what a person reads of the total where the state is missing.
    countText: cat && cat.searchList ? null : kit.text(SEL.count),
  };
}
