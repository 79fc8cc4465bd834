// Reads a Booking.com property page: the JSON-LD Hotel block first (name, address, rating, photo),
// then what only the page shows: the visible review score and count (the JSON-LD count can lag
// it), review categories, star rating, coordinates, description, photos, most popular
// facilities, house rules, and the rooms: the availability table (`#hprt-table`, only on pages
// with dates) or, without dates, the room types list. Selectors are the site's data-testid and
// ids, in SEL.
(args, kit) => {
  const SEL = {
    name: ['[data-testid="PropertyHeaderDesktop-wrapper"] h2', '#hp_hotel_name', 'h2.pp-header__title',
           '[data-testid="PropertyHeaderName"]'],
    latlng: '[data-atlas-latlng]',
    address: '[data-testid="PropertyHeaderAddressDesktop-wrapper"] button, .hp_address_subtitle',
    score: ['[data-testid="review-score-right-component"]', '[data-testid="review-score-component"]'],
    subscore: '[data-testid="review-subscore"]',
    subscoreLines: '[data-testid="ReviewSubscoresDesktop"] ~ span',
    stars: '[data-testid="quality-rating"], [data-testid="rating-stars"], [data-testid="rating-squares"]',
    description: '[data-testid="property-description"], #property_description_content',
    popular: '[data-testid="property-most-popular-facilities-wrapper"] li',
    facilityGroups: '[data-testid="property-section--content"] [data-testid="facility-group-icon"]',
    houseRules: '[data-testid="HouseRules-wrapper"] [data-testid="property-section--content"] > div > div',
    photos: ['[data-testid="GalleryUnifiedDesktop-wrapper"] img', '.bh-photo-grid img',
             'a[data-thumb-url]', 'img[src*="bstatic.com/xdata/images/hotel"]'],
    noReviews: '[data-testid="no-reviews-banner"]',
    availabilityRows: '#hprt-table tbody tr',
    roomTypeRows: '#maxotelRoomArea tbody tr',
    roomName: '[data-testid="rt-name-link"], .hprt-roomtype-link',
    beds: '.hprt-roomtype-bed li, [data-testid="rt-name-link"] ~ div span:not([aria-hidden])',
  };
  const first = (list) => {
    for (const s of [].concat(list)) {
      const n = document.querySelector(s);
      if (n) return n;
    }
    return null;
  };
  // The first non-empty text of an element, without what its children add after it (the header's
  // address button also holds the location score).
  const firstText = (el) => {
    if (!el) return '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent.replace(/\s+/g, ' ').trim();
      if (t) return t;
    }
    return '';
  };
  const hotel = kit.jsonLd(['Hotel', 'LodgingBusiness', 'Apartment', 'Resort', 'Hostel',
                            'BedAndBreakfast', 'Motel', 'VacationRental', 'Campground'])[0] || null;

  let hotelId = null;
  // The page's kind as the site's scripts name it ("b_action": 'hotel'; 'error404' on the page
  // it serves for a property it does not have).
  let action = null;
  for (const t of kit.scriptTexts('script:not([src])')) {
    const m = /b_hotel_id\s*[:=]\s*'?(\d+)/.exec(t);
    if (m && !hotelId) hotelId = m[1];
    const a = /"?b_action"?\s*:\s*['"](\w+)['"]/.exec(t);
    if (a && !action) action = a[1];
    if (hotelId && action) break;
  }
  if (!hotelId) {
    const input = document.querySelector('input[name="hotel_id"]');
    if (input) hotelId = input.value;
  }

  const latlng = document.querySelector(SEL.latlng);
  const scoreBox = first(SEL.score);
  const scoreLines = scoreBox ? Array.from(scoreBox.children, (c) => kit.text(c)).filter((t) => t) : [];

  const categories = [];
  for (const box of document.querySelectorAll(SEL.subscore)) {
    const label = kit.text(box.querySelector('span'));
    const value = kit.text(box.querySelector('[aria-hidden="true"]:not(span)'));
    const meter = box.querySelector('[role="meter"]');
    categories.push({label, value: value || (meter ? meter.getAttribute('aria-valuetext') : '')});
  }
  // The older layout lists categories as "Cleanliness, 7.8, Average rating out of 10".
  for (const span of document.querySelectorAll(SEL.subscoreLines)) {
    const parts = kit.text(span).split(',').map((s) => s.trim());
    if (parts.length >= 2) categories.push({label: parts[0], value: parts[1]});
  }

  const rules = [];
  for (const row of document.querySelectorAll(SEL.houseRules)) {
    if (row.tagName === 'HR' || row.children.length < 2) continue;
    rules.push({label: kit.text(row.firstElementChild), value: kit.text(row.lastElementChild)});
  }

  const photos = [];
  for (const s of SEL.photos) {
    for (const n of document.querySelectorAll(s)) {
      const u = n.getAttribute('data-thumb-url') || n.getAttribute('src') || n.getAttribute('data-src');
      if (u && /bstatic\.com/.test(u) && !photos.includes(u)) photos.push(kit.abs(u));
    }
    if (photos.length) break;
  }

  const rooms = [];
  for (const row of document.querySelectorAll(SEL.availabilityRows)) {
    const nameLink = row.querySelector(SEL.roomName);
    rooms.push({
      kind: 'availability',
      name: nameLink ? kit.text(nameLink) : '',
      roomId: row.getAttribute('data-block-id'),
      beds: kit.texts('.hprt-roomtype-bed li', row),
      occupancy: kit.text('.hprt-occupancy-occupancy-info, .c-occupancy-icons__adults', row),
      price: kit.text('.bui-price-display__value, .prco-valign-middle-helper', row),
      conditions: kit.texts('.hprt-conditions li, .bui-list__item', row),
      roomsLeft: kit.text('.hprt-roomtype-icon-link ~ .only_x_left, .top_scarcity', row),
    });
  }
  if (!rooms.length) {
    for (const row of document.querySelectorAll(SEL.roomTypeRows)) {
      const link = row.querySelector(SEL.roomName);
      if (!link) continue;
      const id = /room_type_id_(\d+)/.exec(link.id || '');
      const beds = Array.from(link.parentElement.parentElement.querySelectorAll('span'))
          .map((s) => kit.text(s)).filter((t) => /\bbeds?\b|sofa|futon|bunk/i.test(t) && t.length < 60);
      rooms.push({kind: 'type', name: kit.text(link), roomId: id ? id[1] : null,
                  beds: Array.from(new Set(beds)),
                  adults: row.querySelectorAll('[data-testid="adults-icon"]').length});
    }
  }

  return {
    url: location.href,
    canonical: kit.meta().canonical || null,
    lang: document.documentElement.getAttribute('lang'),
    hotelId,
    action,
    jsonLd: hotel,
    name: kit.text(first(SEL.name)),
    latlng: latlng ? latlng.getAttribute('data-atlas-latlng') : null,
    address: firstText(document.querySelector(SEL.address)),
    scoreLines,
    categories,
    noReviews: !!document.querySelector(SEL.noReviews),
    stars: (() => { const n = document.querySelector(SEL.stars); return n ? n.getAttribute('aria-label') : null; })(),
    description: kit.text(SEL.description),
    // A page may carry the block twice (two layouts of it, the FabHotel page of 2026): once each.
    popularFacilities: [...new Set(kit.texts(SEL.popular))],
    locationScore: (() => {
      const m = /location\s*[-–—]\s*rated\s*([\d.,]+)\s*\/\s*10!?\s*(?:\(score from\s*([\d,.]+)\s*reviews\))?/i
          .exec(document.body ? document.body.innerText : '');
      return m ? {score: m[1], reviews: m[2] || null} : null;
    })(),
    houseRules: rules,
    photos,
    rooms,
    title: document.title,
  };
}
