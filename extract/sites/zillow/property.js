// Reads a Zillow property page (/homedetails/.../<zpid>_zpid/): the property object of the page's
// property cache, with the fields the answer names; the canonical URL, h1 and title of the
// document for comparison. The cache is a JSON string whose `…Query{…}` entries hold `.property`:
// `script#__NEXT_DATA__` → props.pageProps.componentProps.gdpClientCache on the pages of 2023 on,
// `script#hdpApolloPreloadedData` → apiCache on the older ones (2020-2022), where a small
// `VariantQuery` comes before the full render's query: the entry with the most facts is read.
(args, kit) => {
  const SEL = {h1: 'h1', apollo: 'script#hdpApolloPreloadedData'};
  const next = kit.nextData();
  const props = next && next.props && next.props.pageProps && next.props.pageProps.componentProps;
  const apolloScript = document.querySelector(SEL.apollo);
  const apollo = apolloScript ? kit.parseJson(apolloScript.textContent) : null;
  let cache = (props && props.gdpClientCache) || (apollo && apollo.apiCache);
  if (typeof cache === 'string') {
    cache = kit.parseJson(cache);
  }
  let property = null;
  let queryKey = null;
  if (cache && typeof cache === 'object') {
    for (const key of Object.keys(cache)) {
      const v = cache[key];
      if (!/Query/.test(key) || !v || !v.property || typeof v.property !== 'object') continue;
      if (property && Object.keys(v.property).length <= Object.keys(property).length) continue;
      property = v.property;
      queryKey = key.slice(0, key.indexOf('{') >= 0 ? key.indexOf('{') : key.length);
    }
  }
  const KEEP = ['zpid', 'hdpUrl', 'homeStatus', 'keystoneHomeStatus', 'homeType', 'price',
    'currency', 'lastSoldPrice', 'bedrooms', 'bathrooms', 'yearBuilt', 'livingArea',
    'livingAreaValue', 'livingAreaUnits', 'livingAreaUnitsShort', 'lotSize', 'lotAreaValue',
    'lotAreaUnits', 'address', 'streetAddress', 'city', 'state', 'zipcode', 'county', 'countyFIPS',
    'country', 'isUndisclosedAddress', 'parentRegion', 'latitude', 'longitude', 'description',
    'hiResImageLink', 'desktopWebHdpImageLink', 'datePostedString', 'daysOnZillow',
    'pageViewCount', 'favoriteCount', 'monthlyHoaFee', 'zestimate', 'rentZestimate',
    'zestimateLowPercent', 'zestimateHighPercent', 'attributionInfo', 'priceHistory',
    'taxHistory', 'schools', 'parcelId', 'mlsid', 'listingSubType', 'foreclosureJudicialType',
    'downPaymentAssistance', 'resoFacts', 'listedBy', 'datePosted', 'timeOnZillow',
    'brokerageName', 'postingContact'];
  let kept = null;
  if (property) {
    kept = {};
    for (const k of KEEP) if (property[k] !== undefined) kept[k] = property[k];
    // Each photo's largest JPEG: `originalPhotos` on the pages of 2023 on, `responsivePhotos` on
    // the older ones.
    const photos = [property.originalPhotos, property.responsivePhotos, property.photos]
        .find((list) => Array.isArray(list) && list.length) || [];
    kept.photos = photos.map((ph) => {
      const jpeg = ph && ph.mixedSources && ph.mixedSources.jpeg;
      return jpeg && jpeg.length ? jpeg[jpeg.length - 1].url : null;
    }).filter((u) => u);
    // An event's day: `date` on the newer pages, its `time` in milliseconds on the older ones
    // (midnight UTC of the day the page shows: "1/8/2021 Listed for sale").
    const day = (h) => h.date ||
        (typeof h.time === 'number' ? new Date(h.time).toISOString().slice(0, 10) : undefined);
    if (kept.priceHistory) {
      kept.priceHistory =
          kept.priceHistory.map((h) => ({date: day(h), price: h.price, event: h.event}));
    }
  }
  return {
    hasNextData: !!next,
    hasApolloData: !!apollo,
    queryKey,
    property: kept,
    canonical: kit.meta().canonical || null,
    h1: kit.text(SEL.h1),
  };
}
