// Reads a Yelp search results page from the state it is drawn from: the object assigned to
// `react_root_props` in `script[data-id="react-root-props"]`, whose
// legacyProps.searchAppProps.searchPageProps.mainContentComponentsListProps lists the page's
// components. A business result (an ad or not) is an item with a `bizId`; the component whose
// `props` has `totalResults` counts the search's results. Strings come entity-decoded from the kit.
(args, kit) => {
  const SEL = {
    rootProps: 'script[data-id="react-root-props"]',
  };
  const script = document.querySelector(SEL.rootProps);
  const text = script ? script.textContent : '';
  const assignment = /react_root_props\s*=\s*/.exec(text);
  const root = assignment ? kit.valueAt(text, assignment.index + assignment[0].length) : null;
  const page = root && root.legacyProps && root.legacyProps.searchAppProps &&
      root.legacyProps.searchAppProps.searchPageProps;
  const list = page && Array.isArray(page.mainContentComponentsListProps) ?
      page.mainContentComponentsListProps : null;
  const items = [];
  let totalResults = null;
  for (const item of list || []) {
    if (!item || typeof item !== 'object') continue;
    if (item.props && typeof item.props.totalResults === 'number') {
      totalResults = item.props.totalResults;
    }
    const b = item.searchResultBusiness;
    if (!item.bizId || !b) continue;
    const photos = (item.scrollablePhotos && item.scrollablePhotos.photoList) || [];
    const highlights = (item.searchResultBusinessHighlights &&
        item.searchResultBusinessHighlights.businessHighlights) || [];
    items.push({
      bizId: item.bizId,
      isAd: item.isAd === true || b.isAd === true,
      name: b.name,
      alias: b.alias,
      businessUrl: b.businessUrl || item.businessUrl || null,
      formattedAddress: b.formattedAddress,
      priceRange: b.priceRange,
      phone: b.phone,
      rating: b.rating,
      reviewCount: b.reviewCount,
      categories: (b.categories || []).map((c) => ({title: c.title, url: c.url})),
      snippet: item.snippet ? item.snippet.text : null,
      photo: photos.length ? photos[0].src : null,
      allPhotosHref: item.scrollablePhotos ? item.scrollablePhotos.allPhotosHref : null,
      highlights: highlights.map((h) => h.title),
    });
  }
  return {hasScript: !!script, hasState: !!root, hasList: !!list, totalResults, items};
}
