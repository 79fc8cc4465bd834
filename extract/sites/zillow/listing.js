// Reads a Zillow search results page: the search page state of the Next.js data
// (`searchPageState.cat1`: the results and the list's totals and paging) and, for pages without
// it (a reduced or client-rendered page), every property card in the list and the list header's
// count. Card selectors in SEL.
(args, kit) => {
  const SEL = {
    card: 'article[data-test="property-card"]',
    link: 'a[data-test="property-card-link"]',
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
        price: price ? (price.firstChild ? price.firstChild.textContent.trim() : kit.text(price)) : '',
        details,
        status,
        photo: img ? img.getAttribute('src') : null,
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
