// Reads a Tripadvisor place page: its JSON-LD place node (the first of the types below) with the
// nodes it references, and from the markup what the JSON-LD leaves out: the ranking line
// ("#1 of 30 Restaurants in Jaffna"), the rating histogram and the amenities.
(args, kit) => {
  const TYPES = ['LodgingBusiness', 'Hotel', 'Restaurant', 'FoodEstablishment', 'TouristAttraction',
                 'LandmarksOrHistoricalBuildings', 'Product', 'TouristTrip', 'TouristDestination', 'City',
                 'Place', 'LocalBusiness'];
  const SEL = {
    histogram: '[data-test-target="review-rating-filter"] li, .ratings_chart li, [data-automation="reviewRatingFilter"] label',
    amenities: '[data-test-target="amenity_text"], [data-automation="amenity"]',
    description: '[data-automation="aboutTabDescription"], .fIrGe, [data-test-target="hotels-about"] div',
  };
  const nodes = kit.jsonLd();
  const place = nodes.find((n) => [].concat(n['@type']).some((t) => TYPES.includes(t))) || null;
  const body = document.body ? document.body.innerText : '';
  const ranking = /#\s?\d[\d,.]*\s+(?:of|sur|von|de|di|van)\s+[\d,.\s]+[^\n]{0,80}/i.exec(body);
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
    title: document.title,
  };
}
