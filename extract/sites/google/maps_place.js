// Reads a rendered maps place page, for the scraper jobs (extract/sites/google/maps/reader.h) and
// GET /scrape/google-maps/place (maps_place.cpp). The values are read as the page writes them
// (labels such as "Address: ...", "4.7 stars"); extract/sites/google/maps/page_rows.cpp shapes
// them. Where the page still carries the place's data as Maps' own arrays
// (APP_INITIALIZATION_STATE[3][6]: pages before 2024, and the page as served before its scripts
// ran, 2025), that string is returned too and
// extract/sites/google/maps/place.h reads it.
() => {
  // Selectors, in one place so they can be mended (shared/fixtures/README.md, "Maps").
  const SEL = {
    main: 'div[role="main"][aria-label]',  // the place's panel, labelled with its name
    heading: 'h1',
    // The rating and the review count are images labelled in the page's language ("4.7 stars " /
    // "5,0 étoiles ", "17,059 reviews" / "30 avis"): the rating is the first labelled image that
    // follows its number as the page shows it and repeats it; the review count is the next
    // image of its block with a number. (The histogram's rows further down,
    // "5 étoiles, 30 avis", have no such number before them.)
    labelledImage: '[role="img"][aria-label]',
    category: 'button[jsaction$=".category"]',
    address: '[data-item-id="address"]',  // aria-label "Address: 2800 E Observatory Rd, ..."
    website: 'a[data-item-id="authority"]',
    phone: '[data-item-id^="phone:tel:"]',  // aria-label "Phone: (213) 473-0800"
    // "Closed" in the page's red, inside the line "Closed · Opens 12 PM Fri" above the hours.
    openState: 'span[style*="color"]',
    photo: 'img[src*="googleusercontent.com"]',  // the place's first photo, above its name
  };
  const state = window.APP_INITIALIZATION_STATE;
  const appState = state && state[3] && typeof state[3][6] === 'string' ? state[3][6] : null;
  const main = document.querySelector(SEL.main);
  // The page as the server sends it, before its scripts draw the panel (a ka page of 2025 saved
  // so), still carries the place's arrays: they are the place.
  if (!main) return appState ? {found: true, url: location.href, appState} : {found: false};
  const text = (el) => (el ? el.textContent.replace(/\s+/g, ' ').trim() : '');
  const label = (el) => (el ? (el.getAttribute('aria-label') || '').trim() : '');
  const first = (sel) => main.querySelector(sel);
  const numbered = (el) => /\d/.test(label(el));

  const rating = [...main.querySelectorAll(SEL.labelledImage)].find((img) => {
    const shown = img.previousElementSibling;
    return shown && shown.getAttribute('aria-hidden') === 'true' && /\d/.test(text(shown)) &&
        label(img).includes(text(shown));
  });
  const ratingBlock = rating ? rating.closest('div') : null;
  const reviews = ratingBlock ? [...ratingBlock.querySelectorAll(SEL.labelledImage)].find(
                                    (img) => img !== rating && numbered(img))
                              : null;

  // Opening hours: the table whose rows are a day and a list of time ranges.
  let hours = [];
  for (const table of main.querySelectorAll('table')) {
    const rows = [...table.querySelectorAll('tr')].map((tr) => ({
      day: text(tr.cells[0]),
      hours: tr.cells.length > 1 ? [...tr.cells[1].querySelectorAll('li')].map(text) : [],
    }));
    if (rows.length && rows.every((r) => r.day && r.hours.length)) {
      hours = rows;
      break;
    }
  }
  const phone = first(SEL.phone);
  const openState = first(SEL.openState);
  const photo = first(SEL.photo);
  return {
    found: true,
    url: location.href,
    name: text(first(SEL.heading)) || label(main),
    rating: label(rating),
    reviews: label(reviews),
    categories: [...main.querySelectorAll(SEL.category)].map(text).filter(Boolean),
    address: label(first(SEL.address)),
    website: first(SEL.website) ? first(SEL.website).href : '',
    phone: label(phone),
    phoneNumber: phone ? phone.getAttribute('data-item-id').slice('phone:tel:'.length) : '',
    hours,
    openState: openState ? text(openState.parentElement) : '',
    thumbnail: photo ? photo.src : '',
    // The place's own link (its feature id, coordinates and place id) when the page was opened
    // by another address (`?q=place_id:…`): the page keeps it for its script-less version.
    selfLink: typeof window.ES5DGURL === 'string' ? window.ES5DGURL : '',
    appState,
  };
}
