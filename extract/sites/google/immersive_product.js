// Reads Google's product page (`/shopping/product/<id>`) and its seller list
// (`/shopping/product/<id>/online`) as the real pt-BR pages of 2021 show them
// (tests/sites/google/pages/shopping-product): the product's title (`.sh-t__title-pdp`), its
// description ("Detalhes do produto": the whole text in `.sh-ds__full-txt`, a shortened one in
// `.sh-ds__trunc-txt`), its specifications (`#specs`: rows of a name cell and a value cell, under
// group headings spanning both), and the table of online stores (`tr.sh-osd__offer-row`: the
// store's name and its link through Google's click redirect, a details cell, the item price and
// the total price). The page's own texts and language are returned; immersive_product.cpp makes
// the numbers. Every selector is in SEL.
(args, kit) => {
  const SEL = {
    title: '.sh-t__title-pdp',
    descriptionFull: '.sh-ds__full-txt',
    descriptionShort: '.sh-ds__trunc-txt',
    specRows: '#specs tr',
    storeRows: 'tr.sh-osd__offer-row',
    storeLink: 'a.sh-osd__seller-link[href]',
    // The link's first span is the name; the second, hidden, says "opens in a new window".
    storeName: 'span',
    itemPrice: ':scope > td:nth-of-type(3)',
    totalPrice: '.sh-osd__total-price',
    details: ':scope > td:nth-of-type(2)',
  };
  const text = kit.text;
  const one = (scope, s) => (scope ? scope.querySelector(s) : null);
  const all = (scope, s) => (scope ? Array.from(scope.querySelectorAll(s)) : []);

  const stores = all(document, SEL.storeRows).map((row) => {
    const link = one(row, SEL.storeLink);
    return {
      name: text(one(link, SEL.storeName)),
      link: link ? link.href : '',
      details: text(one(row, SEL.details)),
      price: text(one(row, SEL.itemPrice)),
      totalPrice: text(one(row, SEL.totalPrice)),
    };
  }).filter((s) => s.name);

  const specs = [];
  for (const row of all(document, SEL.specRows)) {
    const cells = all(row, ':scope > td');
    if (cells.length === 2) specs.push({ title: text(cells[0]), value: text(cells[1]) });
  }

  return {
    lang: document.documentElement.lang || '',
    title: text(one(document, SEL.title)),
    description: text(one(document, SEL.descriptionFull)) ||
        text(one(document, SEL.descriptionShort)),
    specs,
    stores,
  };
};
