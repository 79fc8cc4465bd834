// The site kit's in-page half: readers for the forms sites embed their data in, and the few DOM
// helpers every site script needs. The framework evaluates this once per reading and hands the
// result to the site's script as its second argument: `(args, kit) => { ... }`. Everything here
// reads the DOM and script text only, so it works in the isolated world as in the page's own.
() => {
  const scriptTexts = (selector) =>
    Array.from(document.querySelectorAll(selector || 'script'), (s) => s.textContent || '');

  // HTML character references in strings sites embed in their JSON ("Chimi&apos;s",
  // "Island, &amp; transit", "Orl&eacute;ans"): decoded once, here, for every string every reader
  // below returns, so no site script or shaper decodes again. Numeric references and the named
  // ones sites write (Latin-1 and typography) are decoded; unknown names and references without
  // their ";" are left as written. A string that is itself markup or JSON text ("<p>A &amp; B</p>",
  // a JSON string nested in a JSON string) keeps its references: they belong to that text and are
  // decoded when it is read as what it is.
  const NAMED = (() => {
    const out = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"};
    const latin1 = ('nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg ' +
        'macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 ' +
        'frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml ' +
        'Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave ' +
        'Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil ' +
        'egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ' +
        'ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml').split(' ');
    latin1.forEach((name, i) => { out[name] = String.fromCharCode(160 + i); });
    const more = {OElig: 338, oelig: 339, Scaron: 352, scaron: 353, Yuml: 376, fnof: 402,
                  circ: 710, tilde: 732, ensp: 8194, emsp: 8195, thinsp: 8201, zwnj: 8204,
                  zwj: 8205, lrm: 8206, rlm: 8207, ndash: 8211, mdash: 8212, lsquo: 8216,
                  rsquo: 8217, sbquo: 8218, ldquo: 8220, rdquo: 8221, bdquo: 8222, dagger: 8224,
                  Dagger: 8225, bull: 8226, hellip: 8230, permil: 8240, prime: 8242, Prime: 8243,
                  lsaquo: 8249, rsaquo: 8250, euro: 8364, trade: 8482, larr: 8592, rarr: 8594};
    for (const k of Object.keys(more)) out[k] = String.fromCharCode(more[k]);
    return out;
  })();
  const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;
  const decodeEntities = (s) => {
    if (typeof s !== 'string' || s.indexOf('&') < 0) return s;
    return s.replace(REFERENCE, (whole, dec, hex, name) => {
      if (name !== undefined) return Object.prototype.hasOwnProperty.call(NAMED, name) ?
          NAMED[name] : whole;
      const cp = dec !== undefined ? parseInt(dec, 10) : parseInt(hex, 16);
      if (!(cp > 0 && cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff)) return whole;
      return String.fromCodePoint(cp);
    });
  };
  const MARKUP = /<[A-Za-z\/!]/;
  const JSON_TEXT = /^\s*(?:\{[\s\S]*\}|\[[\s\S]*\])\s*$/;
  const decodeText = (s) =>
      s.indexOf('&') < 0 || MARKUP.test(s) || JSON_TEXT.test(s) ? s : decodeEntities(s);
  // Every string of a parsed JSON value decoded as above (keys are left as they are), in place.
  const decodeStrings = (value) => {
    if (typeof value === 'string') return decodeText(value);
    if (!value || typeof value !== 'object') return value;
    const keys = Array.isArray(value) ? value.keys() : Object.keys(value);
    for (const k of keys) {
      const v = value[k];
      if (typeof v === 'string') {
        if (v.indexOf('&') >= 0) value[k] = decodeText(v);
      } else if (v && typeof v === 'object') {
        decodeStrings(v);
      }
    }
    return value;
  };
  // JSON text parsed, its strings decoded: the one JSON parser of site scripts. Null when the text
  // is not JSON.
  const parseJson = (text) => {
    if (typeof text !== 'string') return null;
    try { return decodeStrings(JSON.parse(text)); } catch (e) { return null; }
  };

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
        if (depth === 0) return parseJson(text.slice(start, i + 1));
      }
    }
    return null;
  };

  // JSON behind an anti-hijacking prefix: `{}&&{...}` (Redfin's stingray), `)]}'\n[...]`
  // (Google), `while(1);`, `for(;;);`. Strings that are not JSON give null.
  const prefixedJson = (text) => {
    if (typeof text !== 'string') return null;
    return parseJson(
        text.replace(/^\s*(?:\{\}&&|\)\]\}'[^\n]*\n?|while\s*\(1\);|for\s*\(;;\);)/, ''));
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
      // Some sites leave control characters in their JSON-LD strings.
      add(parseJson(text) || parseJson(text.replace(/[\u0000-\u001f]+/g, ' ')));
    }
    if (!wanted) return out;
    return out.filter((o) => [].concat(o['@type']).some((t) => wanted.includes(t)));
  };

  // `script#__NEXT_DATA__` parsed (Next.js pages), or null.
  const nextData = () => {
    const el = document.getElementById('__NEXT_DATA__');
    return el ? parseJson(el.textContent) : null;
  };

  // The React Server Components payload of a Next.js App Router page (no `__NEXT_DATA__`): the
  // strings its `self.__next_f.push([1, "..."])` scripts stream, joined and cut into rows
  // `<hex id>:<payload>`, a JSON value or a text (`T<hex byte length>,<text>`). Null when the page
  // has none. `row(id)`: a row's value; `objects(test)`: every object of the JSON rows (rows in
  // order, depth first) that `test` accepts, not looked into further; `resolve(value, depth)`:
  // the value with its references ("$<id>", "$@<id>", "$<id>:key:key") replaced by what they
  // name, to `depth` levels, and "$$..." read as the literal "$...".
  const nextFlight = () => {
    let text = '';
    for (const s of scriptTexts('script:not([src])')) {
      const at = s.indexOf('self.__next_f.push(');
      if (at < 0) continue;
      let chunk = null;
      try { chunk = JSON.parse(s.slice(at + 19, s.lastIndexOf(')'))); } catch (e) { continue; }
      if (Array.isArray(chunk) && chunk[0] === 1 && typeof chunk[1] === 'string') text += chunk[1];
    }
    if (!text) return null;
    const ROW = /^[0-9a-f]{1,8}:(?:T[0-9a-f]+,|[A-Z]{0,2}[\[{"])/;
    const startsRow = (p) => p >= text.length || ROW.test(text.slice(p, p + 24));
    const raw = new Map();
    for (let i = 0; i < text.length;) {
      const colon = text.indexOf(':', i);
      const nl = text.indexOf('\n', i);
      if (colon < 0) break;
      const id = text.slice(i, colon);
      if (!/^[0-9a-f]+$/.test(id) || (nl >= 0 && nl < colon)) {
        if (nl < 0) break;
        i = nl + 1;
        continue;
      }
      if (text[colon + 1] === 'T') {
        const comma = text.indexOf(',', colon);
        let bytes = parseInt(text.slice(colon + 2, comma), 16);
        let j = comma + 1;
        while (bytes > 0 && j < text.length) {
          const cp = text.codePointAt(j);
          bytes -= cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
          j += cp > 0xffff ? 2 : 1;
        }
        // A saved page's text can be a few characters off its stated length: the text then ends
        // where the nearest row starts (its whole id: "c7:", not "7:").
        if (!startsRow(j)) {
          for (let d = 1; d < 4096; d++) {
            if (j - d > comma && startsRow(j - d)) { j -= d; break; }
            if (startsRow(j + d)) { j += d; break; }
          }
          while (j - 1 > comma && /[0-9a-f]/.test(text[j - 1]) && startsRow(j - 1)) j--;
        }
        raw.set(id, {text: text.slice(comma + 1, j)});
        i = j;
      } else {
        const end = nl < 0 ? text.length : nl;
        raw.set(id, {json: text.slice(colon + 1, end)});
        i = end + 1;
      }
    }
    const parsed = new Map();
    const row = (id) => {
      const r = raw.get(id);
      if (!r) return undefined;
      if (r.text !== undefined) return r.text;
      if (!parsed.has(id)) parsed.set(id, /^[\[{"]/.test(r.json) ? parseJson(r.json) : null);
      return parsed.get(id);
    };
    const objects = (test) => {
      const out = [];
      const walk = (v) => {
        if (!v || typeof v !== 'object') return;
        if (!Array.isArray(v) && test(v)) { out.push(v); return; }
        for (const k of Object.keys(v)) walk(v[k]);
      };
      for (const id of raw.keys()) if (raw.get(id).json !== undefined) walk(row(id));
      return out;
    };
    const REF = /^\$@?([0-9a-f]+)((?::[^:]+)*)$/;
    const resolve = (value, depth) => {
      const limit = depth == null ? 12 : depth;
      const walk = (v, d) => {
        if (typeof v === 'string' && v[0] === '$') {
          if (v[1] === '$') return v.slice(1);
          const m = REF.exec(v);
          if (!m || d >= limit) return v;
          let target = row(m[1]);
          for (const key of m[2].split(':').slice(1)) {
            target = target == null ? undefined : target[key];
          }
          return target === undefined ? v : walk(target, d + 1);
        }
        if (Array.isArray(v)) return v.map((x) => walk(x, d));
        if (!v || typeof v !== 'object') return v;
        const out = {};
        for (const k of Object.keys(v)) out[k] = walk(v[k], d);
        return out;
      };
      return walk(value, 0);
    };
    return {row, objects, resolve};
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
  // A description's markup keeping nothing that runs or loads: no scripts, styles, frames, forms,
  // event handlers or javascript: links (only http(s) links keep their href).
  const safeHtml = (html) => {
    const t = document.createElement('template');
    t.innerHTML = html || '';
    const drop = 'script,style,iframe,object,embed,form,input,button,link,meta,noscript,svg';
    t.content.querySelectorAll(drop).forEach((n) => n.remove());
    t.content.querySelectorAll('*').forEach((n) => {
      for (const a of Array.from(n.attributes)) {
        const name = a.name.toLowerCase();
        const keep = (n.tagName === 'A' && name === 'href' && /^https?:/i.test(a.value)) ||
            name === 'colspan' || name === 'rowspan';
        if (!keep) n.removeAttribute(a.name);
      }
    });
    return t.innerHTML.trim();
  };
  // The text of a description's markup: blocks and list items on lines of their own.
  const htmlText = (html) => {
    const t = document.createElement('template');
    t.innerHTML = (html || '').replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/(p|div|li|h[1-6]|ul|ol|tr)>/gi, '$&\n').replace(/<li[^>]*>/gi, '$&• ');
    return (t.content.textContent || '').split('\n').map((l) => l.replace(/\s+/g, ' ').trim())
        .filter((l) => l).join('\n');
  };

  return {valueAt, prefixedJson, parseJson, decodeEntities, jsonLd, nextData, nextFlight,
          resolveRefs, apolloCache, windowObject, afInitData, meta, text, texts, attr, abs, lower,
          scriptTexts, safeHtml, htmlText};
}
