// Reads a Tripadvisor place page: its JSON-LD place node (the first of the types below) with the
// nodes it references, and from the markup what the JSON-LD leaves out: the ranking line
// ("#1 of 30 Restaurants in Jaffna"), the rating histogram and the amenities, and a restaurant's
// cuisines, phone and opening hours where its JSON-LD has none (the 2018 layout).
(args, kit) => {
  const TYPES = ['LodgingBusiness', 'Hotel', 'Restaurant', 'FoodEstablishment', 'TouristAttraction',
                 'LandmarksOrHistoricalBuildings', 'Product', 'TouristTrip', 'TouristDestination', 'City',
                 'Place', 'LocalBusiness'];
  const SEL = {
    // The reviews' rating filter (counts) in each layout; the older layouts' summary chart, whose
    // rows are shares ("57%"), comes first in the document and is passed over by place.cpp.
    histogram: '[data-test-target="review-rating-filter"] li, .ratings_chart li, [data-automation="reviewRatingFilter"] label, [data-param="trating"] .item, #ratingFilter .filterItem',
    amenities: '[data-test-target="amenity_text"], [data-automation="amenity"]',
    description: '[data-automation="aboutTabDescription"], .fIrGe, [data-test-target="hotels-about"] div',
    ranking: '.header_popularity',
    // The 2018 layout's restaurant details: the header's "CUISINES" line ("British, Vegetarian
    // Friendly"), its phone, and the "Open Hours" week, a row a day ("Monday", "09:00 - 05:00").
    cuisines: '.cuisines .text',
    phone: '.blEntry.phone',
    hoursDay: '.hours.content .detail',
  };
  const nodes = kit.jsonLd();
  // Pages of before the JSON-LD (2015 and earlier) mark the place up in RDFa of the
  // data-vocabulary.org kind (v:name, v:average, v:count, v:street-address…): read into the
  // schema.org shape the JSON-LD has, so place.cpp shapes either alike.
  const rdfa = (p) => {
    const e = document.querySelector(`[property="v:${p}"]`);
    return e ? (e.getAttribute('content') || kit.text(e)) : '';
  };
  const rdfaPlace = () => {
    const name = kit.text('[property="v:name"], [rel="v:name"]');
    if (!name) return null;
    return {'@type': 'LocalBusiness', name,
            aggregateRating: {ratingValue: rdfa('average'), reviewCount: rdfa('count')},
            address: {streetAddress: rdfa('street-address'), addressLocality: rdfa('locality'),
                      addressRegion: rdfa('region'), postalCode: rdfa('postal-code'),
                      addressCountry: rdfa('country-name')}};
  };
  const place = nodes.find((n) => [].concat(n['@type']).some((t) => TYPES.includes(t))) || rdfaPlace();
  const body = document.body ? document.body.innerText : '';
  // "#2 of 32 things to do in Kranj", "Nr. 9 av 43 hoteller i Bergen", "Nr. 3 von 120 …",
  // "N° 5 sur 76 …": the place's rank among its kind in the page's language.
  // Read in the ranking's own element where the layout has one (its text runs on into the next
  // element's in the page's text), else in the page's text.
  const RANK = /(?:#|\bNr\.|\bN°|\bN\.º)\s?\d[\d,.]*\s+(?:of|sur|von|de|di|van|av|af)\s+[\d,.\s]+[^\n]{0,80}/i;
  const ranking = RANK.exec(kit.text(SEL.ranking)) || RANK.exec(body);
  // "9:00 AM" / "21:30" → "HH:MM"; '' for anything else.
  const clock = (t) => {
    const m = /(\d{1,2}):(\d{2})\s*([AaPp])?/.exec(t || '');
    if (!m) return '';
    let h = Number(m[1]) % (m[3] ? 12 : 24);
    if (m[3] && /p/i.test(m[3])) h += 12;
    return `${String(h).padStart(2, '0')}:${m[2]}`;
  };
  // Each day's ranges as schema.org's openingHoursSpecification, so place.cpp reads them alike.
  const hours = [];
  for (const row of document.querySelectorAll(SEL.hoursDay)) {
    for (const range of kit.texts('.hoursRange', row)) {
      const [opens, closes] = range.split(/\s+[-–]\s+/).map(clock);
      if (opens && closes) hours.push({dayOfWeek: kit.text('.day', row), opens, closes});
    }
  }
  return {
    url: location.href,
    canonical: kit.meta().canonical || null,
    lang: document.documentElement.getAttribute('lang'),
    nodes,
    place,
    ranking: ranking ? ranking[0].trim() : null,
    histogram: kit.texts(SEL.histogram),
    amenities: kit.texts(SEL.amenities),
    description: kit.text(SEL.description),
    cuisines: kit.text(SEL.cuisines).split(/\s*,\s*/).filter((c) => c),
    phone: kit.text(SEL.phone),
    hours,
    title: document.title,
  };
}
