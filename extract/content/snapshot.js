// The page snapshot for POST /scrape/web: ONE function expression (the convention of
// extract/endpoint.h), called in the rendered page with the parts to return, e.g.
// {html: true, text: true, tree: true, links: true, meta: true, maxChars: 20000000, asString: true}.
// Options for the tree only, set by a caller that composes this function with another (see
// extract/content/main_content.js): roots (elements the tree is made of, instead of the body), skip
// (a function: elements left out with their subtree), dataImages (keep data: image URLs),
// revealed (visibility:hidden does not hide text).
// Returns plain JSON in one round trip (when asString: [JSON text of the rest, html, text]):
//   url, baseUrl          location.href and document.baseURI
//   html                  doctype + document.documentElement.outerHTML
//   text                  document.body.innerText (what a person sees)
//   tree                  the VISIBLE DOM as compact arrays for the markdown converter:
//                         ["tag", {attrs}?, ...children], text nodes as strings
//   links                 every a[href] / area[href] as the browser resolved it (handles <base>)
//   meta                  {title, lang, canonical, metas: [[key, content]...], jsonLd: [text...]}
//   truncated             names of the parts cut at maxChars (default 20 M characters each)
//   errors                "part: message" for each part that failed; the other parts still come
// It never throws: each part runs in its own try/catch. The C++ in extract/content/ shapes it.
(opts) => {
  opts = opts || {};
  const MAX_CHARS = opts.maxChars > 0 ? opts.maxChars : 20000000;
  // Element depth past which a subtree is sent as its plain text: keeps the value well inside the
  // protocol's serialization depth and the converters' recursion (the HTML parser itself stops
  // nesting at 512).
  const MAX_DEPTH = 400;

  // Never part of what a person sees (or only as pixels we cannot turn into text).
  const SKIP = new Set([
    'script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link', 'base', 'svg',
    'iframe', 'frame', 'frameset', 'object', 'embed', 'canvas', 'video', 'audio', 'map', 'area',
    'select', 'datalist', 'option', 'optgroup', 'textarea', 'input', 'param', 'source', 'track',
  ]);
  // Tags whose rendering the markdown converter decides from the tag alone. Anything else
  // (div, span, font, custom elements, unknown tags) is sent as "div" or "span" by its CSS display,
  // so that a block-styled <x-card> or <span style="display:block"> breaks lines as on screen.
  const SEMANTIC = new Set([
    'html', 'body', 'a', 'abbr', 'address', 'article', 'aside', 'b', 'bdi', 'bdo', 'blockquote',
    'br', 'button', 'caption', 'center', 'cite', 'code', 'col', 'colgroup', 'data', 'dd', 'del',
    'details', 'dfn', 'dialog', 'dir', 'dl', 'dt', 'em', 'fieldset', 'figcaption', 'figure',
    'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'i', 'img',
    'ins', 'kbd', 'label', 'legend', 'li', 'listing', 'main', 'mark', 'menu', 'nav', 'ol', 'p',
    'plaintext', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'search', 'section', 'small',
    'strike', 'strong', 'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead',
    'time', 'tr', 'tt', 'u', 'ul', 'var', 'wbr', 'xmp', 'math', 'picture', 'big', 'meter',
    'progress', 'output', 'slot',
  ]);
  // Inline by default; sent with {display: "block"} when CSS makes them block-level (flex and grid
  // items are): <a>Privacy</a><a>Terms</a> in a flex row are two lines on screen, not one word.
  // {display: "inline-block"} (also on generic elements sent as "span") marks a box of its own.
  const INLINE_SEMANTIC = new Set([
    'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'button', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i',
    'img', 'ins', 'kbd', 'label', 'mark', 'q', 's', 'samp', 'small', 'strike', 'strong', 'sub', 'sup',
    'time', 'tt', 'u', 'var',
  ]);
  // Elements kept even without children: they mean something empty (cells keep columns aligned).
  const KEEP_EMPTY = new Set(['br', 'hr', 'img', 'td', 'th', 'wbr']);
  const PRE_TAGS = new Set(['pre', 'listing', 'xmp', 'plaintext']);
  // aria-hidden="true" hides icons, decorative glyphs and duplicated labels from screen readers:
  // those are skipped. But a page behind a modal (a consent wall) is aria-hidden while it is
  // still on screen; a subtree holding any of these is page content and is kept.
  const CONTENT = 'p, h1, h2, h3, h4, h5, h6, li, table, article, main, section, form';
  const LANG_CLASS = /^(?:language|lang|highlight-source)-([A-Za-z0-9_+#.-]+)$/;
  const WRAPPER_LANG_CLASS = /^(?:language|highlight-source)-([A-Za-z0-9_+#.-]+)$/;

  // Arrays grow by index, not push(): a page may have replaced Array.prototype.push, and the
  // error path at least must survive that (see docs/content.md on running in the main world).
  const append = (array, value) => {
    array[array.length] = value;
  };
  const out = {url: '', baseUrl: ''};
  const errors = [];
  const truncated = [];
  const attempt = (name, fn) => {
    try {
      out[name] = fn();
    } catch (e) {
      append(errors, name + ': ' + String((e && e.message) || e));
    }
  };
  const cap = (name, s) => {
    if (s.length <= MAX_CHARS) return s;
    append(truncated, name);
    return s.slice(0, MAX_CHARS);
  };
  const absolute = (value) => {
    try {
      return new URL(value, document.baseURI).href;
    } catch (e) {
      return '';
    }
  };

  // ---- tree ----
  let budget = MAX_CHARS;  // characters of text and attributes still allowed in the tree

  // The language a code block names: data-lang / data-language or a language-x, lang-x,
  // highlight-source-x class on the <pre> or its <code>; wrappers (GitHub's
  // div.highlight-source-x, Rouge's div.language-x > div.highlight > pre) only by the two
  // unambiguous class forms.
  const codeLanguage = (el) => {
    const fromClasses = (node, pattern) => {
      for (const cls of node.classList) {
        const m = pattern.exec(cls);
        if (m) return m[1];
      }
      return '';
    };
    const own = [el];
    if (el.localName === 'pre' && el.firstElementChild &&
        el.firstElementChild.localName === 'code') {
      append(own, el.firstElementChild);
    }
    for (const node of own) {
      const named = node.getAttribute('data-lang') || node.getAttribute('data-language') ||
          fromClasses(node, LANG_CLASS);
      if (named) return named;
    }
    for (let up = el.parentElement, i = 0; up && i < 2; up = up.parentElement, i++) {
      const named = fromClasses(up, WRAPPER_LANG_CLASS);
      if (named) return named;
    }
    return '';
  };

  // The image's URL: the candidate the browser chose among srcset / <picture> sources, else the
  // src the page wrote (resolved), else the usual lazy-loading attributes; never a data: URL
  // (inline bytes are not worth sending).
  const imageSource = (el) => {
    const chooses = el.hasAttribute('srcset') ||
        (el.parentElement !== null && el.parentElement.localName === 'picture');
    // currentSrc only where the browser chose among candidates: for a plain src it may name
    // another resource than the one written (Chromium shares one cache entry among URLs that
    // differ by their #fragment, and upgrades an http image on an https page, mixed content).
    let src = chooses ? el.currentSrc || '' : '';
    // A chosen http candidate upgraded to https: the page wrote http, the markdown says so.
    if (src.startsWith('https://')) {
      const written = 'http://' + src.slice('https://'.length);
      const srcset = el.getAttribute('srcset') || '';
      if (el.src === written || srcset.includes(written)) src = written;
    }
    // An empty src attribute names no image (el.src would be the page's own URL).
    if (!src && (el.getAttribute('src') || '').trim()) src = el.src || '';
    if (!src || src.startsWith('data:')) {
      const lazy = el.getAttribute('data-src') || el.getAttribute('data-lazy-src') ||
          el.getAttribute('data-original') ||
          (el.getAttribute('data-srcset') || '').trim().split(/[\s,]+/)[0];
      if (lazy) src = absolute(lazy);
      else if (!opts.dataImages) src = '';
    }
    // removeBase64Images: false (opts.dataImages) keeps an inline image's data: URL.
    return src.startsWith('data:') && !opts.dataImages ? '' : src;
  };

  const attributesOf = (el, tag) => {
    const a = {};
    let any = false;
    const set = (k, v) => {
      if (v === null || v === undefined || v === '') return;
      a[k] = v;
      any = true;
      budget -= String(v).length;
    };
    switch (tag) {
      case 'a':
        if (el.hasAttribute('href')) {
          set('href', typeof el.href === 'string' ? el.href : absolute(el.getAttribute('href')));
        }
        set('title', el.getAttribute('title'));
        break;
      case 'img':
        set('src', imageSource(el));
        set('alt', el.getAttribute('alt'));
        set('title', el.getAttribute('title'));
        break;
      case 'td':
      case 'th':
        if (el.colSpan > 1) set('colspan', el.colSpan);
        if (el.rowSpan > 1) set('rowspan', el.rowSpan);
        break;
      case 'ol':
        if (el.start !== 1) set('start', el.start);
        break;
      case 'pre':
      case 'code':
        set('lang', codeLanguage(el));
        break;
      case 'table': {
        const role = el.getAttribute('role');
        if (role === 'presentation' || role === 'none') set('role', role);
        break;
      }
    }
    return any ? a : null;
  };

  const HAS_CHECK_VISIBILITY = typeof Element.prototype.checkVisibility === 'function';
  const WITH_VISIBILITY = {visibilityProperty: true};
  const isVisible = (el, options) =>
      HAS_CHECK_VISIBILITY ? el.checkVisibility(options) : el.getClientRects().length > 0;

  // 'block' for block-level displays (block, flex, grid, list-item, table...), 'inline-block' for
  // atomic inlines (inline-block, inline-flex, inline-grid, inline-table: boxes of their own that
  // the converter keeps apart with a space), '' for plain inline.
  const displayKind = (display) => {
    if (display.startsWith('inline-')) return 'inline-block';
    return display === 'inline' || display.startsWith('ruby') || display === 'contents' ? '' : 'block';
  };

  const addText = (parent, text) => {
    budget -= text.length;
    const last = parent[parent.length - 1];
    if (parent.length > 1 && typeof last === 'string') {  // [0] is the tag
      parent[parent.length - 1] = last + text;
    } else {
      append(parent, text);
    }
  };

  // Adds the nodes rendered in place of el's children: its open shadow root's if it has one, a
  // slot's assigned nodes (or its fallback content). Siblings are walked with nextSibling: far
  // cheaper than iterating live NodeLists on pages of 100 000 nodes.
  const addChildren = (el, parent, depth, pre, textHidden) => {
    if (el.localName === 'slot') {
      const assigned = el.assignedNodes({flatten: true});
      if (assigned.length) {
        for (const child of assigned) {
          if (budget <= 0) return;
          addNode(child, parent, depth, pre, textHidden);
        }
        return;
      }
    }
    for (let child = (el.shadowRoot || el).firstChild; child; child = child.nextSibling) {
      if (budget <= 0) return;
      addNode(child, parent, depth, pre, textHidden);
    }
  };

  const addNode = (node, parent, depth, pre, textHidden) => {
    if (node.nodeType === 3) {  // Node.TEXT_NODE
      if (textHidden) return;
      // Whitespace runs are collapsed here only to make the value smaller; the converter
      // collapses again (it knows blocks from inlines). U+00A0 is not collapsible.
      const text = pre ? node.data : node.data.replace(/[ \t\n\r\f]+/g, ' ');
      if (text) addText(parent, text);
      return;
    }
    if (node.nodeType !== 1) return;  // comments, processing instructions
    const el = node;
    let tag = el.localName;
    if (SKIP.has(tag) || (el.getAttribute('aria-hidden') === 'true' && !el.querySelector(CONTENT))) {
      return;
    }
    if (opts.skip && opts.skip(el)) return;
    if (tag === 'slot') {
      addChildren(el, parent, depth, pre, textHidden);
      return;
    }
    let ownTextHidden = false;
    if (!isVisible(el, WITH_VISIBILITY)) {
      if (!isVisible(el)) {
        // No box: display:none, inside a closed <details>, content-visibility:hidden... except
        // display:contents, whose children are laid out in its place.
        if (getComputedStyle(el).display === 'contents') {
          addChildren(el, parent, depth, pre, textHidden);
        }
        return;
      }
      // visibility:hidden; a descendant may be visibility:visible. opts.revealed: a page hidden
      // whole until its scripts show it (main_content.js) is read as shown.
      ownTextHidden = !opts.revealed;
    }
    if (depth >= MAX_DEPTH) {
      const text = (el.innerText || el.textContent || '').replace(/[ \t\n\r\f]+/g, ' ');
      if (text.trim()) addText(parent, ' ' + text + ' ');
      return;
    }
    let display = '';
    if (!SEMANTIC.has(tag) || INLINE_SEMANTIC.has(tag)) {
      const style = getComputedStyle(el);
      display = displayKind(style.display);
      if (!SEMANTIC.has(tag)) {
        tag = display === 'block' ? 'div' : 'span';
        if (display === 'block') display = '';
      } else if (tag === 'code' && !pre && display === 'block' && style.whiteSpace.startsWith('pre')) {
        tag = 'pre';  // a <code> styled as a block of preformatted text is a code block
        display = '';
      }
    }
    const result = [tag];
    let attrs = attributesOf(el, tag);
    if (display) attrs = Object.assign(attrs || {}, {display});
    if (attrs) append(result, attrs);
    const childCount = result.length;
    addChildren(el, result, depth + 1, pre || PRE_TAGS.has(tag), ownTextHidden);
    // An empty link is kept too: where it leads (a card's overlay, an icon drawn by CSS).
    if (result.length === childCount && !KEEP_EMPTY.has(tag) && !(tag === 'a' && attrs && attrs.href)) {
      // An empty block box still ends the line of text before it ("a<div></div>b" shows a and b
      // on two lines): sent bare, as a break, when text precedes it.
      const before = parent[parent.length - 1];
      if (tag !== 'div' || parent.length < 2 || typeof before !== 'string' || !before.trim()) {
        return;
      }
      append(parent, [tag]);
      return;
    }
    append(parent, result);
  };

  const tree = () => {
    if (opts.roots) {
      const body = ['body'];
      for (const root of opts.roots) addNode(root, body, 1, false, false);
      if (budget <= 0) append(truncated, 'tree');
      return body;
    }
    const root = document.body || document.documentElement;
    if (!root) return null;
    const holder = [];
    addNode(root, holder, 0, false, false);
    if (budget <= 0) append(truncated, 'tree');
    return holder.length ? holder[0] : null;
  };

  // ---- the other parts ----
  const html = () => {
    let s = '';
    if (document.doctype) s = new XMLSerializer().serializeToString(document.doctype) + '\n';
    return cap('html', s + (document.documentElement ? document.documentElement.outerHTML : ''));
  };

  const text = () => {
    const root = document.body || document.documentElement;
    if (!root) return '';
    const value = typeof root.innerText === 'string' ? root.innerText : root.textContent;
    return cap('text', value || '');
  };

  const links = () => {
    const result = [];
    let left = MAX_CHARS;
    for (const el of document.querySelectorAll('a[href], area[href]')) {
      const href = typeof el.href === 'string' ? el.href : absolute(el.getAttribute('href'));
      left -= href.length;
      if (left < 0) {
        append(truncated, 'links');
        break;
      }
      append(result, href);
    }
    return result;
  };

  const meta = () => {
    const root = document.documentElement;
    const result = {
      title: document.title || '',
      lang: root ? (root.getAttribute('lang') || root.getAttribute('xml:lang') || '') : '',
      canonical: '',
      metas: [],
      jsonLd: [],
    };
    for (const el of document.querySelectorAll('meta[content]')) {
      const key = el.getAttribute('name') || el.getAttribute('property') ||
          el.getAttribute('http-equiv') || el.getAttribute('itemprop');
      if (key) append(result.metas, [key, el.getAttribute('content')]);
    }
    const canonical = document.querySelector('link[rel~="canonical" i][href]');
    if (canonical) result.canonical = canonical.href;
    let left = MAX_CHARS;
    for (const el of document.querySelectorAll('script[type="application/ld+json" i]')) {
      const body = el.textContent || '';
      left -= body.length;
      if (left < 0) {
        append(truncated, 'meta');
        break;
      }
      append(result.jsonLd, body);
    }
    return result;
  };

  try {
    out.url = String(location.href);
    out.baseUrl = String(document.baseURI);
  } catch (e) {
    append(errors, 'url: ' + String((e && e.message) || e));
  }
  if (opts.html) attempt('html', html);
  if (opts.text) attempt('text', text);
  if (opts.tree) attempt('tree', tree);
  if (opts.links) attempt('links', links);
  if (opts.meta) attempt('meta', meta);
  if (truncated.length) out.truncated = truncated;
  if (errors.length) out.errors = errors;
  // As one JSON string the value crosses the protocol several times faster than as a deep object
  // (measured: ~0.5 s saved on a 2 MB page); parse_snapshot() takes either. The two big strings,
  // html and text, go beside that JSON text rather than inside it: escaped once by the protocol
  // instead of twice (measured: ~30 ms less per 1 MB page).
  try {
    if (!opts.asString) return out;
    const html = out.html === undefined ? null : out.html;
    const text = out.text === undefined ? null : out.text;
    delete out.html;
    delete out.text;
    return [JSON.stringify(out), html, text];
  } catch (e) {
    return {url: out.url, baseUrl: out.baseUrl, errors: ['output: ' + String((e && e.message) || e)]};
  }
}
