// Reads an Airbnb room page by its sections (`data-section-id`, the names the site gives them:
// TITLE_DEFAULT, OVERVIEW_DEFAULT, BOOK_IT_SIDEBAR, REVIEWS_DEFAULT / REVIEWS_EMPTY_DEFAULT,
// HOST_PROFILE_DEFAULT, AMENITIES_DEFAULT / AMENITIES_PLUS, DESCRIPTION_DEFAULT,
// HIGHLIGHTS_DEFAULT, HERO_DEFAULT / HERO_PLUS), whatever their variant suffix. Texts are returned
// as the page shows them; airbnb/property.cpp reads numbers and labels out of them.
// The same listing as the page's embedded answer gives it (`script#data-deferred-state*` →
// niobeClientData → StaysPdpSections: `presentation.stayProductDetailPage.sections` and
// `node.pdpPresentation`), in `state`: what a page whose sections are drawn by its scripts (the
// server's page of 2026, any language) shows only there.
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
  // The StaysPdpSections answer, its fields as the page shows them (texts in the page's language).
  const pdpState = () => {
    let pdp = null;
    for (const script of document.querySelectorAll('script[id^="data-deferred-state"]')) {
      const state = kit.parseJson(script.textContent);
      const entries = state && (state.niobeClientData || state.niobeMinimalClientData);
      for (const entry of Array.isArray(entries) ? entries : []) {
        if (String(entry && entry[0]).startsWith('StaysPdpSections') && entry[1] && entry[1].data) {
          pdp = entry[1].data;
        }
      }
    }
    const page = pdp && pdp.presentation && pdp.presentation.stayProductDetailPage;
    const sections = page && page.sections;
    if (!sections) return null;
    const by = {};
    for (const s of sections.sections || []) {
      const name = String(s.sectionId || '').replace(/_DEFAULT.*$/, '');
      if (s.section && !by[name]) by[name] = s.section;
    }
    const meta = sections.metadata || {};
    const sharing = meta.sharingConfig || {};
    const node = (pdp.node && pdp.node.pdpPresentation) || {};
    const plain = (html) => {
      if (!html) return '';
      const doc = new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, '\n'), 'text/html');
      return (doc.body.textContent || '').replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
    };
    const host = (by.MEET_YOUR_HOST || {}).cardData || {};
    const reviews = by.REVIEWS || {};
    const where = by.LOCATION || {};
    const og = (meta.seoFeatures && meta.seoFeatures.ogTags) || {};
    const title = (node.title && node.title.content && node.title.content.localizedString) ||
        og.ogDescription || '';
    return {
      title,
      propertyType: sharing.propertyType || '',
      place: where.subtitle || sharing.location || '',
      city: sharing.location || '',
      lat: where.lat, lng: where.lng,
      guests: node.personCapacity || sharing.personCapacity || null,
      hostName: host.name || '', superhost: host.isSuperhost === true,
      rating: reviews.overallRating !== undefined ? reviews.overallRating : sharing.starRating,
      reviews: reviews.overallCount !== undefined ? reviews.overallCount : sharing.reviewCount,
      categories: (reviews.ratings || []).map((r) => ({type: r.categoryType,
                                                      rating: r.localizedRating})),
      amenities: ((node.amenities || {}).seeAllAmenitiesGroups || [])
          .flatMap((g) => g.amenities || [])
          .filter((a) => a.available !== false).map((a) => a.title).filter((t) => t),
      description: plain(((by.DESCRIPTION || {}).htmlDescription || {}).htmlText),
      photos: ((by.HERO || {}).previewImages || []).map((i) => i.baseUrl).filter((u) => u),
      highlights: (node.highlights || []).map((h) => h.headline && h.headline.localizedContent)
          .filter((t) => t),
    };
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
    state: pdpState(),
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
