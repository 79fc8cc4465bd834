// Reads the two pages of a Redfin search, as the site's search box goes through them.
//  - The location autocomplete answer (`/stingray/do/location-autocomplete`, `{}&&`-prefixed JSON):
//    the rows the box offers (places, schools, addresses), each with the site URL it opens.
//  - A region's search page: the site's `gis` search answer (`/stingray/api/gis?...`,
//    `{}&&`-prefixed JSON with payload.homes[]) from the page's `__reactServerState` data cache;
//    where the page fetched it after load instead, the same request again (same origin), found
//    among the page's resource timings.
// Only the parts the answer uses are returned.
async (args, kit) => {
  const API = {
    autocomplete: '/stingray/do/location-autocomplete',
    gis: '/stingray/api/gis',
  };
  const pick = (o, keys) => {
    if (!o || typeof o !== 'object') return null;
    const out = {};
    for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
    return out;
  };

  if (location.pathname === API.autocomplete) {
    const body = kit.prefixedJson(document.body ? document.body.textContent : '');
    const payload = (body && body.payload) || {};
    const ROW = ['id', 'type', 'name', 'subName', 'url', 'countryCode', 'active'];
    return {
      kind: 'autocomplete',
      url: location.href,
      parsed: !!body,
      resultCode: body && body.resultCode !== undefined ? body.resultCode : null,
      exactMatch: pick(payload.exactMatch, ROW),
      sections: (payload.sections || []).map((s) => ({
        name: s.name || null,
        rows: (s.rows || []).map((r) => pick(r, ROW)),
      })),
    };
  }

  const context = kit.windowObject('__reactServerState.InitialContext');
  const cache = (context && context['ReactServerAgent.cache'] &&
                 context['ReactServerAgent.cache'].dataCache) || {};
  let gis = null;
  let source = null;
  let gisUrl = null;
  for (const key of Object.keys(cache)) {
    if (key !== API.gis && !key.startsWith(API.gis + '?')) continue;
    const body = kit.prefixedJson(cache[key] && cache[key].res && cache[key].res.text);
    if (body) {
      gis = body; source = 'dataCache'; gisUrl = key;
      break;
    }
  }
  if (!gis) {
    const requested = performance.getEntriesByType('resource').map((e) => e.name).find((name) => {
      try { return new URL(name).pathname === API.gis; } catch (e) { return false; }
    });
    if (requested) {
      try {
        const res = await fetch(requested, {credentials: 'include'});
        gis = kit.prefixedJson(await res.text());
        source = 'fetch'; gisUrl = requested;
      } catch (e) {}
    }
  }
  const payload = (gis && gis.payload) || {};
  const HOME = [
    'propertyId', 'listingId', 'mlsId', 'mlsStatus', 'url', 'streetLine', 'unitNumber', 'city',
    'state', 'zip', 'postalCode', 'countryCode', 'price', 'hoa', 'sqFt', 'pricePerSqFt', 'lotSize',
    'beds', 'baths', 'stories', 'yearBuilt', 'dom', 'timeOnRedfin', 'latLong', 'listingBroker',
    'soldDate', 'searchStatus', 'listingType', 'uiPropertyType', 'isNewConstruction', 'isRedfin'];
  return {
    kind: 'search',
    url: location.href,
    title: document.title,
    hasState: !!context,
    // The site's "Page Not Found | Redfin" page names its route on the body.
    notFound: !!document.body && document.body.classList.contains('route-NotFoundPage'),
    source,
    gisUrl,
    resultCode: gis && gis.resultCode !== undefined ? gis.resultCode : null,
    errorMessage: gis && gis.errorMessage !== undefined ? gis.errorMessage : null,
    homes: Array.isArray(payload.homes) ? payload.homes.map((h) => pick(h, HOME)) : null,
  };
}
