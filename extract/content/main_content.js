// Which parts of the rendered page `text` and `markdown` are made of (onlyMainContent,
// includeOnlyTags, excludeTags of POST /scrape/web): ONE function expression, called in the page
// with {include: [css], exclude: [css], main: bool} and returning {roots, skip} for snapshot.js
// (roots: the elements to convert, null for the whole body; skip: elements left out).
//
// The main content is found the way Readability scores text blocks (paragraph text and commas
// credited to the ancestors, link density and class/id names against), with what only a rendered
// page knows: what is visible, each box's place and size (a narrow column at the side is a
// sidebar, a fixed or sticky box a banner or bar), so a page's layout is read as a person reads it.
// Inside the chosen block, navigation, asides, forms, share/comment widgets, fixed boxes and
// link lists are left out.
(f) => {
  const include = f.include && f.include.length ? f.include.join(', ') : '';
  const exclude = f.exclude && f.exclude.length ? f.exclude.join(', ') : '';
  const body = document.body || document.documentElement;

  const POSITIVE = /article|body|content|entry|h-?entry|main|page|post|text|blog|story|prose|recipe|product|description/i;
  const NEGATIVE = /-ad-|^ad-|\bads?\b|banner|breadcrumb|combx|comment|communit|consent|cookie|contact|disqus|extra|foot|gdpr|header|legends|menu|modal|nav|newsletter|outbrain|pager|pagination|popup|promo|related|remark|replies|rss|share|shoutbox|sidebar|skyscraper|social|sponsor|subscribe|tags?\b|taboola|teaser|tool|widget|masthead|meta|author-?box|signup|login/i;
  const BOILER_ROLES = new Set(['navigation', 'complementary', 'contentinfo', 'banner', 'search', 'dialog', 'alertdialog', 'menu', 'menubar']);
  const BOILER_TAGS = new Set(['nav', 'aside', 'footer', 'form', 'dialog', 'button', 'select', 'iframe']);
  const TEXT_BLOCKS = 'p, pre, td, blockquote, li, dd, h2, h3, h4, div, section, article';

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

  const findMain = () => {
    const scores = new Map();
    const credit = (el, s) => {
      if (!el || el === document.documentElement) return;
      scores.set(el, (scores.get(el) || 0) + s);
    };
    for (const el of body.querySelectorAll(TEXT_BLOCKS)) {
      const tag = el.localName;
      // A div or section counts as a paragraph only for the text it holds itself.
      let text;
      if (tag === 'div' || tag === 'section' || tag === 'article') {
        text = '';
        for (const n of el.childNodes) if (n.nodeType === 3) text += n.data;
        text = text.replace(/\s+/g, ' ').trim();
      } else {
        text = textOf(el).replace(/\s+/g, ' ').trim();
      }
      if (text.length < 25 || !shown(el)) continue;
      const s = 1 + (text.split(/[,،、，]/).length - 1) + Math.min(Math.floor(text.length / 100), 3);
      credit(el.parentElement, s);
      credit(el.parentElement && el.parentElement.parentElement, s / 2);
      const third = el.parentElement && el.parentElement.parentElement && el.parentElement.parentElement.parentElement;
      credit(third, s / 3);
    }
    let best = null;
    let bestScore = 0;
    const final = new Map();
    for (const [el, raw] of scores) {
      if (!shown(el)) continue;
      let s = raw;
      const n = names(el);
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
      if (s >= Math.max(10, bestScore * 0.25) && linkDensity(sib) < 0.3) roots.push(sib);
    }
    return roots;
  };

  // Boilerplate inside the main content.
  const boilerplate = (el) => {
    const tag = el.localName;
    if (BOILER_TAGS.has(tag) || BOILER_ROLES.has(el.getAttribute('role') || '')) return true;
    if (fixedOrSticky(el)) return true;
    if (tag === 'header' && !el.querySelector('h1, h2')) return true;
    const n = names(el);
    if (NEGATIVE.test(n) && !POSITIVE.test(n) && !el.querySelector('h1')) {
      const t = textLength(el);
      if (t < 200 || linkDensity(el) > 0.3) return true;
    }
    if ((tag === 'ul' || tag === 'ol' || tag === 'div') && linkDensity(el) > 0.6 && textLength(el) > 0) return true;
    return false;
  };

  let roots = null;
  let main = false;
  if (include) {
    roots = topMost(include);
  } else if (f.main && body) {
    roots = findMain();
    main = roots !== null;
    // The page's title heading belongs to its content even when it sits above the article body.
    const h1 = document.querySelector('h1');
    if (main && h1 && shown(h1) && !roots.some((r) => r.contains(h1)) &&
        (h1.compareDocumentPosition(roots[0]) & Node.DOCUMENT_POSITION_FOLLOWING)) {
      roots.unshift(h1);
    }
  }
  const excluded = exclude ? (el) => el.matches(exclude) : null;
  const skip = (el) => (excluded !== null && excluded(el)) || (main && boilerplate(el));
  return {roots, skip: excluded || main ? skip : null, revealed: main && revealed};
}
