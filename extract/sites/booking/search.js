// Reads a Booking.com search results page: every property card in order (the site's data-testid
// names, in SEL) and the heading that counts the results.
(args, kit) => {
  const SEL = {
    card: '[data-testid="property-card"]',
    title: '[data-testid="title"]',
    link: '[data-testid="title-link"]',
    // The mobile site's card is one link to the property, without a "title-link".
    anyLink: 'a[href*="/hotel/"]',
    address: '[data-testid="address"], [data-testid="address-link"], [data-testid="address-text"]',
    // The mobile site's card names its place ("Totolac") in a "location" instead.
    location: '[data-testid="location"]',
    distance: '[data-testid="distance"]',
    score: '[data-testid="review-score"]',
    stars: '[data-testid="rating-stars"], [data-testid="rating-squares"]',
    unit: '[data-testid="recommended-units"]',
    price: '[data-testid="price-and-discounted-price"]',
    taxes: '[data-testid="taxes-and-charges"]',
    nights: '[data-testid="price-for-x-nights"]',
    policies: '[data-testid="cancellation-policy-icon"], [data-testid="prepayment-policy-icon"]',
    photo: '[data-testid="image"]',
    heading: 'h1',
    destination: 'input[name="ss"]',
  };
  const cards = Array.from(document.querySelectorAll(SEL.card), (card) => {
    const link = card.querySelector(SEL.link) || card.querySelector(SEL.anyLink);
    const score = card.querySelector(SEL.score);
    const stars = card.querySelector(SEL.stars);
    const unit = card.querySelector(SEL.unit);
    const img = card.querySelector(SEL.photo);
    // A card that shows the nightly price too ("Per night $171", then "$1,255" for the stay, on
    // pages of 2026) has two prices: the stay's is the last, beside its "1 week, 4 adults".
    const prices = card.querySelectorAll(SEL.price);
    const price = prices.length ? prices[prices.length - 1] : null;
    // The price before a discount: struck through inside the price on some pages; on others (2025)
    // a span just before the wrapper of the price ("BDT 15,891" before "BDT 12,713").
    const struck = price ? price.querySelector('s, del, [data-testid="strikethrough-price"]') : null;
    const wrapper = price && price.parentElement;
    const before = wrapper && !wrapper.hasAttribute('data-testid')
        ? wrapper.previousElementSibling : null;
    const beforeIsPrice = before && before.tagName === 'SPAN' &&
        !before.hasAttribute('data-testid') && /\d/.test(kit.text(before));
    const original = struck || (beforeIsPrice ? before : null);
    return {
      title: kit.text(SEL.title, card),
      link: link ? link.href : null,
      address: (kit.text(SEL.address, card) || kit.text(SEL.location, card))
          .replace(/\s*Show on map$/, ''),
      distance: kit.text(SEL.distance, card),
      scoreLines: score ? Array.from(score.querySelectorAll('div'), (d) => kit.text(d))
          .filter((t, i, all) => t && all.indexOf(t) === i) : [],
      stars: stars ? (stars.getAttribute('aria-label') || String(stars.children.length)) : null,
      starKind: stars ? stars.getAttribute('data-testid') : null,
      unit: unit ? kit.text(unit.querySelector('h4, [role="link"]')) : '',
      beds: unit ? Array.from(unit.querySelectorAll('li'))
          .filter((li) => !li.querySelector(SEL.policies) && !/\bleft\b/.test(kit.text(li)))
          .map((li) => kit.text(li)).filter((t) => t) : [],
      policies: Array.from(card.querySelectorAll(SEL.policies), (n) =>
          kit.text(n.closest('li') || n.parentElement)).filter((t) => t),
      left: unit ? (Array.from(unit.querySelectorAll('li'), (li) => kit.text(li)).find((t) => /\bleft\b/.test(t)) || '') : '',
      price: price ? kit.text(price) : '',
      originalPrice: original ? kit.text(original) : '',
      nightPrice: prices.length > 1 ? kit.text(prices[0]) : '',
      taxes: kit.text(SEL.taxes, card),
      nights: kit.text(SEL.nights, card),
      photo: img ? img.getAttribute('src') : null,
    };
  });
  const destination = document.querySelector(SEL.destination);
  return {url: location.href, lang: document.documentElement.getAttribute('lang'),
          heading: kit.text(SEL.heading), destination: destination ? destination.value : null,
          cards};
}
