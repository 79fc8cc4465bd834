// Reads a Google results page (desktop markup of 2019-2025, the mobile layout of 2023). Returns
// the page's own texts and its language (`<html lang>`, for its numbers);
// sites/serp.cpp shapes them (numbers, dates, positions). Every selector is in SEL: structure,
// roles, aria-labels and data-* attributes first, class names only where nothing else exists.
// Parts Google loads later (People also ask answers) are also read from the page's deferred HTML
// (`window.jsl.dh(id, html)` calls in inline scripts), so they come out with or without scripts.
(args) => {
  const SEL = {
    resultStats: '#result-stats, #resultStats',   // 2021+, 2019
    main: '#rso',
    bottom: '#botstuff',
    // Where the "did not match" heading sits: above the results (2023), below them (2026).
    noResults: '#topstuff, #botstuff',
    noMatchHeading: '[role="heading"]',
    // Organic results: a title link (a > h3; on the mobile layout a level-3 heading by role)
    // with its container.
    titleLink: 'a[href]:not([href^="/search"]):not([href^="#"])',
    resultTitle: 'a[href] h3, a[href] [role="heading"][aria-level="3"]',
    resultContainer: 'div.g, .MjjYud',
    siteName: '.VuuXrf, .BTu2cd',
    displayedLink: 'cite',
    linkLine: '[role="text"]',            // the mobile layout's displayed link, inside the title link
    snippet: '.VwiC3b, [style*="-webkit-line-clamp"], .st',
    snippetDate: '.MUxGbd.wuQ4Ob, .LEwnzc, .st > .f',
    inlineSitelinks: '.HiHjCd a[href], .fl.dodTBe a[href]',
    nestedResults: '.d4rhi',
    // The News tab's cards (2025): a link inside `[data-news-doc-id]` around the publisher's
    // name, a level-3 heading, the snippet (line-clamped like the heading) and the date line.
    newsCard: '[data-news-doc-id]',
    // A video result (the Videos tab, 2025): its card carries the video's id; under the title, a
    // description and a line of spans "YouTube · channel · 2019/11/26".
    videoCard: '[data-vid]',
    clamped: '[style*="-webkit-line-clamp"]',
    extensions: '.fG8Fp span',
    // Blocks that hold links with h3 titles but are not organic results.
    notOrganic: '.related-question-pair, [jsname="N760b"], g-section-with-header, #tads, #bottomads, .d4rhi, block-component, [data-attrid="images universal"]',
    // Ads.
    // (2019: li.ads-ad, an h3 title, `.ads-visurl cite`, `.ads-creative`, sitelinks in a list.)
    textAd: '.uEierd, [data-text-ad], .ads-ad',
    adLink: 'a[href]',
    adTitle: '[role="heading"], h3',
    adDisplayedLink: '[role="text"], .ads-visurl cite',
    adDescription: '.MUxGbd.yDYNvb, .Va3FIb, .ads-creative',
    adSitelinks: '.bOeY0b a[href], [role="list"] a[href], ul a[href]',
    adAdvertiser: '.BTu2cd',
    // Shopping units (product listing ads).
    shoppingUnit: '.pla-unit',
    shoppingTitleLink: 'a.pla-unit-title-link, [role="heading"] a[href^="http"]',
    shoppingPrice: '.e10twf, .T4OwTb span',
    shoppingSource: '[aria-label^="From "], .LbUacb',  // the merchant: 2023 (English), 2019
    rated: '[aria-label^="Rated "]',
    reviewsLabel: '[aria-label$="reviews"]',
    // People also ask.
    question: '.related-question-pair',
    // The answer's slot: filled later from deferred markup (2023), or the collapsed answer panel
    // itself (2019: `role="tabpanel"`, present and hidden until the question is opened).
    answerSlot: '[jsname="NRdf4c"][id], .bCOlv[id], [role="tabpanel"][id]',
    questionText: '[role="tab"]',
    answerText: '[data-attrid="wa:/description"], .di3YZe',
    answerListItems: 'li',
    answerDate: '.kX21rb, .Od5Jsd',
    // Related searches: the blocks of #botstuff that carry a heading (#brs: 2019), and the
    // related searches section wherever the page puts it (2021+ mark it `data-abe`; 2023 pages
    // may place it inside the results list).
    heading: '[role="heading"], h2, h3',
    relatedBlock: '.MjjYud, #brs',
    relatedSection: '[data-abe]',
    moreLink: 'hr',
    notRelated: '[jsname="N760b"], block-component',
    // Featured snippet: the same text component People also ask answers use
    // (`[data-attrid="wa:/description"]` > `.hgKElc`), outside a question; a direct answer's
    // headline (`.Z0LcW`, `[data-tts="answers"]`).
    snippetText: '[data-attrid="wa:/description"]',
    block: '.MjjYud',                     // one block of the results list
    directAnswer: '.Z0LcW, [data-tts="answers"]',
    // Knowledge panel: the right-hand column's, or one across the top of the results; whatever
    // the entity type, its title is `[data-attrid="title"]` where the type has one, else the
    // panel's first level-2 heading.
    panel: '#rhs .kp-wholepage, .kp-wholepage, .kp-wholepage-osrp, #rhs',
    panelTitle: '[data-attrid="title"]',
    panelHeading: '[role="heading"][aria-level="2"], h2',
    panelSubtitle: '[data-attrid="subtitle"]',
    panelDescription: '[data-attrid="description"] .kno-rdesc, [data-attrid="description"]',
    panelWebsite: '[data-attrid="visit_official_site"]',
    panelAttribute: '[data-attrid^="kc:/"], [data-attrid^="hw:/"], [data-attrid^="ss:/"]',
    panelAttributeLabel: '.w8qArf',
    panelAttributeValue: '.kno-fv',
    panelMore: '.SW5pqf',
    panelProfiles: '[data-attrid="kc:/common/topic:social media presence"] a[href]',
    // Top stories: article links with a level-4 heading inside a sectioned block.
    storySection: 'g-section-with-header',
    storyLink: 'a[href^="http"]',
    storyTitle: '[role="heading"][aria-level="4"]',
    // Local / hotel pack: cards whose rating sits in an aria-label ("4.7 out of 5 stars ...").
    placeRating: '[aria-label*=" out of 5 stars"]',
    placeTitle: '.BTPx6e, [role="heading"]',
    placePrice: '.inSSLe',
    // Local pack (a map and its businesses, 2019-2023): each business a link carrying its place
    // id around a heading and its detail lines: "4.4 (71) · $$ · Coffee shop" (the rating line
    // holds the stars' aria-label), then "1594 Market St · In …" / "Meeraner Str. 16 · 030 …".
    localPlace: '[data-cid]',
    localDetails: '.rllt__details',
    localRating: '[aria-label]',
    // Pagination.
    nextPage: 'a#pnnext, a[aria-label="More results"], a[aria-label="Next page"]',
    // AI Overview (2025 markup): the answer's subtree, its main column of blocks (headings by
    // role, lists, paragraphs) and its column of sources; a citation is a button naming its
    // sources by a uuid, which Google's own data comments (`<!--Sv6Kpe[["<uuid>",[title,
    // snippet, favicon, site, [source], link, ...]]]-->`) resolve to the sources' links.
    aiOverview: '[data-subtree="aimc"]',
    aiMain: '[data-container-id="main-col"]',
    aiSources: '[data-container-id="rhs-col"]',
    // A paragraph is .Y3BBE in an AI Overview, .n6owBd in an AI Mode answer (2026), which is
    // drawn in the same markup (/scrape/google/ai-mode reads it with this script).
    aiBlock: '[role="heading"], ul, ol, .Y3BBE, .n6owBd',
    aiHighlight: 'mark',
    aiCitation: '[data-icl-uuid]',
    aiMedia: 'video, img, a[href]',
    aiVideoChannel: '.SrjfCd',
    aiVideoSource: '.Pcl3Vd',
    aiVideoDuration: '.zY18Ie',
    aiSourceItem: 'li',
    aiSourceTitle: '.Nn35F',
    aiSourceSnippet: '.vhJ6Pe',
    aiSourceName: '.R0r5R, .w8lk7d',
  };

  // Text as a person reads it: white space collapsed, without the invisible direction marks
  // Google puts around titles and ad lines (U+200E, U+202A-U+202E).
  const text = (el) => (el ? (el.innerText || el.textContent || '')
    .replace(/[\u200e\u200f\u202a-\u202e]/g, '').replace(/\s+/g, ' ').trim() : '');
  const all = (root, sel) => (root ? [...root.querySelectorAll(sel)] : []);
  const one = (root, sel) => (root ? root.querySelector(sel) : null);
  const abs = (href) => { try { return new URL(href, location.href).href; } catch (e) { return href; } };
  const inside = (el, sel) => !!(el.parentElement && el.parentElement.closest(sel));
  // The text of an element the page keeps hidden until it is opened (a collapsed answer has no
  // rendered text): its text content.
  const shown = (el) => text(el) || (el ? (el.textContent || '').replace(/\s+/g, ' ').trim() : '');

  // --- Deferred HTML: id → markup from `window.jsl.dh('id','...')` calls ----------------------
  const deferred = (() => {
    const map = new Map();
    const decode = (s) => {
      let out = '';
      for (let i = 0; i < s.length; i++) {
        const c = s[i];
        if (c !== '\\') { out += c; continue; }
        const n = s[++i];
        if (n === 'x') { out += String.fromCharCode(parseInt(s.substr(i + 1, 2), 16)); i += 2; }
        else if (n === 'u') { out += String.fromCharCode(parseInt(s.substr(i + 1, 4), 16)); i += 4; }
        else if (n === 'n') out += '\n';
        else if (n === 't') out += '\t';
        else if (n === 'r') out += '\r';
        else out += n;
      }
      return out;
    };
    const call = /jsl\.dh\('([^']+)','((?:[^'\\]|\\.)*)'/g;
    for (const s of document.querySelectorAll('script:not([src])')) {
      const body = s.textContent;
      if (body.indexOf('jsl.dh(') < 0) continue;
      let m;
      while ((m = call.exec(body)) !== null) map.set(m[1], m[2]);
    }
    // Materialises the content for element id `id`: the live element when the page filled it,
    // otherwise a detached copy built from the deferred markup, nested slots filled in.
    const resolve = (id, depth) => {
      const live = document.getElementById(id);
      if (live && live.children.length > 0) return live;
      if (!map.has(id) || depth > 4) return null;
      const holder = document.createElement('div');
      holder.innerHTML = decode(map.get(id));
      for (const slot of holder.querySelectorAll('[id]')) {
        if (slot.children.length === 0 && map.has(slot.id)) {
          const filled = resolve(slot.id, depth + 1);
          if (filled) slot.replaceWith(...[...filled.childNodes].map((n) => n.cloneNode(true)));
        }
      }
      return holder;
    };
    return { resolve: (id) => resolve(id, 0) };
  })();

  // --- Result count -------------------------------------------------------------------------
  const stats = one(document, SEL.resultStats);
  const statsText = stats ? (stats.textContent || '').replace(/\s+/g, ' ').trim() : '';

  // --- Organic results ------------------------------------------------------------------------
  const main = one(document, SEL.main);
  const readResult = (container, link, heading) => {
    const own = (sel) => all(container, sel).filter((el) => {
      const nest = el.closest(SEL.nestedResults);
      return !nest || !container.contains(nest) || nest.contains(container);
    });
    const snippetEl = own(SEL.snippet)[0];
    let snippet = '';
    let dateText = '';
    if (snippetEl) {
      const copy = snippetEl.cloneNode(true);
      // 2024+ markup marks it by no class of its own: the snippet's leading part, ended by a dash
      // ("2018/09/07 — …", "22 Mar 2023 — …", or a byline "M Kuhlmann · 2006 · Cited by 193 — ").
      const lead = copy.firstElementChild;
      const date = copy.querySelector(SEL.snippetDate) ||
        (lead && lead.nextSibling && /[—–]\s*$/.test(lead.textContent || '') ? lead : null);
      if (date) { dateText = text(date).replace(/[—–-]\s*$/, '').replace(/^[—–-]\s*/, '').trim(); date.remove(); }
      snippet = (copy.textContent || '').replace(/\s+/g, ' ').trim();
    }
    // A video card's description and "YouTube · channel · date" line, where the snippet is not.
    const video = snippetEl ? null : link.closest(SEL.videoCard);
    const videoLine = video && all(video, 'div').find((d) => d.children.length >= 3 &&
      [...d.children].every((c) => c.tagName === 'SPAN') && / · /.test(text(d)));
    let videoSource = '';
    if (videoLine) {
      const parts = [...videoLine.children].map(text).filter((t) => t && t !== '·');
      videoSource = parts[0];
      dateText = parts.length > 1 ? parts[parts.length - 1] : '';
      snippet = text(videoLine.previousElementSibling);
    }
    const site = own(SEL.siteName)[0];
    const cite = own(SEL.displayedLink)[0] || one(link, SEL.linkLine);
    const sitelinks = [];
    for (const a of own(SEL.inlineSitelinks)) sitelinks.push({ title: text(a), link: abs(a.getAttribute('href')) });
    for (const nest of all(container, SEL.nestedResults)) {
      for (const h3 of all(nest, 'a[href] h3')) {
        const a = h3.closest('a');
        const item = h3.closest('li') || a.parentElement;
        const sub = one(item, SEL.snippet);
        sitelinks.push({ title: text(h3), link: abs(a.getAttribute('href')), snippet: text(sub) });
      }
    }
    return {
      title: text(heading),
      link: abs(link.getAttribute('href')),
      displayedLink: cite ? text(cite) : '',
      source: text(site) || videoSource,
      snippet,
      dateText,
      extensions: own(SEL.extensions).map(text).filter((t) => t.length > 0),
      sitelinks,
    };
  };
  // A heading by role is a result's title where its link also holds the result's address line
  // beside it (the mobile layout); a video card's link holds its source inside the heading.
  const isResultTitle = (heading, link) => heading.tagName === 'H3' ||
    all(link, `${SEL.linkLine}, ${SEL.displayedLink}`).some((el) => !heading.contains(el));
  // The titles of a box that are its own (not those of indented results of the same site).
  const titlesIn = (box) => all(box, SEL.resultTitle).filter((h) => !inside(h, SEL.nestedResults));
  // The result's box: its container where that holds this result alone, else the largest
  // ancestor of the link that holds no other result's title.
  const boxOf = (link) => {
    const container = link.closest(SEL.resultContainer);
    if (container && titlesIn(container).length <= 1) return container;
    let box = link;
    while (box.parentElement && box.parentElement !== main && titlesIn(box.parentElement).length <= 1) {
      box = box.parentElement;
    }
    return box;
  };
  // A News tab card: its texts are the link's leaf spans (the publisher first, the date last) and
  // the clamped block that is not the heading (the snippet).
  const readNewsCard = (link, heading) => {
    const leaves = all(link, 'span').filter((el) => !el.children.length && /\w/.test(text(el)));
    const snippet = all(link, SEL.clamped).find((el) => el !== heading && !heading.contains(el));
    return {
      title: text(heading),
      link: abs(link.getAttribute('href')),
      displayedLink: '',
      source: leaves.length > 1 ? text(leaves[0]) : '',
      snippet: text(snippet),
      dateText: leaves.length > 1 ? text(leaves[leaves.length - 1]) : '',
      extensions: [],
      sitelinks: [],
    };
  };
  const organic = [];
  const seenLinks = new Set();
  for (const heading of all(main, SEL.resultTitle)) {
    const link = heading.closest('a[href]');
    if (!link || !link.matches(SEL.titleLink) || inside(link, SEL.notOrganic)) continue;
    if (link.closest(SEL.newsCard)) {
      if (!seenLinks.has(link)) organic.push(readNewsCard(link, heading));
      seenLinks.add(link);
      continue;
    }
    if (!isResultTitle(heading, link)) continue;
    const container = boxOf(link);
    if (seenLinks.has(link)) continue;
    seenLinks.add(link);
    organic.push(readResult(container, link, heading));
  }

  // Google's "Your search - <em>query</em> - did not match any documents." on a page without
  // results, in any language ("Die Suche nach <em>…</em> ergab keine Treffer."): the heading
  // around the (empty) results that emphasizes the query, above them or below them.
  const noMatchPlaces = all(document, SEL.noResults);
  const noMatch = organic.length ? null : noMatchPlaces
    .flatMap((place) => all(place, SEL.noMatchHeading)).find((h) => one(h, 'em'));
  const saysNoMatch = noMatchPlaces.find(
    (place) => /did not match any documents/i.test(text(place)));
  const noResultsText = noMatch ? text(noMatch) : (saysNoMatch ? text(saysNoMatch) : '');

  // --- Ads and shopping units ---------------------------------------------------------------
  const outermost = (els) => els.filter((el) => !els.some((o) => o !== el && o.contains(el)));
  const readAds = (block, where) => outermost(all(one(document, block), SEL.textAd)).map((ad) => {
    const title = one(ad, SEL.adTitle);
    // The link that holds the title (a 2019 ad begins with a hidden tracking link).
    const link = (title && title.closest('a[href]')) || one(ad, SEL.adLink);
    return {
      block: where,
      title: text(title),
      link: link ? abs(link.getAttribute('href')) : '',
      displayedLink: text(one(ad, SEL.adDisplayedLink)),
      advertiser: text(one(ad, SEL.adAdvertiser)),
      description: text(one(ad, SEL.adDescription)),
      sitelinks: all(ad, SEL.adSitelinks).map((a) => ({ title: text(a), link: abs(a.getAttribute('href')) }))
        .filter((s) => s.title.length > 0),
    };
  }).filter((ad) => ad.title.length > 0);
  const ads = [...readAds('#tads', 'top'), ...readAds('#bottomads', 'bottom')];

  // A unit's price: the price element's own text, without the former price a sale shows inside
  // it ("45,50 €" and, annotated "Avant : 65 €", "65 €").
  const priceOf = (el) => {
    if (!el) return '';
    const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent).join('');
    return own.replace(/\s+/g, ' ').trim() || text(el);
  };
  const shopping = all(document, SEL.shoppingUnit).map((unit) => {
    // The unit's container holds its parts where it also holds the title (2023; in 2019 the
    // title sits beside it).
    const inner = one(unit, '.pla-unit-container');
    const container = inner && one(inner, SEL.shoppingTitleLink) ? inner : unit;
    // The title link that shows text (a 2019 unit's heading begins with a hidden tracking link).
    const titleLink = all(container, SEL.shoppingTitleLink).find((a) => text(a).length > 0);
    const rated = one(container, SEL.rated);
    const reviews = one(container, SEL.reviewsLabel);
    return {
      title: titleLink ? text(titleLink) : '',
      link: titleLink ? abs(titleLink.getAttribute('href')) : '',
      price: priceOf(one(container, SEL.shoppingPrice)),
      source: text(one(container, SEL.shoppingSource)),
      ratingLabel: rated ? rated.getAttribute('aria-label') : '',
      reviewsText: text(reviews),
      // In an ads block: the top one (#tvcap holds the top ads and, 2019-2023, the product
      // units' carousel), the bottom one, or a commercial unit of the right-hand column (2020).
      sponsored: !!unit.closest('#tvcap, #tads, #bottomads, .cu-container'),
    };
  }).filter((s) => s.title.length > 0);

  // The text of a snippet component (a People also ask answer, a featured snippet): its prose
  // without the date and the list, the list's items apart.
  const snippetOf = (body) => {
    const out = {};
    const items = all(body, SEL.answerListItems).map(shown);
    const copy = body.cloneNode(true);
    for (const d of copy.querySelectorAll(SEL.answerDate)) d.remove();
    for (const l of copy.querySelectorAll('ol, ul, .u9iNfb')) {
      // The list's "More items..." link to the source, right after it.
      const more = l.nextElementSibling;
      const only = more && more.children.length === 1 ? more.firstElementChild : null;
      const onlyLink = more && (more.matches('a[href]') || (only && only.matches('a[href]') &&
        more.textContent.trim() === only.textContent.trim()));
      if (onlyLink) more.remove();
      l.remove();
    }
    out.snippet = (copy.textContent || '').replace(/\s+/g, ' ').trim();
    if (items.length) out.list = items;
    out.dateText = shown(one(body, SEL.answerDate));
    return out;
  };

  // --- People also ask ----------------------------------------------------------------------
  const questions = all(document, SEL.question).map((pair) => {
    const q = { question: pair.getAttribute('data-q') || text(one(pair, SEL.questionText)) || text(pair) };
    const slot = one(pair, SEL.answerSlot);
    const answer = slot ? deferred.resolve(slot.id) : null;
    if (answer) {
      const body = one(answer, SEL.answerText);
      if (body) {
        Object.assign(q, snippetOf(body));
        q.dateText = q.dateText || shown(one(answer, SEL.answerDate));
      }
      const h3 = one(answer, 'a[href] h3');
      if (h3) {
        const a = h3.closest('a[href]');
        q.title = shown(h3);
        q.link = abs(a.getAttribute('href'));
        q.displayedLink = shown(one(answer, SEL.displayedLink));
      }
    }
    return q;
  });

  // --- Related searches -----------------------------------------------------------------------
  const related = [];
  const relatedSeen = new Set();
  const relatedBlocks = [...all(one(document, SEL.bottom), SEL.relatedBlock),
                         ...all(document, SEL.relatedSection).filter((el) => !el.closest('#rhs'))];
  for (const block of relatedBlocks) {
    if (!one(block, SEL.heading) || one(block, SEL.question) || one(block, SEL.notRelated)) continue;
    for (const a of all(block, 'a[href*="q="]')) {
      if (one(a, SEL.moreLink)) continue;
      let url;
      try { url = new URL(a.getAttribute('href'), location.href); } catch (e) { continue; }
      if (url.searchParams.has('start') || url.searchParams.get('tbm')) continue;
      const query = a.getAttribute('aria-label') || text(a);
      if (!query || relatedSeen.has(url.href)) continue;
      relatedSeen.add(url.href);
      related.push({ query, link: url.href });
    }
  }

  // --- Answer box -----------------------------------------------------------------------------
  let answerBox = null;
  // The results' whole container: a desktop page of 2023 puts the featured snippet above the
  // results column (`#rcnt` > `#Odp5De`, before `#center_col`), so the column alone misses it.
  const answerScope = one(document, '#rcnt, #center_col') || document;
  const featured = all(answerScope, SEL.snippetText).find((el) => !el.closest(SEL.question) && !el.closest('#rhs'));
  if (featured) {
    // Its source result sits beside the text component: in the same block-component or
    // expanded box where the page has one, else in the nearest wrapper (up to the block of the
    // list that holds the snippet) that holds a result heading.
    let box = featured.closest('block-component, .xpdopen, .g');
    for (let el = featured.parentElement; !box && el && el !== answerScope; el = el.parentElement) {
      if (one(el, 'a[href] h3')) box = el;
      if (el.matches(SEL.block)) break;
    }
    box = box || featured.parentElement;
    answerBox = Object.assign({ type: 'featured_snippet' }, snippetOf(featured));
    const h3 = one(box, 'a[href] h3');
    if (h3) {
      answerBox.title = text(h3);
      answerBox.link = abs(h3.closest('a[href]').getAttribute('href'));
      answerBox.displayedLink = text(one(box, SEL.displayedLink));
    }
  } else {
    const direct = all(answerScope, SEL.directAnswer).find((el) => !el.closest('#rhs') && text(el).length > 0);
    if (direct) answerBox = { type: 'direct_answer', snippet: text(direct) };
  }

  // --- Knowledge panel ------------------------------------------------------------------------
  let panel = null;
  const panelTitleOf = (p) => one(p, SEL.panelTitle) || one(p, SEL.panelHeading);
  const panels = all(document, SEL.panel).filter((p) => !p.closest(SEL.question));
  const panelEl = panels.find((p) => one(p, SEL.panelTitle)) ||
    panels.find((p) => panelTitleOf(p) && (one(p, SEL.panelAttribute) || one(p, SEL.panelDescription)));
  if (panelEl) {
    // A panel across the top may hold only the title and type, its description and facts sitting
    // in the right-hand column (2023 desktop): those parts are read where the page has them.
    const desc = one(panelEl, SEL.panelDescription) ||
      panels.map((p) => one(p, SEL.panelDescription)).find((d) => d);
    let description = '';
    let source = null;
    if (desc) {
      const copy = desc.cloneNode(true);
      const src = copy.querySelector('a[href]');
      if (src) { source = { name: text(src), link: abs(src.getAttribute('href')) }; src.remove(); }
      for (const h of copy.querySelectorAll('h3, [role="button"]')) h.remove();
      description = (copy.textContent || '').replace(/\s+/g, ' ').trim();
    }
    const attributesOf = (root) => {
      const attributes = [];
      for (const el of all(root, SEL.panelAttribute)) {
        if (el.parentElement.closest(SEL.panelAttribute)) continue;
        const labelEl = one(el, SEL.panelAttributeLabel);
        const valueEl = one(el, SEL.panelAttributeValue);
        if (labelEl && valueEl) {
          const value = valueEl.cloneNode(true);
          for (const more of value.querySelectorAll(SEL.panelMore)) (more.closest('a') || more).remove();
          attributes.push({
            label: text(labelEl).replace(/\s*:\s*$/, ''),
            value: (value.textContent || '').replace(/\s+/g, ' ').replace(/[\s,]+$/, '').trim(),
          });
          continue;
        }
        // Product panels write "Label: value" in one line without the label/value elements.
        const line = text(el);
        const colon = line.indexOf(':');
        if (colon > 0 && colon < 40 && line.indexOf('\n') < 0 && line.length - colon > 1) {
          attributes.push({ label: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
        }
      }
      return attributes;
    };
    let attributes = attributesOf(panelEl);
    for (const p of panels) {
      if (attributes.length === 0 && p !== panelEl) attributes = attributesOf(p);
    }
    const website = one(panelEl, SEL.panelWebsite);
    panel = {
      title: text(panelTitleOf(panelEl)),
      subtitle: text(one(panelEl, SEL.panelSubtitle)),
      description,
      source,
      website: website ? abs(website.getAttribute('href')) : '',
      attributes,
      profiles: all(panelEl, SEL.panelProfiles).map((a) => ({ name: text(a), link: abs(a.getAttribute('href')) })),
    };
  }

  // --- Top stories ----------------------------------------------------------------------------
  const stories = [];
  for (const section of all(main, SEL.storySection)) {
    for (const a of all(section, SEL.storyLink)) {
      const title = one(a, SEL.storyTitle);
      if (!title) continue;
      const parts = [...title.parentElement.children];
      // A part's words: its text, or the publisher's logo's alt text (2021); the "." between
      // parts that screen readers pause on is none.
      const words = (el) => [text(el) || (one(el, 'img[alt]') || { alt: '' }).alt.trim()]
        .filter((t) => /[\p{L}\p{N}]/u.test(t));
      const before = parts.slice(0, parts.indexOf(title)).flatMap(words);
      const after = parts.slice(parts.indexOf(title) + 1).flatMap(words);
      stories.push({ title: text(title), link: abs(a.getAttribute('href')), source: before.pop() || '', dateText: after.pop() || '' });
    }
  }

  // --- Local / hotel results ------------------------------------------------------------------
  const places = [];
  for (const rating of all(one(document, '#rcnt') || document, SEL.placeRating)) {
    if (rating.closest('#rhs')) continue;
    const card = rating.closest('a[href]') || rating.closest('[role="link"]') || rating.parentElement;
    places.push({
      title: text(one(card, SEL.placeTitle)),
      ratingLabel: rating.getAttribute('aria-label'),
      price: text(one(card, SEL.placePrice)),
      link: card.getAttribute && card.getAttribute('href') ? abs(card.getAttribute('href')) : '',
    });
  }
  const placeIds = new Set();
  for (const card of all(one(document, '#rcnt') || document, SEL.localPlace)) {
    const heading = one(card, '[role="heading"]');
    const details = one(card, SEL.localDetails);
    const id = card.getAttribute('data-cid');
    if (!heading || !details || card.closest('#rhs') || placeIds.has(id) || one(card, SEL.placeRating)) continue;
    placeIds.add(id);
    const lines = [...(details.contains(heading) ? heading.parentElement : details).children]
      .filter((el) => el !== heading && text(el).length > 0);
    const ratingAt = lines.findIndex((el) => all(el, SEL.localRating)
      .some((r) => /\d/.test(r.getAttribute('aria-label'))));
    const parts = (el) => (el ? text(el).split(/\s+·\s+/) : []);
    // Without a rating the type is the first line ("Kfz-Ersatzteilgeschäft").
    const rated = parts(lines[ratingAt]);
    const typeLine = ratingAt >= 0 ? rated.slice(1) : (parts(lines[0]).length === 1 ? parts(lines[0]) : []);
    const next = lines[ratingAt >= 0 ? ratingAt + 1 : (typeLine.length ? 1 : 0)];
    places.push({
      title: text(heading),
      ratingText: ratingAt >= 0 ? rated[0] : '',
      type: typeLine.length ? typeLine[typeLine.length - 1] : '',
      address: parts(next)[0] || '',
    });
  }

  // --- AI Overview ----------------------------------------------------------------------------
  const aiOverview = (() => {
    const root = one(document, SEL.aiOverview);
    if (!root) return null;
    // Google's data comments: uuid of a citation → the links of the sources it names.
    const cited = new Map();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
    for (let c = walker.nextNode(); c; c = walker.nextNode()) {
      const data = c.data;
      if (!data.startsWith('Sv6Kpe[[') || data.indexOf('&quot;') < 0) continue;
      try {
        const v = JSON.parse(data.slice(6).replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
        const entry = v[0];
        if (typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
        const link = entry[1][5];
        if (typeof link !== 'string') continue;
        if (!cited.has(entry[0])) cited.set(entry[0], []);
        cited.get(entry[0]).push(link);
      } catch (e) { /* another kind of comment */ }
    }
    // Sources as the column lists them (its preview repeats the first ones): one per link.
    const references = [];
    const seen = new Set();
    for (const li of all(one(root, SEL.aiSources), SEL.aiSourceItem)) {
      const a = one(li, 'a[href^="http"]') || (li.closest('a[href^="http"]'));
      const title = text(one(li, SEL.aiSourceTitle)) || (a && a.getAttribute('aria-label')) || '';
      const link = a ? abs(a.getAttribute('href')) : '';
      const key = link || title;
      if (!title || seen.has(key)) continue;
      seen.add(key);
      references.push({ title, link, snippet: text(one(li, SEL.aiSourceSnippet)), source: text(one(li, SEL.aiSourceName)) });
    }
    const indexesOf = (el) => {
      const out = [];
      for (const b of all(el, SEL.aiCitation)) {
        for (const link of cited.get(b.getAttribute('data-icl-uuid')) || []) {
          const i = references.findIndex((r) => r.link === link);
          if (i >= 0 && out.indexOf(i) < 0) out.push(i);
        }
      }
      return out;
    };
    const clean = (el) => {
      const copy = el.cloneNode(true);
      for (const x of copy.querySelectorAll('style, script, button, [aria-hidden="true"] a')) x.remove();
      return copy;
    };
    const listOf = (list) => [...list.querySelectorAll('li')]
      .filter((li) => li.closest('ul, ol') === list)
      .map((li) => {
        const copy = clean(li);
        for (const l of copy.querySelectorAll('ul, ol')) l.remove();
        const item = { snippet: text(copy) };
        const nested = [...li.querySelectorAll('ul, ol')].filter((l) => l.parentElement.closest('li') === li);
        if (nested.length) item.list = nested.flatMap(listOf);
        return item;
      });
    const blocks = [];
    const main = one(root, SEL.aiMain);
    for (const el of all(main, SEL.aiBlock)) {
      const outer = el.parentElement.closest(SEL.aiBlock);
      if (outer && main.contains(outer)) continue;
      const referenceIndexes = indexesOf(el);
      if (el.matches('[role="heading"]')) {
        blocks.push({ type: 'heading', snippet: text(el) });
      } else if (el.matches('ul, ol')) {
        blocks.push({ type: 'list', list: listOf(el), referenceIndexes });
      } else {
        // A paragraph; a video card inside it is a block of its own, after it.
        const copy = clean(el);
        let video = null;
        for (const child of [...el.children]) {
          if (!child.querySelector(SEL.aiMedia)) continue;
          const a = one(child, 'a[href^="http"]');
          if (a) {
            video = { link: abs(a.getAttribute('href')), channel: text(one(child, SEL.aiVideoChannel)),
                      sourceLine: text(one(child, SEL.aiVideoSource)), duration: text(one(child, SEL.aiVideoDuration)) };
          }
        }
        for (const child of [...copy.children]) {
          if (child.querySelector(SEL.aiMedia)) child.remove();
        }
        const words = all(el, SEL.aiHighlight).map(text).filter((t) => t.length > 0);
        const snippet = text(copy);
        if (snippet) blocks.push({ type: 'paragraph', snippet, snippetHighlightedWords: words, referenceIndexes });
        if (video) blocks.push(Object.assign({ type: 'video' }, video));
      }
    }
    return blocks.length ? { blocks, references } : null;
  })();

  const next = one(document, SEL.nextPage);
  return {
    url: location.href,
    lang: document.documentElement.lang || '',
    statsText,
    noResultsText,
    organic,
    ads,
    shopping,
    questions,
    related,
    answerBox,
    panel,
    stories,
    places,
    aiOverview,
    nextPage: next ? abs(next.getAttribute('href')) : '',
    start: args && typeof args.start === 'number' ? args.start : 0,
  };
}
