// Reads an Amazon product page (/dp/<asin>) of any storefront: the product's DOM ids (title,
// byline, buy box price, availability, merchant, rating, breadcrumbs, bullets, description,
// overview and detail tables, what is in the box), the image block's `colorImages` gallery and the
// twister's variation JSON (`dimensionValuesDisplayData`). Texts are returned as the page writes
// them; the C++ reads their numbers in the storefront's locale.
(args, kit) => {
  const SEL = {
    // Amazon's robot check posts its answer to /errors/validateCaptcha.
    asin: 'input#ASIN, input[name="ASIN"]',
    // A Kindle book's title is its own id (the heading adds the format: "Kindle Edition").
    title: '#productTitle, #ebooksProductTitle',
    // The mobile layout writes the title in the heading itself (the desktop's heading holds
    // #productTitle).
    mobileTitle: '#title',
    byline: '#bylineInfo',
    // The buy box's price blocks, the fullest first: the 2024+ display block (price, list
    // price, savings), the older table block, then the accordion row's block (price only).
    priceBlocks: ['#corePriceDisplay_desktop_feature_div', '#corePrice_desktop',
                  '#corePrice_feature_div', '#corePriceDisplay_mobile_feature_div'],
    priceToPay: '.priceToPay, .apexPriceToPay, .a-price:not(.a-text-price)',
    // The struck-through list price ("Precio recomendado: 66,11€", "List Price: $28.89"), never
    // the price per unit beside the price ("(26,21€ / 2)").
    basisPrice: '.basisPrice .a-price, .a-price.a-text-price[data-a-strike="true"]',
    savings: '.savingsPercentage',
    // Layouts before the price blocks (and books' format swatches) write the price alone.
    legacyPrice: '#priceblock_dealprice, #priceblock_ourprice, #priceblock_saleprice, ' +
      '#price_inside_buybox, #newBuyBoxPrice, #kindle-price, #buyNewSection .offer-price, ' +
      // The 2019 Kindle buy box: a table row "Kindle-Preis: EUR 15,99".
      'tr.kindle-price td.a-color-price',
    availability: '#availability',
    outOfStock: '#outOfStockBuyBox_feature_div #outOfStock, #outOfStockBuyBox',
    merchant: '[offer-display-feature-name="desktop-merchant-info"] .offer-display-feature-text-message',
    sellerLink: '#sellerProfileTriggerId',
    rating: '#acrPopover',
    ratingText: '#acrPopover .a-icon-alt, #averageCustomerReviews .a-icon-alt, ' +
      '#acrCustomerReviewLink .a-icon-alt',
    ratingCount: '#acrCustomerReviewText, #acrCustomerReviewLink span[aria-label]',
    breadcrumbs: '#wayfinding-breadcrumbs_feature_div ul li a',
    bullets: '#feature-bullets ul li span.a-list-item',
    factsBullets: '#productFactsDesktopExpander ul li span.a-list-item',
    description: '#productDescription',
    // A book's blurb: its expander (2026), else (2019) the copy the page keeps in <noscript> for
    // the frame its script draws.
    bookDescription: '#bookDescription_feature_div',
    overviewRows: '#productOverview_feature_div tr',
    detailRows: 'table.prodDetTable tr',
    detailBullets: '#detailBullets_feature_div ul li > span.a-list-item',
    // The 2019 product information: "<b>Verlag:</b> Orbit (28. März 2019)" items, and the
    // labelled cells of the grocery table.
    legacyDetailItems: '#detail_bullets_id .content > ul > li, #detail-bullets .content > ul > li',
    legacyDetailRows: '#prodDetails .pdTab tr',
    facts: '#productFactsDesktopExpander .product-facts-detail',
    inTheBox: '#whatsInTheBoxDeck li, #whatsInTheBoxDeck dd',
    formatSwatches: '#tmmSwatches .swatchElement',
    landingImage: '#landingImage',
    // The cover image of a book's page ({"<url>": [width, height], ...}, a size each).
    dynamicImage: '#imgBlkFront[data-a-dynamic-image], #ebooksImgBlkFront[data-a-dynamic-image], ' +
      '#landingImage[data-a-dynamic-image]',
    // The mobile layout's image block: its main and other images, each with its large version.
    blockImages: 'img[data-a-image-name="mainImage"][data-a-hires], ' +
      'img[data-a-image-name="altImage"][data-a-hires]',
  };
  const clean = (s) => (s || '').replace(/[\u200e\u200f]/g, '').replace(/\s+/g, ' ').trim();
  const one = (sel, scope) => (scope || document).querySelector(sel);
  // Its text without its scripts, styles and `drop` (a rank's nested list), a line break and a
  // paragraph's end read as a space ("series<br>NOW" is two words).
  const ownText = (el, drop) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('style, script, noscript' + (drop ? ', ' + drop : ''))
      .forEach((n) => n.remove());
    copy.querySelectorAll('br, p, div, li').forEach((n) => n.after(' '));
    return clean(copy.textContent);
  };
  // An element's text as the page shows it; one not drawn (a collapsed section, a saved page's
  // hidden block) has no rendered text, and its own text is read without its scripts.
  const shownText = (el) => {
    if (!el) return '';
    return el.getClientRects().length ? clean(kit.text(el)) : ownText(el);
  };
  // A price as the page writes it: the screen-reader text, else the visible symbol and digits.
  const priceText = (el) => {
    if (!el) return '';
    const off = clean(kit.text(el.querySelector('.a-offscreen')));
    if (off) return off;
    return clean(kit.text(el.querySelector('[aria-hidden="true"]') || el));
  };
  // The first block that shows a price; its price, list price and savings belong together.
  let block = null;
  let pay = null;
  for (const sel of SEL.priceBlocks) {
    const b = one(sel);
    const p = b && b.querySelector(SEL.priceToPay);
    if (p && priceText(p)) {
      block = b;
      pay = p;
      break;
    }
  }
  const basis = block && block.querySelector(SEL.basisPrice);
  // A legacy price element is the price alone ("EUR 33,69", "$15.99"): a longer text is a
  // container, not a price.
  const legacy = one(SEL.legacyPrice);
  const legacyText = !pay && legacy ? clean(kit.text(legacy)) : '';

  // The JSON value after `"key" :` (or `'key': {'initial': `) in the page's inline scripts.
  const scriptValue = (pattern) => {
    for (const text of kit.scriptTexts('script:not([src])')) {
      const m = pattern.exec(text);
      if (m) {
        const v = kit.valueAt(text, m.index + m[0].length);
        if (v !== null) return v;
      }
    }
    return null;
  };
  const gallery = scriptValue(/'colorImages'\s*:\s*\{\s*'initial'\s*:\s*(?=\[)/) || [];
  const images = [];
  for (const g of gallery) {
    const u = g && (g.hiRes || g.large);
    if (u && !images.includes(u)) images.push(u);
  }
  if (!images.length) {
    for (const img of document.querySelectorAll(SEL.blockImages)) {
      const u = img.getAttribute('data-a-hires');
      if (u && !images.includes(u)) images.push(u);
    }
  }
  if (!images.length) {
    // The largest of the image's sizes.
    const sizes = kit.parseJson(kit.attr(SEL.dynamicImage, 'data-a-dynamic-image'));
    let best = null;
    let area = -1;
    for (const [u, wh] of Object.entries(sizes && typeof sizes === 'object' ? sizes : {})) {
      const a = Array.isArray(wh) ? (Number(wh[0]) || 0) * (Number(wh[1]) || 0) : 0;
      if (a > area) {
        best = u;
        area = a;
      }
    }
    if (best) images.push(best);
  }
  const variations = scriptValue(/"dimensionValuesDisplayData"\s*:\s*(?=\{)/);
  // The dimensions' names as the page shows them: `dimensionsDisplay`, or (pages without it)
  // each of `dimensions` ("color_name") by `variationDisplayLabels` ({"color_name": "Cor"}).
  let dimensionLabels = scriptValue(/"dimensionsDisplay"\s*:\s*(?=\[)/);
  if (!dimensionLabels) {
    const keys = scriptValue(/"dimensions"\s*:\s*(?=\[)/);
    const names = scriptValue(/"variationDisplayLabels"\s*:\s*(?=\{)/);
    if (Array.isArray(keys) && names && typeof names === 'object') {
      dimensionLabels = keys.map((k) => names[k] || '');
    }
  }
  const selected = scriptValue(/"selected_variations"\s*:\s*(?=\{)/);
  // A book's format swatches: each format's name and the ASIN its link goes to (the selected
  // one, without a link, is this page's).
  const formats = Array.from(document.querySelectorAll(SEL.formatSwatches), (el) => {
    const link = el.querySelector('a.a-button-text');
    const m = /\/dp\/([A-Z0-9]{10})/.exec((link && link.getAttribute('href')) || '');
    return {
      asin: m ? m[1] : null,
      selected: el.classList.contains('selected'),
      format: link ? clean(kit.text(link.querySelector('span'))) : '',
    };
  });

  const pairs = (rows, keySel, valueSel) => rows.map((r) => [
    shownText(r.querySelector(keySel)), shownText(r.querySelector(valueSel))]);
  const overview = pairs(Array.from(document.querySelectorAll(SEL.overviewRows)),
                         'td:first-child', 'td:last-child');
  // A row's label is its th (the mobile layout's tables: its first td).
  const details = pairs(Array.from(document.querySelectorAll(SEL.detailRows)),
                        'th, td:first-child', 'td:last-child');
  const facts = pairs(Array.from(document.querySelectorAll(SEL.facts)), '.a-col-left', '.a-col-right');
  for (const li of document.querySelectorAll(SEL.detailBullets)) {
    const spans = li.querySelectorAll(':scope > span');
    if (spans.length >= 2) details.push([clean(kit.text(spans[0])).replace(/\s*:$/, ''), clean(kit.text(spans[1]))]);
  }
  for (const li of document.querySelectorAll(SEL.legacyDetailItems)) {
    const label = li.querySelector(':scope > b');
    if (!label) continue;
    const key = clean(kit.text(label)).replace(/\s*:$/, '');
    const value = ownText(li, ':scope > b, ul').replace(/\(\s*\)$/, '').trim();
    if (key && /[\p{L}\p{N}]/u.test(value)) details.push([key, value]);
  }
  details.push(...pairs(Array.from(document.querySelectorAll(SEL.legacyDetailRows)),
                        'td.label', 'td.value'));
  let bullets = kit.texts(SEL.bullets).map(clean);
  if (!bullets.length) bullets = kit.texts(SEL.factsBullets).map(clean);
  const description = one(SEL.description);
  // The description's text without the style sheet the block carries inside it.
  let descriptionText = description ? ownText(description) : '';
  const book = one(SEL.bookDescription);
  if (book) {
    const expander = book.querySelector('.a-expander-content');
    const hidden = book.querySelector('noscript');
    let blurb = expander ? ownText(expander) : '';
    if (!blurb && hidden) {
      // <noscript> holds its markup as text while scripts run.
      const doc = new DOMParser().parseFromString(hidden.textContent || '', 'text/html');
      blurb = doc.body ? ownText(doc.body) : '';
    }
    if (blurb) descriptionText = blurb;
  }
  const seller = one(SEL.sellerLink) || one(SEL.merchant);
  const canonical = one('link[rel="canonical"]');
  return {
    asin: (one(SEL.asin) || {}).value || null,
    canonical: canonical ? canonical.href : null,
    lang: document.documentElement.getAttribute('lang'),
    title: clean(kit.text(SEL.title)) || (one(SEL.title) ? '' : clean(kit.text(SEL.mobileTitle))),
    byline: clean(kit.text(SEL.byline)),
    bylineUrl: kit.abs(kit.attr('a#bylineInfo', 'href')),
    price: pay ? priceText(pay) : (legacyText.length <= 32 ? legacyText : ''),
    basisPrice: priceText(basis),
    savings: clean(kit.text(block ? block.querySelector(SEL.savings) : null)),
    // Without the other-offers script a saved page keeps inside it.
    availability: ((el) => (el ? ownText(el) : ''))(one(SEL.availability)),
    outOfStock: !!one(SEL.outOfStock),
    seller: seller ? clean(kit.text(seller)) : '',
    sellerUrl: seller && seller.getAttribute('href') ? kit.abs(seller.getAttribute('href')) : null,
    rating: clean(kit.attr(SEL.rating, 'title') || kit.text(SEL.ratingText)),
    ratingCount: clean(kit.text(SEL.ratingCount)),
    breadcrumbs: kit.texts(SEL.breadcrumbs).map(clean),
    bullets,
    description: descriptionText,
    overview,
    details,
    facts,
    inTheBox: kit.texts(SEL.inTheBox).map(clean),
    images,
    landingImage: kit.attr(SEL.landingImage, 'data-old-hires') || kit.attr(SEL.landingImage, 'src'),
    variations,
    dimensionLabels,
    selectedVariations: selected,
    formats,
  };
}
