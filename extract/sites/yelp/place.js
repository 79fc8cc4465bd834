// Reads a Yelp business page: its LocalBusiness JSON-LD (any subtype), and from the markup what
// the JSON-LD leaves out: categories, the hours table, amenities and photos.
(args, kit) => {
  const SEL = {
    name: 'h1',
    categories: 'a[href*="/search?cflt="], a[href*="find_desc="][href*="cflt"]',
    hoursRows: 'table[class*="hours-table"] tr',
    amenities: '[aria-label*="Amenities"] span, section[aria-label*="Amenities"] span',
    photos: 'img[src*="yelpcdn.com/bphoto/"]',
    closed: '[class*="closed"]',
  };
  const types = ['LocalBusiness', 'Restaurant', 'FoodEstablishment', 'Store', 'ProfessionalService',
                 'HomeAndConstructionBusiness', 'AutomotiveBusiness', 'HealthAndBeautyBusiness',
                 'MedicalBusiness', 'LodgingBusiness', 'EntertainmentBusiness'];
  const hours = Array.from(document.querySelectorAll(SEL.hoursRows), (tr) => ({
    day: kit.text(tr.querySelector('th')), hours: kit.text(tr.querySelector('td')),
  })).filter((h) => h.day && h.hours);
  return {
    url: location.href,
    nodes: kit.jsonLd(),
    business: kit.jsonLd(types)[0] || null,
    name: kit.text(SEL.name),
    categories: kit.texts(SEL.categories),
    hours,
    amenities: kit.texts(SEL.amenities).filter((t, i, all) => t.length < 60 && all.indexOf(t) === i),
    photos: Array.from(document.querySelectorAll(SEL.photos), (i) => i.getAttribute('src')).filter((u) => u),
  };
}
