// Reads a Google Finance quote page. Everything the page shows is also in its data blobs,
// `AF_initDataCallback({key: 'ds:N', hash: '..', data: [...], sideChannel: {}})`, the only place
// the newer layout keeps it; finance.cpp recognises each blob by its shape, not by its number.
// The classic layout's markup adds what the blobs hold only as numbers: prices and key stats as
// the page writes them in its language, and the titles of the "discover more" lists.
() => {
  // Classic-layout markup, in one place so it can be mended.
  const SEL = {
    quote: '[data-last-price]',           // wrapper of the headline price
    price: '.YMlKec.fxKbKc',              // the headline price as shown ("R$ 47,37")
    statRow: '.gyFHrc',                   // one label/value row (key stats and company facts)
    statLabel: '.mfs7Fc',
    statValue: '.P6K39c',
    aboutText: '.bLLb2d',                 // the company description
    discoverSection: 'section[aria-labelledby="discover-more-heading"]',
  };

  // Each blob is one call per script: the data runs from `data:` to `, sideChannel:` (or to the
  // call's closing `});` where a page leaves the side channel out).
  const blobs = {};
  for (const s of document.scripts) {
    const text = s.textContent || '';
    const call = /AF_initDataCallback\(\{\s*key:\s*'([^']+)'[\s\S]*?\bdata:/.exec(text);
    if (!call) continue;
    const from = call.index + call[0].length;
    let to = text.lastIndexOf(', sideChannel:');
    if (to < from) to = text.lastIndexOf('});');
    try {
      blobs[call[1]] = JSON.parse(text.slice(from, to));
    } catch (e) {
      // A blob that is not JSON is left out; the others still read.
    }
  }

  const textOf = (el) => (el ? (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim() : '');
  // The lines of an element's text, <br> breaking lines even where the element is not rendered
  // (innerText of a collapsed region would drop them).
  const linesOf = (el) => {
    if (!el) return [];
    const lines = [''];
    const walk = (node) => {
      for (const n of node.childNodes) {
        if (n.nodeType === Node.TEXT_NODE) lines[lines.length - 1] += n.textContent;
        else if (n.nodeName === 'BR') lines.push('');
        else if (n.nodeType === Node.ELEMENT_NODE) walk(n);
      }
    };
    walk(el);
    return lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  };
  // A label's own text, without the tooltip the row carries beside it.
  const ownText = (el) => {
    if (!el) return '';
    let t = '';
    for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE) t += n.textContent;
    return t.replace(/\s+/g, ' ').trim() || textOf(el);
  };

  const quote = document.querySelector(SEL.quote);
  const priceEl = quote ? quote.querySelector(SEL.price) : document.querySelector(SEL.price);

  // Label/value rows: those in the company's region are facts about it, the others key stats.
  const aboutEl = document.querySelector(SEL.aboutText);
  const aboutRegion = aboutEl ? aboutEl.closest('[role="region"]') : null;
  const keyStats = [], aboutFacts = [];
  for (const row of document.querySelectorAll(SEL.statRow)) {
    const label = ownText(row.querySelector(SEL.statLabel));
    const value = linesOf(row.querySelector(SEL.statValue)).join(', ');
    if (!value) continue;
    (aboutRegion && aboutRegion.contains(row) ? aboutFacts : keyStats).push({label, value});
  }

  // "Discover more": each level-3 heading titles the quote links that follow it.
  const discover = [];
  const section = document.querySelector(SEL.discoverSection);
  if (section) {
    let current = null;
    for (const el of section.querySelectorAll('[role="heading"][aria-level="3"], a[href*="quote/"]')) {
      if (el.matches('[role="heading"]')) {
        current = {title: ownText(el), stocks: []};
        discover.push(current);
      } else if (current) {
        const m = /quote\/([^?#/]+)/.exec(el.getAttribute('href'));
        if (m) current.stocks.push({stock: decodeURIComponent(m[1]),
                                    lines: (el.innerText || '').split('\n').map((l) => l.trim()).filter(Boolean)});
      }
    }
  }

  return {
    blobs,
    page: {
      url: location.href,
      lang: document.documentElement.getAttribute('lang') || '',
      price: textOf(priceEl),
      lastPrice: quote ? quote.getAttribute('data-last-price') : null,
      currency: quote ? quote.getAttribute('data-currency-code') : null,
      keyStats,
      // The description's own text: the source link after it ("Wikipedia") is not part of it.
      about: aboutEl ? [...aboutEl.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent).join('').trim() : '',
      aboutFacts,
      discover: discover.filter((d) => d.stocks.length > 0),
    },
  };
}
