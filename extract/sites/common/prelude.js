// The site kit's in-page half: readers for the forms sites embed their data in, and the few DOM
// helpers every site script needs. The framework evaluates this once per reading and hands the
// result to the site's script as its second argument: `(args, kit) => { ... }`. Everything here
// reads the DOM and script text only, so it works in the isolated world as in the page's own.
() => {
  const scriptTexts = (selector) =>
    Array.from(document.querySelectorAll(selector || 'script'), (s) => s.textContent || '');

  // The JSON value (object or array) that starts at `start` in `text`, or null: strings and
  // escapes are skipped, so braces inside strings do not count.
  const valueAt = (text, start) => {
    const open = text[start];
    if (open !== '{' && open !== '[') return null;
    let depth = 0, inString = false, quote = '';
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === quote) inString = false;
      } else if (c === '"') {
        inString = true; quote = c;
      } else if (c === '{' || c === '[') {
        depth++;
      } else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          try { return JSON.parse(text.slice(start, i + 1)); } catch (e) { return null; }
        }
      }
    }
    return null;
  };

  // JSON behind an anti-hijacking prefix: `{}&&{...}` (Redfin's stingray), `)]}'\n[...]`
  // (Google), `while(1);`, `for(;;);`. Strings that are not JSON give null.
  const prefixedJson = (text) => {
    if (typeof text !== 'string') return null;
    const body = text.replace(/^\s*(?:\{\}&&|\)\]\}'[^\n]*\n?|while\s*\(1\);|for\s*\(;;\);)/, '');
    try { return JSON.parse(body); } catch (e) { return null; }
  };

  // Every JSON-LD object of the page, `@graph` and top-level arrays flattened, in document order.
  // With `types` (a string or a list), only objects whose @type is (or includes) one of them.
  const jsonLd = (types) => {
    const wanted = types == null ? null : [].concat(types);
    const out = [];
    const add = (node) => {
      if (Array.isArray(node)) { node.forEach(add); return; }
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node['@graph'])) node['@graph'].forEach(add);
      if (node['@type'] !== undefined) out.push(node);
    };
    for (const text of scriptTexts('script[type="application/ld+json"]')) {
      let parsed = null;
      try { parsed = JSON.parse(text); } catch (e) {
        // Some sites leave control characters in their JSON-LD strings.
        try { parsed = JSON.parse(text.replace(/[\u0000-\u001f]+/g, ' ')); } catch (e2) {}
      }
      add(parsed);
    }
    if (!wanted) return out;
    return out.filter((o) => [].concat(o['@type']).some((t) => wanted.includes(t)));
  };

  // `script#__NEXT_DATA__` parsed (Next.js pages), or null.
  const nextData = () => {
    const el = document.getElementById('__NEXT_DATA__');
    if (!el) return null;
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  };

  // A value with every `{__ref: key}` of an Apollo cache replaced by the cache's entry, to
  // `depth` levels (cycles stop there).
  const resolveRefs = (cache, value, depth) => {
    const limit = depth == null ? 12 : depth;
    const walk = (v, d) => {
      if (Array.isArray(v)) return v.map((x) => walk(x, d));
      if (!v || typeof v !== 'object') return v;
      if (typeof v.__ref === 'string' && Object.keys(v).length === 1) {
        const target = cache ? cache[v.__ref] : undefined;
        return target === undefined || d >= limit ? v : walk(target, d + 1);
      }
      const out = {};
      for (const k of Object.keys(v)) out[k] = walk(v[k], d);
      return out;
    };
    return walk(value, 0);
  };

  // The Apollo cache a Next.js page carries (`apolloCache`, `apolloState`, `__APOLLO_STATE__`).
  const apolloCache = (data) => {
    const root = data || nextData();
    if (!root) return null;
    const props = (root.props && root.props.pageProps) || root.props || root;
    return props.apolloCache || props.apolloState || root.apolloState ||
        (props.__APOLLO_STATE__) || null;
  };

  // The object or array assigned to NAME in an inline script, whatever the assignment's form:
  // `window.NAME = {...}`, `var NAME = [...]`, `window["NAME"] = {...}`, or a dotted NAME such as
  // "__reactServerState.InitialContext" in `root.__reactServerState.InitialContext = {...}`.
  // Parsed from the script text: the page's variables are not visible in the isolated world.
  const windowObject = (name) => {
    const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const marker = new RegExp('(?:^|[^\\w$])' + esc + '(?:["\']\\])?\\s*=\\s*(?=[\\[{])');
    for (const text of scriptTexts('script:not([src])')) {
      const m = marker.exec(text);
      if (m) {
        const v = valueAt(text, m.index + m[0].length);
        if (v !== null) return v;
      }
    }
    return null;
  };

  // Google's `AF_initDataCallback({key: 'ds:1', ..., data: [...]})` blobs: key → data.
  const afInitData = () => {
    const out = {};
    for (const text of scriptTexts('script:not([src])')) {
      let at = 0;
      while ((at = text.indexOf('AF_initDataCallback(', at)) >= 0) {
        at += 20;
        const key = /key:\s*'([^']+)'/.exec(text.slice(at, at + 200));
        const dataAt = text.indexOf('data:', at);
        if (!key || dataAt < 0) continue;
        let start = dataAt + 5;
        while (text[start] === ' ') start++;
        const v = valueAt(text, start);
        if (v !== null) out[key[1]] = v;
      }
    }
    return out;
  };

  // `<meta>` tags by name or property (OpenGraph, Twitter, description...): name → content.
  const meta = () => {
    const out = {};
    for (const m of document.querySelectorAll('meta[content]')) {
      const key = m.getAttribute('property') || m.getAttribute('name') || m.getAttribute('itemprop');
      if (key && out[key] === undefined) out[key] = m.getAttribute('content');
    }
    const canonical = document.querySelector('link[rel="canonical"]');
    if (canonical) out.canonical = canonical.href;
    return out;
  };

  // Visible text of an element (or of the first match of a selector), white space collapsed;
  // '' when absent.
  const text = (el, scope) => {
    const node = typeof el === 'string' ? (scope || document).querySelector(el) : el;
    if (!node) return '';
    return (node.innerText || node.textContent || '').replace(/\s+/g, ' ').trim();
  };
  // The texts of every match of `selector` (empty ones left out).
  const texts = (selector, scope) =>
    Array.from((scope || document).querySelectorAll(selector), (n) => text(n)).filter((t) => t);
  const attr = (selector, name, scope) => {
    const node = (scope || document).querySelector(selector);
    return node ? node.getAttribute(name) : null;
  };
  // An absolute URL for `href` against the page (or `base`), or null.
  const abs = (href, base) => {
    if (!href) return null;
    try { return new URL(href, base || document.baseURI).href; } catch (e) { return null; }
  };
  const lower = (s) => (s == null ? '' : String(s).toLowerCase());

  return {valueAt, prefixedJson, jsonLd, nextData, resolveRefs, apolloCache, windowObject,
          afInitData, meta, text, texts, attr, abs, lower, scriptTexts};
}
