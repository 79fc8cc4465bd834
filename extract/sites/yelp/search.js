// Reads a Yelp search results page from the state it is drawn from: the object assigned to
// `react_root_props` in `script[data-id="react-root-props"]`, whose
// legacyProps.searchAppProps.searchPageProps.mainContentComponentsListProps lists the page's
// components. A business result (an ad or not) is an item with a `bizId`; the component whose
// `props` has `totalResults` counts the search's results. The pages of 2018-2019 carry the same
// items in the search app's hypernova state (`script[data-hypernova-key*="SearchApp"]`, JSON in a
// comment): searchPageProps.searchResultsProps.searchResults, counted by its paginationInfo.
// Strings come entity-decoded from the kit. A page without either state is read from its markup
// when it is of the older server-drawn layout.
(args, kit) => {
  // The search page of before the embedded state (2017-2019) is drawn on the server: one
  // `li.regular-search-result` a result in `ul.search-results`, ads `li.yloca-search-result`.
  const MARKUP = {
    result: 'ul.search-results > li.regular-search-result, ul.search-results > li.yloca-search-result',
    ad: 'yloca-search-result',
    name: 'a.biz-name',
    rating: '.biz-rating .i-stars[title], .biz-rating .star-img[title]',
    reviews: '.biz-rating .review-count',
    price: '.price-range',
    categories: '.category-str-list a',
    address: '.secondary-attributes address',
    phone: '.biz-phone',
    snippet: 'p.snippet',
    photo: '.photo-box-img',
    total: '.pagination-results-window',
  };
  const digits = (t) => { const d = (t || '').replace(/[^\d]/g, ''); return d ? Number(d) : null; };
  const readMarkup = () => Array.from(document.querySelectorAll(MARKUP.result), (r) => {
    const link = r.querySelector(MARKUP.name);
    const href = link ? link.href : '';
    let url = null;
    try { url = new URL(href); } catch (e) { url = null; }
    // An ad's links are Yelp's click counter: its business is the counter's `ad_business_id`,
    // its page the counter's `redirect_url`.
    const target = url && url.searchParams.get('redirect_url');
    let page = url;
    try { if (target) page = new URL(target, location.href); } catch (e) { page = url; }
    const alias = page && /^\/biz\/([^/?#]+)/.exec(page.pathname);
    const idHolder = r.querySelector('[data-biz-id]');
    const stars = r.querySelector(MARKUP.rating);
    const rating = stars ? parseFloat(stars.getAttribute('title').replace(',', '.')) : NaN;
    const snippet = r.querySelector(MARKUP.snippet);
    const address = r.querySelector(MARKUP.address);
    const photo = r.querySelector(MARKUP.photo);
    // The photo as the site gives it ("https://…", "//s3-media3.fl.yelpcdn.com/…"); a page saved
    // by a browser points src at a local copy, and srcset keeps the site's.
    let photoUrl = null;
    if (photo && /^(?:https?:)?\/\//.test(photo.getAttribute('src') || '')) {
      photoUrl = photo.src;
    } else if (photo) {
      photoUrl = (photo.getAttribute('srcset') || '').split(/\s+/)[0] || null;
    }
    return {
      bizId: idHolder ? idHolder.getAttribute('data-biz-id') :
          (url && url.searchParams.get('ad_business_id')) || '',
      isAd: r.classList.contains(MARKUP.ad),
      name: link ? kit.text(link) : '',
      alias: alias ? decodeURIComponent(alias[1]) : '',
      businessUrl: href || null,
      // Its lines (street, then city) joined as the embedded state writes them.
      formattedAddress: address ? address.innerText.split(/\s*\n\s*/).filter((l) => l).join(', ') : '',
      priceRange: kit.text(MARKUP.price, r),
      phone: kit.text(MARKUP.phone, r),
      rating: Number.isNaN(rating) ? null : rating,
      reviewCount: digits(kit.text(MARKUP.reviews, r)),
      categories: Array.from(r.querySelectorAll(MARKUP.categories),
                             (a) => ({title: kit.text(a), url: a.getAttribute('href')})),
      // The snippet's text, without its "read more" link.
      snippet: snippet ? Array.from(snippet.childNodes)
          .filter((n) => !(n.nodeType === 1 && n.tagName === 'A'))
          .map((n) => n.textContent).join('').replace(/\s+/g, ' ').trim() : null,
      photo: photoUrl,
      allPhotosHref: null,
      highlights: [],
    };
  });
  const readMarkupPage = () => {
    // "Showing 1-10 of 1607": the results shown, and the search's count (the last number).
    const text = kit.text(MARKUP.total);
    const count = /(\d[\d.,\s]*)\s*$/.exec(text);
    const range = /(\d[\d.,]*)\s*[-–]\s*(\d[\d.,]*)/.exec(text);
    return {items: readMarkup(), totalResults: count ? digits(count[1]) : null,
            shownFrom: range ? digits(range[1]) : null, shownTo: range ? digits(range[2]) : null};
  };
  const SEL = {
    rootProps: 'script[data-id="react-root-props"]',
    hypernova: 'script[data-hypernova-key*="SearchApp"]',
  };
  const script = document.querySelector(SEL.rootProps);
  const text = script ? script.textContent : '';
  const assignment = /react_root_props\s*=\s*/.exec(text);
  let root = assignment ? kit.valueAt(text, assignment.index + assignment[0].length) : null;
  let page = root && root.legacyProps && root.legacyProps.searchAppProps &&
      root.legacyProps.searchAppProps.searchPageProps;
  const hypernova = document.querySelector(SEL.hypernova);
  if (!page && hypernova) {
    const raw = hypernova.textContent.trim().replace(/^<!--/, '').replace(/-->$/, '');
    root = kit.parseJson(raw);
    page = root && root.searchPageProps;
  }
  const results = page && page.searchResultsProps;
  let list = null;
  if (page && Array.isArray(page.mainContentComponentsListProps)) {
    list = page.mainContentComponentsListProps;
  } else if (results && Array.isArray(results.searchResults)) {
    list = results.searchResults;
  }
  const paging = (results && results.paginationInfo) || {};
  const items = [];
  let totalResults = typeof paging.totalResults === 'number' ? paging.totalResults : null;
  for (const item of list || []) {
    if (!item || typeof item !== 'object') continue;
    if (item.props && typeof item.props.totalResults === 'number') {
      totalResults = item.props.totalResults;
    }
    const b = item.searchResultBusiness;
    if (!item.bizId || !b) continue;
    const photos = (item.scrollablePhotos && item.scrollablePhotos.photoList) || [];
    const highlights = (item.searchResultBusinessHighlights &&
        item.searchResultBusinessHighlights.businessHighlights) || [];
    items.push({
      bizId: item.bizId,
      isAd: item.isAd === true || b.isAd === true,
      name: b.name,
      alias: b.alias,
      businessUrl: b.businessUrl || item.businessUrl || null,
      formattedAddress: b.formattedAddress,
      priceRange: b.priceRange,
      phone: b.phone,
      rating: b.rating,
      reviewCount: b.reviewCount,
      categories: (b.categories || []).map((c) => ({title: c.title, url: c.url})),
      snippet: item.snippet ? item.snippet.text : null,
      photo: photos.length ? photos[0].src : null,
      allPhotosHref: item.scrollablePhotos ? item.scrollablePhotos.allPhotosHref : null,
      highlights: highlights.map((h) => h.title),
    });
  }
  if (!list) {
    const fromMarkup = readMarkupPage();
    if (fromMarkup.items.length) {
      return {hasScript: !!script, hasState: !!root, hasList: false, markup: true,
              totalResults: fromMarkup.totalResults, shownFrom: fromMarkup.shownFrom,
              shownTo: fromMarkup.shownTo, items: fromMarkup.items};
    }
  }
  return {hasScript: !!(script || hypernova), hasState: !!root, hasList: !!list, totalResults,
          perPage: typeof paging.resultsPerPage === 'number' ? paging.resultsPerPage : null, items};
}
