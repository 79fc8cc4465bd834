// Reads an Amazon search results page (/s?k=...): each result card
// (`div[data-component-type="s-search-result"][data-asin]`) with its title, link, image, price,
// list price, rating, rating count, badges, "bought in past month" line and delivery lines; the
// result count line ("1-16 of 521 results") and the pager. Texts as the page writes them, in any
// language: nothing is found by its words.
(args, kit) => {
  const SEL = {
    // Amazon's robot check posts its answer to /errors/validateCaptcha.
    card: 'div[data-component-type="s-search-result"][data-asin]',
    // The title's heading (a brand line may be another h2 before it). Its visible text is the
    // title; its aria-label adds the ad label in the page's language ("Sponsored Ad - ",
    // "Anuncio patrocinado: ").
    titleHeading: 'h2[aria-label]',
    heading: 'h2',
    titleLink: '[data-cy="title-recipe"] a[href]',
    link: 'a.a-link-normal[href*="/dp/"], a[href*="/dp/"], a[href*="/sspa/click"]',
    image: 'img.s-image',
    price: '[data-cy="price-recipe"] .a-price:not(.a-text-price) .a-offscreen',
    // The struck-through price before ("List:", "Was:", "Typical:", "De:"): the same grey price
    // style also writes the price per unit beside the price ("($1.16/ounce)") and an
    // instalment ("em até 6x de R$ 50,87"), which are not struck through.
    listPrice: '[data-cy="price-recipe"] .a-price.a-text-price[data-a-strike="true"] .a-offscreen',
    stars: '[data-cy="reviews-block"] .a-icon-alt',
    ratingCount: '[data-cy="reviews-block"] a[href*="#customerReviews"]',
    boughtRow: '[data-cy="reviews-block"] .a-row.a-size-base > .a-size-base.a-color-secondary',
    sponsored: '.puis-sponsored-label-text, [data-component-type="sp-sponsored-result"]',
    prime: 'i.a-icon-prime, [aria-label="Amazon Prime"]',
    badge: '.a-badge-text',
    // The badges' ids name them whatever the language: "<asin>-amazons-choice"; the 2025+ badge
    // capsule names its kind ("BEST_SELLER").
    amazonChoice: '[id$="-amazons-choice"]',
    bestSeller: '[id$="-best-seller"], [data-csa-c-content-id="BEST_SELLER"], ' +
      '.rio-badge-style-BEST_SELLER',
    delivery1: '.udm-primary-delivery-message',
    delivery2: '.udm-secondary-delivery-message',
    // Cards without those messages write the delivery in the recipe's first row ("Delivery Mon,
    // Dec 1", "Get it Friday 21 Mar - Monday 24 Mar €16.00 delivery"); the rows after it are
    // other notes ("Ships to Canada", "Only 5 left in stock.").
    deliveryRow: '[data-cy="delivery-recipe"] > .a-row:first-child',
    // That first row may hold its lines as rows of their own (amazon.co.uk 2025: "FREE delivery
    // Tue, 3 Jun on your first eligible order…", "Or fastest delivery Mon, 2 Jun").
    deliveryRows: '[data-cy="delivery-recipe"] > .a-row:first-child > .a-row',
    resultCount: '[data-component-type="s-result-info-bar"] h2 > span:first-child',
    next: 'a.s-pagination-next',
    pages: 'a.s-pagination-button, a.s-pagination-item:not(.s-pagination-next):not(.s-pagination-previous)',
    current: '.s-pagination-selected',
  };
  // A sponsored card links through Amazon's ad click (/sspa/click?...&url=<the /dp/ path>): the
  // product's own URL is the one it leads to.
  const productUrl = (href) => {
    if (!href) return null;
    try {
      const u = new URL(href, location.href);
      const target = u.pathname.endsWith('/sspa/click') ? u.searchParams.get('url') : null;
      return kit.abs(target || href);
    } catch (e) {
      return kit.abs(href);
    }
  };
  // The delivery lines of a card without the udm messages: of the recipe's first row's own rows,
  // one with its date in bold starts a line and one without continues it ("Get it Friday 21 Mar"
  // + "FREE Delivery by Amazon" is one line); a first row without rows of its own is one line.
  const deliveryLines = (c) => {
    const lines = [];
    for (const row of c.querySelectorAll(SEL.deliveryRows)) {
      const t = kit.text(row);
      if (!t) continue;
      if (!lines.length || row.querySelector('.a-text-bold')) lines.push(t);
      else lines[lines.length - 1] += ' ' + t;
    }
    if (!lines.length) {
      const t = kit.text(c.querySelector(SEL.deliveryRow));
      if (t) lines.push(t);
    }
    return lines;
  };
  const cards = Array.from(document.querySelectorAll(SEL.card))
    .filter((c) => c.getAttribute('data-asin'));
  const results = cards.map((c) => {
    const headings = c.querySelectorAll(SEL.heading);
    const heading = c.querySelector(SEL.titleHeading) || headings[headings.length - 1];
    const link = (heading && heading.closest('a')) || c.querySelector(SEL.titleLink) ||
      c.querySelector(SEL.link);
    const img = c.querySelector(SEL.image);
    const count = c.querySelector(SEL.ratingCount);
    // The "bought in past month" line: the reviews block's row of secondary text with a number
    // ("4K+ bought in past month", "Mais de 9 mil compras no mês passado"); else a card's
    // secondary text that starts as the English line does.
    const secondary = kit.texts(SEL.boughtRow, c).filter((t) => /\d/.test(t));
    if (!secondary.length) {
      secondary.push(...kit.texts('.a-size-base.a-color-secondary', c)
        .filter((t) => /^\d[\d.,]*[KkMm]?\+/.test(t)));
    }
    const udm = c.querySelector(SEL.delivery1) || c.querySelector(SEL.delivery2);
    const lines = udm ? [] : deliveryLines(c);
    return {
      asin: c.getAttribute('data-asin'),
      index: c.getAttribute('data-index'),
      title: kit.text(heading) || (heading ? heading.getAttribute('aria-label') || '' : ''),
      link: link ? productUrl(link.getAttribute('href')) : null,
      image: img ? img.getAttribute('src') : null,
      price: kit.text(c.querySelector(SEL.price)),
      listPrice: kit.text(c.querySelector(SEL.listPrice)),
      stars: kit.text(c.querySelector(SEL.stars)),
      ratingCount: count ? (count.getAttribute('aria-label') || kit.text(count)) : '',
      adHolder: c.classList.contains('AdHolder') || !!c.querySelector(SEL.sponsored),
      prime: !!c.querySelector(SEL.prime),
      badges: kit.texts(SEL.badge, c),
      amazonChoice: !!c.querySelector(SEL.amazonChoice),
      bestSeller: !!c.querySelector(SEL.bestSeller),
      bought: secondary[0] || '',
      delivery: udm ? kit.text(c.querySelector(SEL.delivery1)) : lines[0] || '',
      fastestDelivery: udm ? kit.text(c.querySelector(SEL.delivery2)) : lines[1] || '',
    };
  });
  const next = document.querySelector(SEL.next);
  return {
    lang: document.documentElement.getAttribute('lang'),
    resultCount: kit.text(SEL.resultCount),
    results,
    nextPageUrl: next ? kit.abs(next.getAttribute('href')) : null,
    otherPages: Array.from(document.querySelectorAll(SEL.pages), (a) => ({
      page: kit.text(a), url: kit.abs(a.getAttribute('href'))})),
    currentPage: kit.text(SEL.current),
    searchForm: !!document.querySelector('form[name="site-search"], #twotabsearchtextbox'),
  };
}
