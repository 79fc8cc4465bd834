// Reads a Google Shopping results page (`/search?tbm=shop`) as the real pt-BR pages of 2021 show
// it (tests/sites/google/pages/shopping): each product is a block carrying `data-docid` with a
// level-3 heading for its title; under it the price (its visible text is `aria-hidden`, the
// screen reader's copy sits beside it), the merchant's link, the link to Google's product page
// (`/shopping/product/<id>`) when Google has one, the stars (`aria-label` "3.7 de 5 estrelas") and
// review count (`aria-label` "13 resenhas de produto") on the product page's #reviews link, the
// product's attributes as spans between " · ", and a description. The sponsored carousel beside
// the results is left out. The page's own texts and language are returned; shopping.cpp makes
// the numbers. Every selector is in SEL.
(args, kit) => {
  const SEL = {
    main: '#rso',
    product: '[data-docid]',
    title: 'h3',
    thumbnail: 'img',
    productLink: 'a[href*="/shopping/product/"]',
    // The price as it is shown (`aria-hidden`); its twin for screen readers ends with a period.
    price: '[aria-hidden="true"]',
    // The merchant's name, linked to its offer (through Google's click redirect).
    merchant: 'a[target="_blank"][href]',
    reviewsLink: 'a[href*="#reviews"]',
    stars: '[role="img"][aria-label]',
    reviewCount: 'span[aria-label]',
    // "A pesquisa - <em>…</em> - não corresponde aos resultados de compras.": the heading that
    // emphasizes the query on a page without results.
    noMatchHeading: '[role="heading"]',
    nextPage: 'a#pnnext',
  };
  const text = kit.text;
  const one = (scope, s) => (scope ? scope.querySelector(s) : null);
  const all = (scope, s) => (scope ? Array.from(scope.querySelectorAll(s)) : []);
  const main = one(document, SEL.main);

  const hasDigit = (s) => /\d/.test(s);
  const readProduct = (block) => {
    const heading = one(block, SEL.title);
    // The product page the title (or the image) links to; a variant's link elsewhere in the
    // block ("Outras opções de estilo: Vermelha") is another product's.
    const img = one(block, SEL.thumbnail);
    const productLink = [heading, img].map((el) => (el ? el.closest(SEL.productLink) : null))
        .find((a) => a && block.contains(a));
    const href = productLink ? kit.abs(productLink.getAttribute('href')) : '';
    const idMatch = /\/shopping\/product\/(\d+)/.exec(href || '');
    const price = all(block, SEL.price).map((el) => text(el)).find(hasDigit) || '';
    const merchant = all(block, SEL.merchant).find((a) => text(a).length > 0);
    const reviews = one(block, SEL.reviewsLink);
    const stars = one(reviews, SEL.stars);
    const count = all(reviews, SEL.reviewCount).find((s) => s !== stars);
    // Attributes: a line whose children are all spans, written "HP · HP DeskJet · …".
    const attributes = all(block, 'div').find((d) => d.children.length > 1 &&
        Array.from(d.children).every((c) => c.tagName === 'SPAN') && /·/.test(d.textContent));
    // The description: a line of text alone, without elements (not the title, price or links).
    const description = all(block, 'div').find((d) => d.children.length === 0 &&
        text(d).length > 20);
    return {
      docid: block.getAttribute('data-docid') || '',
      title: text(heading),
      productLink: href || '',
      productId: idMatch ? idMatch[1] : '',
      price,
      source: merchant ? text(merchant) : '',
      link: merchant ? kit.abs(merchant.getAttribute('href')) || '' : '',
      ratingLabel: stars ? stars.getAttribute('aria-label') || '' : '',
      reviewsText: count ? count.getAttribute('aria-label') || text(count) : '',
      thumbnail: img ? img.getAttribute('src') || '' : '',
      extensions: attributes ? all(attributes, 'span').map((s) => text(s)).filter((s) => s) : [],
      snippet: description ? text(description) : '',
    };
  };
  // The outermost blocks only: a product's own inner elements may carry ids too.
  const blocks = all(main, SEL.product).filter((el) => one(el, SEL.title));
  const products = blocks.filter((el) => !blocks.some((o) => o !== el && o.contains(el)))
      .map(readProduct).filter((p) => p.title);

  const noMatch = products.length ? null :
      all(main, SEL.noMatchHeading).find((h) => one(h, 'em'));
  const next = one(document, SEL.nextPage);
  return {
    url: location.href,
    lang: document.documentElement.lang || '',
    products,
    noResultsText: noMatch ? text(noMatch) : '',
    nextPage: next ? kit.abs(next.getAttribute('href')) || '' : '',
  };
}
