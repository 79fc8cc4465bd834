// Reads a Redfin property page from the site's own API answers the page was rendered with:
// `root.__reactServerState.InitialContext = {...}` holds `ReactServerAgent.cache.dataCache`, a map
// of API paths to responses whose bodies are `{}&&`-prefixed JSON strings. Only the parts the
// answer uses are returned. The JSON-LD listing, title and canonical URL come along for the
// fallback and for the check that the page is the property asked for.
(args, kit) => {
  const API = {
    initial: '/stingray/api/home/details/initialInfo',
    above: '/stingray/api/home/details/aboveTheFold',
    below: '/stingray/api/home/details/belowTheFold',
    main: '/stingray/api/home/details/mainHouseInfoPanelInfo',
    avm: '/stingray/api/home/details/avm',
    contact: '/stingray/api/home/details/customerConversionInfo/onMarket',
  };
  const context = kit.windowObject('__reactServerState.InitialContext');
  const cache = (context && context['ReactServerAgent.cache'] &&
                 context['ReactServerAgent.cache'].dataCache) || {};
  const api = (path) => {
    for (const key of Object.keys(cache)) {
      if (key !== path && !key.startsWith(path + '?')) continue;
      const body = kit.prefixedJson(cache[key] && cache[key].res && cache[key].res.text);
      if (body) return body.payload !== undefined ? body.payload : null;
    }
    return null;
  };
  const pick = (o, keys) => {
    if (!o) return null;
    const out = {};
    for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
    return out;
  };
  const initial = api(API.initial);
  const above = api(API.above);
  const below = api(API.below);
  const main = api(API.main);
  const avm = api(API.avm);
  const contact = api(API.contact);
  const address = above && above.addressSectionInfo;
  const photos = above && above.mediaBrowserInfo && above.mediaBrowserInfo.photos ?
      above.mediaBrowserInfo.photos.map((p) => p.photoUrls &&
          (p.photoUrls.fullScreenPhotoUrl || p.photoUrls.nonFullScreenPhotoUrl)).filter((u) => u) : [];
  // A listing's (its home is its mainEntity), or a sold or off-market home's own.
  const listing = kit.jsonLd('RealEstateListing')[0] ||
      kit.jsonLd(['SingleFamilyResidence', 'House', 'Apartment', 'Residence'])[0] || null;
  // The site's remarks and amenity values are HTML-escaped text ("Orl&eacute;ans").
  const decode = (html) => {
    const t = document.createElement('template');
    t.innerHTML = html || '';
    return (t.content.textContent || '').replace(/\s+/g, ' ').trim();
  };
  const zone = main && main.mainHouseInfo && main.mainHouseInfo.timezone;
  const localDay = (ms, timeZone = zone) => {
    if (typeof ms !== 'number' || !timeZone) return null;
    try {
      return new Intl
          .DateTimeFormat('en-CA', {timeZone, year: 'numeric', month: '2-digit', day: '2-digit'})
          .format(new Date(ms));
    } catch (e) {
      return null;
    }
  };
  return {
    url: location.href,
    canonical: kit.meta().canonical || kit.meta()['og:url'] || null,
    title: document.title,
    hasState: !!context,
    initial: pick(initial, ['responseCode', 'propertyId', 'listingId', 'mlsId', 'latLong']),
    address: address ? Object.assign({}, address, {staticMapUrl: undefined}) : null,
    // A sold home's day of sale as its page heads it ("SOLD ON SEP 4, 2025"), in the zone the
    // data gives with it.
    soldDay: address ? localDay(address.soldDate, address.soldDateTimeZone || zone) : null,
    photos,
    features: below && below.amenitiesInfo && below.amenitiesInfo.superGroups ?
        [].concat(...below.amenitiesInfo.superGroups.map((g) => g.amenityGroups || [])).map((g) => ({
          group: g.groupTitle,
          entries: (g.amenityEntries || []).map((e) => ({
            name: e.amenityName || null, values: (e.amenityValues || []).map(decode)})),
        })) : [],
    publicRecords: below && below.publicRecordsInfo ?
        pick(below.publicRecordsInfo, ['basicInfo', 'taxInfo', 'allTaxInfo', 'addressInfo']) : null,
    // Each event's day as the page shows it: in the home's own time zone ("Jan 18, 2026" for an
    // event at 01:25 UTC on the 19th in Georgia).
    history: below && below.propertyHistoryInfo && below.propertyHistoryInfo.events ?
        below.propertyHistoryInfo.events.map((e) => Object.assign(
            pick(e, ['eventDescription', 'price', 'eventDate', 'source', 'sourceId', 'mlsDescription']),
            {localDate: localDay(e.eventDate)})) : [],
    // The schools serving the home, else the nearby ones the page shows instead ("Some nearby
    // schools may not be within this home's attendance zone").
    schools: (() => {
      const info = (below && below.schoolsAndDistrictsInfo) || {};
      const serving = info.servingThisHomeSchools || [];
      return (serving.length ? serving : info.schoolsToShowOnDP || []).map((s) => pick(s, [
        'name', 'greatSchoolsRating', 'parentRating', 'gradeRanges', 'distanceInMiles', 'institutionType']));
    })(),
    highlights: below ? below.homeHighlightsTagsInfo || null : null,
    main: main && main.mainHouseInfo ? pick(main.mainHouseInfo, [
      'listingAgents', 'buyingAgents', 'selectedAmenities', 'mlsId', 'fullStreetAddress',
      'mlsStatusDisplay']) : null,
    // The listing's contacts as the page shows them: the MLS's listing agent and brokerage with
    // their numbers ("Listing agent: Brandan Price PREC* (604-765-9555)", "Contact: 940-549-8555")
    // and the agent card's ("Contact listing agent … 214-683-8177", an e-mail link).
    disclaimer: below && below.amenitiesInfo ? pick(below.amenitiesInfo.mlsDisclaimerInfo, [
      'listingBrokerName', 'listingBrokerNumber', 'listingAgentName', 'listingAgentNumber']) : null,
    contact: contact && contact.experienceData ? pick(contact.experienceData.contactInfo, [
      'contactName', 'contactPhoneNumber', 'contactEmail', 'doNotShowAgentContactInfo']) : null,
    remarks: main && main.mainHouseInfo && main.mainHouseInfo.marketingRemarks ?
        main.mainHouseInfo.marketingRemarks.map((r) => decode(r.marketingRemark)).filter((t) => t) : [],
    avm: avm ? pick(avm, ['predictedValue', 'displayLevel', 'lastSoldPrice']) : null,
    jsonLd: listing,
  };
}
