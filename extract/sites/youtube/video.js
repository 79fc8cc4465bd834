// Reads a YouTube watch page: the player response (videoDetails, microformat, playability) and the
// watch-next data (primary and secondary info, related videos, chapter panels). Both are set by
// inline scripts as `var ytInitialPlayerResponse = {...};` and `var ytInitialData = {...};`; when
// the globals are gone (the site's own scripts may consume them) the script text is parsed
// instead. Only the subtrees video.cpp reads are returned, unchanged, so the shaping is the same
// for this page and for the site's youtubei /player and /next responses. `hl` is the language the
// page is written in (the site's config, else the document's lang), which its abbreviated counts
// ("1,2 Mio.", "34,2 N", "3.4万") are read in.
() => {
  const NAMES = {player: 'ytInitialPlayerResponse', next: 'ytInitialData'};

  // The JSON object literal that starts at `start` in `text`, or null.
  const objectAt = (text, start) => {
    let depth = 0, inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') {
        inString = true;
      } else if (c === '{') {
        depth++;
      } else if (c === '}') {
        depth--;
        if (depth === 0) {
          try { return JSON.parse(text.slice(start, i + 1)); } catch (e) { return null; }
        }
      }
    }
    return null;
  };
  const fromScripts = (name) => {
    const marker = new RegExp('(?:var\\s+|window\\[["\']|window\\.)' + name + '(?:["\']\\])?\\s*=\\s*\\{');
    for (const s of document.scripts) {
      const text = s.textContent || '';
      const m = marker.exec(text);
      if (m) return objectAt(text, m.index + m[0].length - 1);
    }
    return null;
  };
  const read = (name) => {
    const v = window[name];
    return v && typeof v === 'object' ? v : fromScripts(name);
  };
  const pick = (obj, keys) => {
    if (!obj) return null;
    const out = {};
    for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
    return out;
  };

  const player = read(NAMES.player);
  const next = read(NAMES.next);
  const configured = (key) => {
    try {
      const config = window.ytcfg;
      return config && typeof config.get === 'function' ? config.get(key) : null;
    } catch (e) {
      return null;
    }
  };
  const hl = configured('HL') || configured('INNERTUBE_CONTEXT_HL') ||
      document.documentElement.lang || '';
  return {
    hl,
    player: pick(player, ['playabilityStatus', 'videoDetails', 'microformat']),
    next: pick(next, ['contents', 'engagementPanels', 'frameworkUpdates']),
  };
}
