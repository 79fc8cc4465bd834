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
    // The card's "4 bds · 2 ba · 1,861 sqft" list: named by a test id on 2026 cards, by its
    // component's class on the 2025 ones.
    detailsList:
        'ul[data-testid="property-card-details"], ul[class*="StyledPropertyCardHomeDetailsList"]',
    // The card's photo, not the blurred placeholder hidden under it.
    photo: 'img:not([aria-hidden="true"])',
    // The list of results; the map's pop-up repeats the card of the home it points at.
    list: '#grid-search-results',
    map: '.zillow-map-layer',
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
    const scope = document.querySelector(SEL.list) || document;
    for (const card of scope.querySelectorAll(SEL.card)) {
      if (card.closest(SEL.map)) continue;
      const link = card.querySelector(SEL.link);
      const price = card.querySelector(SEL.price);
      const list = card.querySelector(SEL.detailsList);
      const details = list ? Array.from(list.querySelectorAll('li'), (li) => kit.text(li)) : [];
      const img = card.querySelector(SEL.photo) || card.querySelector('img');
      // The card's trailing " - Apartment for rent" after its details list.
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
