// Reads a Yelp business page: its LocalBusiness JSON-LD (any subtype); the business in the state
// the page is drawn from (the Apollo cache in `script[data-apollo-state]`, HTML-escaped inside a
// comment, the entry `Business:<the yelp-biz-id meta>`), which pages served without the business
// JSON-LD still carry; and from the markup what both leave out: the header's categories, the hours
// table, amenities, the health inspection's score shown among them and photos.
(args, kit) => {
  const SEL = {
    name: 'h1',
    categories: '[data-testid="BizHeaderCategory"] a, a[href*="/search?cflt="], a[href*="find_desc="][href*="cflt"]',
    hoursRows: 'table[class*="hours-table"] tr',
    amenities: '[aria-label*="Amenities"] span, section[aria-label*="Amenities"] span',
    // The health inspection's line at the top of the amenities: its label links to the business's
    // inspections page ("Health Score" / "Estimated Health Score"), its score follows it ("A",
    // "98 out of 100", "No Critical Violations Noted").
    health: '[aria-label*="Amenities"] a[href*="/inspections/"]',
    photos: 'img[src*="yelpcdn.com/bphoto/"]',
    closed: '[class*="closed"]',
    bizId: 'meta[name="yelp-biz-id"]',
    state: 'script[data-apollo-state]',
  };
  const types = ['LocalBusiness', 'Restaurant', 'FoodEstablishment', 'Store', 'ProfessionalService',
                 'HomeAndConstructionBusiness', 'AutomotiveBusiness', 'HealthAndBeautyBusiness',
                 'MedicalBusiness', 'LodgingBusiness', 'EntertainmentBusiness'];
  // A day's hours: its ranges ("11:30 AM - 2:30 PM", "5:00 PM - 9:30 PM") joined, else the cell.
  const hoursOf = (td) => {
    if (!td) return '';
    const ranges = Array.from(td.querySelectorAll('p'), (p) => kit.text(p)).filter((t) => t);
    return ranges.length ? ranges.join(', ') : kit.text(td);
  };
  const hours = Array.from(document.querySelectorAll(SEL.hoursRows), (tr) => ({
    day: kit.text(tr.querySelector('th')), hours: hoursOf(tr.querySelector('td')),
  })).filter((h) => h.day && h.hours);
  const readState = () => {
    const id = kit.attr(SEL.bizId, 'content');
    const script = document.querySelector(SEL.state);
    if (!id || !script) return null;
    const raw = script.textContent.trim().replace(/^<!--/, '').replace(/-->$/, '');
    const cache = kit.parseJson(kit.decodeEntities(raw));
    const b = cache && cache['Business:' + id];
    if (!b || typeof b !== 'object') return null;
    const deref = (v) => (v && v.__ref ? cache[v.__ref] : v) || null;
    // The rating's key carries its arguments: `rating({"roundingMethod":"NEAREST_TENTH"})`.
    const ratingKey = Object.keys(b).find((k) => k === 'rating' || k.startsWith('rating('));
    const location = deref(b.location);
    const address = location && location.address;
    return {
      id,
      name: b.name || null,
      alias: b.alias || null,
      rating: ratingKey ? b[ratingKey] : null,
      reviewCount: b.reviewCount == null ? null : b.reviewCount,
      phone: b.phoneNumber ? b.phoneNumber.formatted : null,
      priceRange: b.priceRange ? b.priceRange.display : null,
      categories: (b.categories || []).map(deref).map((c) => c && c.title).filter((t) => t),
      address: address ? {
        lines: [address.addressLine1, address.addressLine2, address.addressLine3].filter((l) => l),
        city: address.city, region: address.regionCode, postalCode: address.postalCode,
        country: location.country ? location.country.code : null,
      } : null,
    };
  };
  const healthLink = document.querySelector(SEL.health);
  const healthLabel = healthLink && (healthLink.closest('span') || healthLink);
  const healthItem = healthLabel && healthLabel.parentElement;
  const healthScore = healthItem ? Array.from(healthItem.children)
      .filter((el) => el !== healthLabel && el.tagName === 'SPAN')
      .map((el) => kit.text(el)).find((t) => t) || '' : '';
  return {
    url: location.href,
    nodes: kit.jsonLd(),
    business: kit.jsonLd(types)[0] || null,
    state: readState(),
    name: kit.text(SEL.name),
    categories: kit.texts(SEL.categories),
    hours,
    health: healthLink ? {label: kit.text(healthLink), score: healthScore} : null,
    // The section's items, without its "32 More Attributes" button and the health score's line.
    amenities: Array.from(document.querySelectorAll(SEL.amenities))
        .filter((el) => !el.closest('button') && !(healthItem && healthItem.contains(el)))
        .map((el) => kit.text(el))
        .filter((t, i, all) => t && t.length < 60 && all.indexOf(t) === i),
    photos: Array.from(document.querySelectorAll(SEL.photos), (i) => i.getAttribute('src'))
        .filter((u, i, all) => u && all.indexOf(u) === i),
  };
}
