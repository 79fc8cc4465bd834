// Which parts of the rendered page `text` and `markdown` are made of (onlyMainContent,
// includeOnlyTags, excludeTags of POST /scrape/web): ONE function expression, called in the page
// with {include: [css], exclude: [css], main: bool} and returning {roots, skip} for snapshot.js
// (roots: the elements to convert, null for the whole body; skip: elements left out).
//
// The main content is found the way Readability scores text blocks (paragraph text and commas
// credited to the ancestors, text inside page furniture crediting nobody, link density and
// class/id names against), pointed at by the page's own schema.org articleBody when it states one,
// with what only a rendered page knows: what is visible, each box's place and size (a narrow
// column at the side is a sidebar, a fixed or sticky box a banner or bar, a box outside the page
// nobody's reading). Inside the chosen block, navigation, asides, forms, captions, bylines, ad
// labels, comment and related blocks, fixed boxes and link lists are left out. The plain road
// (extract/plain/main_content.cpp) runs the same algorithm over the markup, without layout: keep
// the two in step.
(f) => {
  const include = f.include && f.include.length ? f.include.join(', ') : '';
  const exclude = f.exclude && f.exclude.length ? f.exclude.join(', ') : '';
  const body = document.body || document.documentElement;

  const POSITIVE = /article|body|content|entry|h-?entry|main|page|post|text|blog|story|prose|recipe|product|description/i;
  const NEGATIVE = /-ad-|^ad-|\bads?\b|banner|breadcrumb|combx|comment|communit|consent|cookie|contact|disqus|extra|foot|gdpr|header|legends|menu|modal|nav|newsletter|outbrain|pager|pagination|popup|promo|related|remark|replies|rss|share|shoutbox|sidebar|skyscraper|social|sponsor|subscribe|tags?\b|taboola|teaser|tool|widget|masthead|meta|author-?box|signup|login/i;
  const BOILER_ROLES = new Set(['navigation', 'complementary', 'contentinfo', 'banner', 'search', 'dialog', 'alertdialog', 'menu', 'menubar']);
  const BOILER_TAGS = new Set(['nav', 'aside', 'footer', 'form', 'dialog', 'button', 'select', 'iframe']);
  const TEXT_BLOCKS = 'p, pre, td, blockquote, li, dd, h2, h3, h4, div, section, article';
  // Elements that start a block of their own, and those whose text is never read.
  const BLOCKS = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
    'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
    'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul']);
  const NO_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'button', 'select',
    'textarea']);
  // Readability's unlikely candidates: text inside such a block (comments, a footer, related
  // links, a menu) credits nobody, unless its names also say content.
  const UNLIKELY = /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
  const MAYBE = /and|article|body|column|content|main|shadow/i;
  const ASIDE = /caption|credit|byline|author|dateline|writtenby|attribution/i;
  const LABEL = /^(advert|advertisement|advertising|anzeige|werbung|publicidad|publicit[ée]|pubblicit[àa])$/i;

  // Names of sharing widgets and of promotions (more to read, newsletters), which win over a content
  // word beside them ("dpsp-share-text", "article__share") in a block short beside the article.
  const SHARE = /share|sharing|social/i;
  const PROMO = /read-?more|recommend|trending|more-?stories|also-?like|newsletter|subscri|signup|sign-up/i;
  // Names of a date line ("post-date", "timestamp", "arttidate_pub").
  const DATE_NAME = /date|timestamp|publish|updated/i;

  // Words are runs of ASCII letters and digits or of any characters past ASCII but a no-break
  // space (the plain road splits the same way).
  const wordsIn = (text) => text.match(/[A-Za-z0-9\u0080-\u009f\u00a1-\uffff]+/g) || [];
  // Readability's _textSimilarity: how much of `b`'s words (their characters, spaces between) are
  // also `a`'s, 0 to 1; ASCII folded to lower case (as main_content.cpp does).
  const lowerAscii = (text) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const titleSimilarity = (a, b) => {
    const wordsA = new Set(wordsIn(lowerAscii(a)));
    const wordsB = wordsIn(lowerAscii(b));
    if (!wordsA.size || !wordsB.length) return 0;
    return 1 - wordsB.filter((w) => !wordsA.has(w)).join(' ').length / wordsB.join(' ').length;
  };
  const styleOf = (el) => getComputedStyle(el);
  // A page whose content is laid out but hidden (visibility or opacity) until its scripts reveal
  // it, scripts that did not run or failed: read as the page means it, not as it was left.
  const revealed = body && (body.innerText || '').trim().length < 200 && (body.textContent || '').length > 2000;
  const shown = (el) => el.getClientRects().length > 0 && (revealed ||
      typeof el.checkVisibility !== 'function' || el.checkVisibility({visibilityProperty: true}));
  const names = (el) => (typeof el.className === 'string' ? el.className : '') + ' ' + (el.id || '');
  const textOf = (el) => (revealed ? el.textContent : el.innerText) || '';
  const textLength = (el) => textOf(el).replace(/\s+/g, ' ').trim().length;
  const linkLength = (el) => {
    let n = 0;
    for (const a of el.querySelectorAll('a')) n += textOf(a).replace(/\s+/g, ' ').trim().length;
    return n;
  };
  const linkDensity = (el) => {
    const t = textLength(el);
    return t ? Math.min(1, linkLength(el) / t) : 1;
  };
  const fixedOrSticky = (el) => {
    const p = styleOf(el).position;
    return p === 'fixed' || p === 'sticky';
  };

  // Top-most elements matching a selector list.
  const topMost = (selector) => {
    const all = Array.from(document.querySelectorAll(selector));
    const set = new Set(all);
    return all.filter((el) => {
      for (let up = el.parentElement; up; up = up.parentElement) if (set.has(up)) return false;
      return true;
    });
  };

  const viewportWidth = Math.max(document.documentElement.clientWidth || 0, window.innerWidth || 0, 1);

  // A box that reads as page furniture: a sidebar (narrow and off-centre), a bar or banner.
  const layoutPenalty = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return 1;
    let penalty = 0;
    const centre = r.left + r.width / 2 + window.scrollX;
    if (r.width < viewportWidth * 0.3 && Math.abs(centre - viewportWidth / 2) > viewportWidth * 0.2) penalty += 0.6;
    if (fixedOrSticky(el)) penalty += 0.8;
    return Math.min(penalty, 1);
  };

  // Whether an element or one of its ancestors below the body is page furniture by its tag, role
  // or Readability's unlikely names (a form is not: some sites wrap the whole page in one).
  const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'dialog']);
  const outside = new Map();
  const furniture = (el) => {
    if (!el || el === body || el === document.documentElement) return false;
    if (outside.has(el)) return outside.get(el);
    const tag = el.localName;
    let out = FURNITURE_TAGS.has(tag) || BOILER_ROLES.has(el.getAttribute('role') || '');
    if (!out && tag !== 'a' && tag !== 'article' && tag !== 'main') {
      const n = names(el);
      out = UNLIKELY.test(n) && !MAYBE.test(n);
    }
    out = out || furniture(el.parentElement);
    outside.set(el, out);
    return out;
  };

  // The article's own text when the page states it (schema.org articleBody in JSON-LD): its
  // three-word shingles (of wordsIn's words), to find the blocks that hold it.
  const shinglesOf = (text) => {
    const words = wordsIn(text);
    const out = [];
    for (let i = 0; i + 3 <= words.length; i++) out.push(words[i] + ' ' + words[i + 1] + ' ' + words[i + 2]);
    return out;
  };
  const statedBody = (() => {
    let longest = '';
    const walk = (v, depth) => {
      if (depth > 20 || v === null || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        if (k === 'articleBody' && typeof x === 'string' && x.length > longest.length) longest = x;
        else walk(x, depth + 1);
      }
    };
    for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
      try {
        walk(JSON.parse(script.textContent), 0);
      } catch (e) {
        // a block that does not parse states nothing
      }
    }
    return longest.length >= 500 ? new Set(shinglesOf(longest)) : null;
  })();
  // The blocks that hold the stated article text (most of their shingles in it), with their length.
  const statedBlocks = [];

  const statedContainer = () => {
    const total = statedBlocks.reduce((n, [, len]) => n + len, 0);
    if (total < 400) return null;
    const held = new Map();
    for (const [el, len] of statedBlocks) {
      for (let up = el; up && up !== document.documentElement; up = up.parentElement) held.set(up, (held.get(up) || 0) + len);
    }
    for (let up = statedBlocks[0][0]; up && up !== document.documentElement; up = up.parentElement) {
      if (held.get(up) >= total * 0.9) return up === body ? null : up;
    }
    return null;
  };

  const findMain = (strict) => {
    const scores = new Map();
    const credit = (el, s) => {
      if (!el || el === document.documentElement) return;
      scores.set(el, (scores.get(el) || 0) + s);
    };
    for (const el of body.querySelectorAll(TEXT_BLOCKS)) {
      const tag = el.localName;
      // A div or section counts as a paragraph only for the text it holds itself (its text nodes
      // and inline elements), as Readability reads it: without block children it is one and
      // credits its parent, else that text is a paragraph inside it and credits the div itself.
      let text;
      let first = el.parentElement;
      if (tag === 'div' || tag === 'section' || tag === 'article') {
        text = '';
        let blocks = false;
        for (const n of el.childNodes) {
          if (n.nodeType === 3) text += n.data;
          else if (n.nodeType !== 1 || NO_TEXT.has(n.localName)) continue;
          else if (BLOCKS.has(n.localName)) blocks = true;
          else text += ' ' + textOf(n);
        }
        text = text.replace(/\s+/g, ' ').trim();
        if (blocks) first = el;
      } else {
        text = textOf(el).replace(/\s+/g, ' ').trim();
      }
      if (text.length < 25 || !shown(el)) continue;
      if (statedBody !== null && strict) {
        const sh = shinglesOf(text);
        if (sh.length > 0 && sh.filter((x) => statedBody.has(x)).length >= sh.length * 0.6) statedBlocks.push([el, text.length]);
      }
      if (strict && furniture(el)) continue;
      const s = 1 + (text.split(/[,،、，]/).length - 1) + Math.min(Math.floor(text.length / 100), 3);
      credit(first, s);
      credit(first && first.parentElement, s / 2);
      credit(first && first.parentElement && first.parentElement.parentElement, s / 3);
    }
    let best = null;
    let bestScore = 0;
    const final = new Map();
    for (const [el, raw] of scores) {
      if (!shown(el)) continue;
      let s = raw;
      // The body's names say what kind of page it is (WordPress's "single-post"), not where its
      // content is: they weigh nothing.
      const n = el === body ? '' : names(el);
      if (POSITIVE.test(n)) s += 25;
      if (NEGATIVE.test(n) && !POSITIVE.test(n)) s -= 25;
      const tag = el.localName;
      if (tag === 'article' || tag === 'main' || el.getAttribute('role') === 'main' ||
          el.getAttribute('itemprop') === 'articleBody') s += 30;
      if (BOILER_TAGS.has(tag) || BOILER_ROLES.has(el.getAttribute('role') || '')) s -= 50;
      s *= 1 - linkDensity(el);
      s *= 1 - layoutPenalty(el);
      final.set(el, s);
      if (s > bestScore) {
        best = el;
        bestScore = s;
      }
    }
    // The page states its article text and the blocks holding most of it are found: the deepest
    // element around nine tenths of them is the article, whatever the scores say, and alone.
    const stated = strict ? statedContainer() : null;
    if (stated !== null) return [stated];
    if (!best) return null;
    // Readability's rule: when three of the next best candidates lie in one ancestor of the best,
    // the content is split across blocks (a page builder's modules) and that ancestor holds it.
    const others = [...final].filter(([el, sc]) => el !== best && sc >= bestScore * 0.75)
        .sort((a, b) => b[1] - a[1]).slice(0, 5).map(([el]) => el);
    if (others.length >= 3) {
      for (let up = best.parentElement; up && up !== document.documentElement; up = up.parentElement) {
        if (others.filter((el) => up.contains(el)).length >= 3) {
          best = up;
          bestScore = Math.max(bestScore, final.get(up) || 0);
          break;
        }
        if (up === body) break;
      }
    }
    // A parent that holds most of the same content with little more is the better block (the
    // article's header and lead paragraph are then inside).
    for (let up = best.parentElement; up && up !== body && up !== document.documentElement; up = up.parentElement) {
      const s = final.get(up) || 0;
      if (s >= bestScore * 0.75 && textLength(up) < textLength(best) * 1.6 && linkDensity(up) < 0.35) {
        best = up;
        bestScore = Math.max(bestScore, s);
      } else {
        break;
      }
    }
    // Siblings that score well too are part of the content (a split article body).
    const roots = [];
    const parent = best.parentElement;
    for (const sib of parent ? parent.children : [best]) {
      if (sib === best) {
        roots.push(sib);
        continue;
      }
      const s = final.get(sib) || 0;
      if (s >= Math.max(10, bestScore * 0.25) && linkDensity(sib) < 0.3) {
        roots.push(sib);
      } else if (sib.localName === 'p' && shown(sib)) {
        // Readability's rule for a paragraph beside the body: a long one with few links, or a
        // short sentence without any.
        const t = textOf(sib).replace(/\s+/g, ' ').trim();
        const d = linkDensity(sib);
        if ((t.length > 80 && d < 0.25) || (t.length > 0 && t.length <= 80 && d === 0 && /\.( |$)/.test(t))) roots.push(sib);
      }
    }
    // An article split into blocks of one kind (a page builder's text modules between figures,
    // ad rows or sub-headings): blocks with the best block's tag and classes near it (under its
    // ancestor six levels up) that score as text too, with few links, are part of it.
    const kind = best.getAttribute('class');
    if (kind && kind.trim()) {
      let scope = best;
      for (let i = 0; i < 6 && scope.parentElement && scope.parentElement !== body; i++) scope = scope.parentElement;
      for (const el of scope.getElementsByTagName(best.localName)) {
        if (el.getAttribute('class') !== kind || roots.some((r) => r.contains(el) || el.contains(r))) continue;
        if ((final.get(el) || 0) >= Math.max(10, bestScore * 0.25) && linkDensity(el) < 0.3 && !(strict && furniture(el))) {
          roots.push(el);
        }
      }
      roots.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    }
    return roots;
  };

  // Boilerplate inside the main content.
  const boilerplate = (el) => {
    const tag = el.localName;
    if (BOILER_TAGS.has(tag) || BOILER_ROLES.has(el.getAttribute('role') || '')) return true;
    if (fixedOrSticky(el) || offPage(el)) return true;
    // An embedded post or quotation is the article's whatever its wrapper's names say (a tweet in a
    // "social-media-embed" block).
    const length = textLength(el);
    if (length > 0 && quotedLength(el) * 10 >= length * 6) return false;
    if (aside(el)) return true;
    if (tag === 'header' && !el.querySelector('h1, h2')) return true;
    const n = names(el);
    // (In a thread, the posts named like comments stay however short.)
    if (NEGATIVE.test(n) && !POSITIVE.test(n) && !el.querySelector('h1') && !(thread && UNLIKELY.test(n))) {
      const t = textLength(el);
      if (t < 200 || linkDensity(el) > 0.3) return true;
    }
    if ((tag === 'ul' || tag === 'ol' || tag === 'div') && linkDensity(el) > 0.6 && textLength(el) > 0) return true;
    return linkCard(el) || teaser(el) || dateLine(el);
  };

  // A block of links inside a line of text (a hover card of a name's latest articles, hidden until
  // the pointer is on it; a line of tags): the innermost inline element of 100 characters or more,
  // four fifths links and under 50 characters outside them, three links or more.
  const linkCard = (el) => {
    const tag = el.localName;
    if (tag === 'a' || BLOCKS.has(tag)) return false;
    const length = textLength(el);
    if (length < 100 || linkDensity(el) <= 0.8 || length - linkLength(el) >= 50) return false;
    if (el.querySelectorAll('a').length < 3) return false;
    // The innermost such element: the name it hangs on stays.
    for (const c of el.children) if (linkCard(c)) return false;
    return true;
  };
  // A headline linked to another article between the article's paragraphs ("SEAN SPICER
  // ELIMINATED FROM 'DANCING WITH THE STARS'", "Also on rt.com ..."): a paragraph, or a link
  // standing alone among blocks, four fifths link text (hover cards aside), of four words or more and
  // not an address (a source cited as its URL is the article's).
  const teaser = (el) => {
    const tag = el.localName;
    if (tag === 'a') {
      if (!el.parentElement) return false;
      let blocks = false;
      for (const c of el.parentElement.childNodes) {
        if (c.nodeType === 3 && c.data.trim()) return false;
        if (c.nodeType === 1 && BLOCKS.has(c.localName)) blocks = true;
      }
      if (!blocks) return false;
    } else if (tag !== 'p') {
      return false;
    }
    let text = textLength(el);
    // (querySelectorAll leaves the element itself out: a link's text is all link.)
    let links = tag === 'a' ? text : linkLength(el);
    const cards = (e) => {
      for (const c of e.children) {
        if (linkCard(c)) {
          text -= textLength(c);
          links -= linkLength(c);
        } else {
          cards(c);
        }
      }
    };
    cards(el);
    if (text <= 0 || links <= text * 0.8) return false;
    const t = textOf(el).replace(/\s+/g, ' ').trim();
    if (t.includes('://') || t.includes('www.')) return false;
    return t.split(' ').length >= 4;
  };
  // A date line ("Updated 10:01 pm PST, Tuesday, November 19, 2019", "LinkNaija October 06, 2018"):
  // under 100 characters, two fifths of it in the page's date elements (<time>, a datetime
  // attribute, itemprop date...), or under 80 with a digit and named like a date; a block or a
  // line of its own (not a date inside a sentence).
  const dateLine = (el) => {
    const length = textLength(el);
    if (length === 0 || length >= 100 || holdsH1.has(el)) return false;
    const date = dateLength(el) * 10 >= length * 4 ||
        (length < 80 && DATE_NAME.test(names(el)) && /[0-9]/.test(textOf(el)));
    if (!date) return false;
    if (BLOCKS.has(el.localName)) return true;
    // The line around an inline element: its block's text but the blocks beside it.
    let block = el.parentElement;
    while (block && block !== body && !BLOCKS.has(block.localName)) block = block.parentElement;
    if (!block) return false;
    let line = textLength(block);
    for (const c of block.children) if (BLOCKS.has(c.localName) && !c.contains(el)) line -= textLength(c);
    return line < 100;
  };
  // The text inside the page's date elements, and inside quotations.
  const dateLength = (el) => {
    if (el.localName === 'time' || el.hasAttribute('datetime') || /^date/i.test(el.getAttribute('itemprop') || '')) {
      return textLength(el);
    }
    let n = 0;
    for (const c of el.children) n += dateLength(c);
    return n;
  };
  const quotedLength = (el) => {
    if (el.localName === 'blockquote') return textLength(el);
    let n = 0;
    for (const c of el.children) n += quotedLength(c);
    return n;
  };

  // Laid out wholly outside the page (a closed drawer, a gallery's hidden slides, text for
  // screen readers only): nobody reads it there.
  const pageWidth = Math.max(document.documentElement.scrollWidth || 0, viewportWidth);
  const offPage = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    return r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0 || r.left + window.scrollX >= pageWidth ||
        (r.width <= 1 && r.height <= 1);
  };

  // What sits beside the article's text inside its block (one rule for both roads,
  // extract/plain/main_content.cpp): captions and photo credits, bylines and author boxes, the
  // "Advertisement" label of an ad slot, and blocks named like comments, related links, menus or
  // footers whatever their size.
  // The text of an element outside its links.
  const labelOf = (el) => {
    let label = '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement.closest('a')) label += n.data;
    }
    return label.replace(/\s+/g, ' ').trim();
  };
  let rootsLength = 0;
  // The content is little but blocks named like furniture (under 500 characters outside them, and
  // they two thirds of it): a forum thread whose posts are named "comment"; they stay.
  let thread = false;
  const holdsH1 = new Set();
  for (const h of document.querySelectorAll('h1')) for (let up = h; up; up = up.parentElement) holdsH1.add(up);
  const aside = (el) => {
    const tag = el.localName;
    if (tag === 'figcaption') return true;
    const n = names(el);
    if (holdsH1.has(el)) return false;
    // Unless it holds most of the content (a forum's first post is a "comment").
    if (UNLIKELY.test(n) && !MAYBE.test(n) && textLength(el) * 2 <= rootsLength && !thread) return true;
    // Captions, credits and author boxes are short beside the text (a journal's long "author
    // guidelines" are its content).
    // A content word beside (a "post-author" box) does not save one a quarter of the text or less.
    const length = textLength(el);
    if (ASIDE.test(n) && length * 2 <= rootsLength && (!POSITIVE.test(n) || length * 4 <= rootsLength)) return true;
    // A sharing widget, and a block of promotions a quarter of the text or less, whatever content
    // words their names hold too.
    if (SHARE.test(n) && length < 100) return true;
    if (PROMO.test(n) && length * 4 <= rootsLength) return true;
    if (el.getAttribute('rel') === 'author' || el.getAttribute('itemprop') === 'author') return true;
    // A paragraph that is a label and a link: "Read also:" and a headline.
    if (tag === 'p' && linkDensity(el) > 0.5 && textLength(el) < 200 && /:$/.test(labelOf(el))) return true;
    return (el.textContent || '').length < 40 && LABEL.test(textOf(el).replace(/\s+/g, ' ').trim());
  };

  let roots = null;
  let main = false;
  if (include) {
    roots = topMost(include);
  } else if (f.main && body) {
    // With Readability's unlikely names first; without them when that leaves too little (a page
    // whose whole body sits in a block named like one).
    roots = findMain(true);
    const length = (list) => list.reduce((n, r) => n + textLength(r), 0);
    if (roots === null || length(roots) < 500) {
      const loose = findMain(false);
      if (loose !== null && (roots === null || length(loose) > length(roots))) roots = loose;
    }
    main = roots !== null;
  }
  const excluded = exclude ? (el) => el.matches(exclude) : null;
  const rootSet = new Set(main ? roots : []);
  for (const r of rootSet) rootsLength += textLength(r);
  let namedLength = 0;
  const named = (el) => {
    for (const c of el.children) {
      const n = names(c);
      if (!holdsH1.has(c) && UNLIKELY.test(n) && !MAYBE.test(n)) namedLength += textLength(c);
      else named(c);
    }
  };
  for (const r of rootSet) named(r);
  thread = namedLength * 3 >= rootsLength * 2 && rootsLength - namedLength < 500;
  // The heading that repeats the page's title (Readability's _headerDuplicatesTitle): the first
  // <h1> or <h2> of the content whose words are, but for a quarter, the title's. The title is in
  // `json.title`; the benchmark sets' article text, as Readability's, leaves it out.
  let titleHeading = null;
  if (main && document.title) {
    for (const r of rootSet) {
      const heads = r.matches('h1, h2') ? [r] : r.querySelectorAll('h1, h2');
      titleHeading = Array.from(heads).find((h) => shown(h) && !rootSet.has(h) &&
          titleSimilarity(document.title, textOf(h)) > 0.75) || null;
      if (titleHeading) break;
    }
  }
  const skip = (el) => (excluded !== null && excluded(el)) ||
      (main && !rootSet.has(el) && (el === titleHeading || boilerplate(el)));
  return {roots, skip: excluded || main ? skip : null, revealed: main && revealed};
}
