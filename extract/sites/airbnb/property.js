// Reads an Airbnb room page by its sections (`data-section-id`, the names the site gives them:
// TITLE_DEFAULT, OVERVIEW_DEFAULT, BOOK_IT_SIDEBAR, REVIEWS_DEFAULT / REVIEWS_EMPTY_DEFAULT,
// HOST_PROFILE_DEFAULT, AMENITIES_DEFAULT / AMENITIES_PLUS, DESCRIPTION_DEFAULT,
// HIGHLIGHTS_DEFAULT, HERO_DEFAULT / HERO_PLUS), whatever their variant suffix. Texts are returned
// as the page shows them; airbnb/property.cpp reads numbers and labels out of them.
(args, kit) => {
  const SEL = {
    section: (name) => `[data-section-id^="${name}_"], [data-section-id="${name}"]`,
    heading: 'h1, h2',
  };
  const section = (name) => document.querySelector(SEL.section(name));
  const textOf = (name) => { const s = section(name); return s ? kit.text(s) : ''; };
  // Short texts of a section's leaves, in order, without repeats (amenity names, highlight titles).
  const leaves = (el) => {
    if (!el) return [];
    const out = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('button, h1, h2, [aria-hidden="true"]')) continue;
      const t = n.textContent.replace(/\s+/g, ' ').trim();
      if (t && t.length < 80 && !out.includes(t)) out.push(t);
    }
    return out;
  };
  const title = section('TITLE');
  const titleButtons = title ? Array.from(title.querySelectorAll('button'), (b) => ({
    label: b.getAttribute('aria-label') || '', text: kit.text(b)})) : [];
  const overview = section('OVERVIEW');
  const highlights = section('HIGHLIGHTS');
  const hero = section('HERO');
  const photos = [];
  for (const img of (hero ? hero.querySelectorAll('img') : [])) {
    const u = img.getAttribute('data-original-uri') || img.getAttribute('src');
    if (u && /muscache\.com/.test(u) && !photos.includes(u)) photos.push(u);
  }
  const reviews = section('REVIEWS');
  return {
    url: location.href,
    canonical: kit.meta().canonical || null,
    lang: document.documentElement.getAttribute('lang'),
    meta: {title: kit.meta()['og:title'] || null, description: kit.meta()['og:description'] || null,
           image: kit.meta()['og:image'] || null},
    title: title ? kit.text(title.querySelector(SEL.heading)) : kit.text('h1'),
    titleText: textOf('TITLE'),
    titleButtons,
    overviewHeading: overview ? kit.text(overview.querySelector(SEL.heading)) : '',
    overviewItems: overview ? kit.texts('ol li, ul li', overview) : [],
    overviewText: textOf('OVERVIEW'),
    price: textOf('BOOK_IT_SIDEBAR'),
    reviewsText: reviews ? kit.text(reviews).slice(0, 1500) : '',
    noReviews: !!section('REVIEWS_EMPTY'),
    host: textOf('HOST_PROFILE').slice(0, 2000),
    amenities: leaves(section('AMENITIES')).filter((t) => !/^What this place offers$|^Amenities$|^Show all/.test(t)),
    description: textOf('DESCRIPTION'),
    highlights: highlights ? Array.from(highlights.querySelectorAll(':scope > div > div:last-child > div:first-child'),
                                        (n) => kit.text(n)).filter((t) => t) : [],
    photos,
  };
}
