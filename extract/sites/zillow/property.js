// Reads a Zillow property page (/homedetails/.../<zpid>_zpid/): the property object of the page's
// property cache (`script#__NEXT_DATA__` → props.pageProps.componentProps.gdpClientCache, a JSON
// string whose `…Query{…}` entries hold `.property`), with the fields the answer names; the
// canonical URL, h1 and title of the document for comparison.
(args, kit) => {
  const SEL = {h1: 'h1'};
  const next = kit.nextData();
  const props = next && next.props && next.props.pageProps && next.props.pageProps.componentProps;
  let cache = props && props.gdpClientCache;
  if (typeof cache === 'string') {
    cache = kit.parseJson(cache);
  }
  let property = null;
  let queryKey = null;
  if (cache && typeof cache === 'object') {
    for (const key of Object.keys(cache)) {
      const v = cache[key];
      if (/Query/.test(key) && v && v.property && typeof v.property === 'object') {
        property = v.property;
        queryKey = key.slice(0, key.indexOf('{') >= 0 ? key.indexOf('{') : key.length);
        break;
      }
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
    'downPaymentAssistance', 'resoFacts', 'listedBy'];
  let kept = null;
  if (property) {
    kept = {};
    for (const k of KEEP) if (property[k] !== undefined) kept[k] = property[k];
    kept.photos = (property.originalPhotos || []).map((ph) => {
      const jpeg = ph && ph.mixedSources && ph.mixedSources.jpeg;
      return jpeg && jpeg.length ? jpeg[jpeg.length - 1].url : null;
    }).filter((u) => u);
    if (kept.priceHistory) {
      kept.priceHistory = kept.priceHistory.map((h) => ({date: h.date, price: h.price, event: h.event}));
    }
  }
  return {
    hasNextData: !!next,
    queryKey,
    property: kept,
    canonical: kit.meta().canonical || null,
    h1: kit.text(SEL.h1),
  };
}
