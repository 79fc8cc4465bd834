// Reads a YouTube watch page: the player response (videoDetails, microformat, playability) and the
// watch-next data (primary and secondary info, related videos, chapter panels). Both are set by
// inline scripts as `var ytInitialPlayerResponse = {...};` and `var ytInitialData = {...};`; when
// the globals are gone (the site's own scripts may consume them) the script text is parsed
// instead. Only the subtrees video.cpp reads are returned, unchanged, so the shaping is the same
// for this page and for the site's youtubei /player and /next responses. `hl` is the language the
// page is written in (the site's config, else the document's lang), which its abbreviated counts
// ("1,2 Mio.", "34,2 N", "3.4万") are read in.
// The layout served before 2020 (#watch7-content) has no ytInitialData and keeps the player
// response as a JSON string in ytplayer.config.args.player_response; what the page shows beside
// it (counter, date, like button, owner, sidebar) is server-rendered markup, returned as `legacy`
// in plain fields.
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

  const fromPlayerConfig = () => {
    let config = window.ytplayer && window.ytplayer.config;
    if (!config || typeof config !== 'object') {
      config = null;
      for (const s of document.scripts) {
        const text = s.textContent || '';
        const m = /ytplayer\.config\s*=\s*\{/.exec(text);
        if (m) {
          config = objectAt(text, m.index + m[0].length - 1);
          break;
        }
      }
    }
    const response = config && config.args && config.args.player_response;
    if (typeof response !== 'string') return null;
    try { return JSON.parse(response); } catch (e) { return null; }
  };
  const legacy = () => {
    if (!document.querySelector('#watch7-content')) return null;
    const q = (sel, root) => (root || document).querySelector(sel);
    const txt = (el) => (el ? el.textContent.replace(/\s+/g, ' ').trim() : '');
    const like = q('.like-button-renderer-like-button-unclicked');
    const owner = q('.yt-user-info a');
    const subscribers = q('#watch7-subscription-container .yt-subscriber-count');
    const related = [];
    for (const li of document.querySelectorAll('li.related-list-item')) {
      const a = q('a.content-link', li);
      if (!a) continue;
      const img = q('.thumb-wrapper img', li);
      related.push({
        href: a.getAttribute('href') || '',
        title: a.getAttribute('title') || txt(q('.title', li)),
        channel: txt(q('.stat.attribution', li)),
        views: txt(q('.stat.view-count', li)),
        length: txt(q('.video-time', li)),
        thumbnail: img ? img.getAttribute('data-thumb') || '' : '',
      });
    }
    // The schema.org microdata of the video; an upcoming stream's player response has no details.
    const microdata = {};
    for (const meta of document.querySelectorAll('#watch7-content > meta[itemprop]')) {
      const key = meta.getAttribute('itemprop');
      if (['videoId', 'channelId', 'datePublished', 'uploadDate', 'genre'].includes(key)) {
        microdata[key] = meta.getAttribute('content') || '';
      }
    }
    const description = q('#eow-description');
    return {
      microdata,
      title: (q('#eow-title') && q('#eow-title').getAttribute('title')) || txt(q('#eow-title')),
      description: description ? description.innerText.trim() : '',
      views: txt(q('.watch-view-count')),
      date: txt(q('.watch-time-text')),
      likes: txt(like),
      likesLabel: like ? like.getAttribute('aria-label') || '' : '',
      owner: owner ? {
        name: txt(owner),
        href: owner.getAttribute('href') || '',
        verified: !!q('.yt-user-info .yt-channel-title-icon-verified'),
      } : null,
      subscribers: subscribers ? subscribers.getAttribute('title') || txt(subscribers) : '',
      related,
    };
  };

  const player = read(NAMES.player) || fromPlayerConfig();
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
  const out = {
    hl,
    player: pick(player, ['playabilityStatus', 'videoDetails', 'microformat']),
    next: pick(next, ['contents', 'engagementPanels', 'frameworkUpdates']),
  };
  const old = next ? null : legacy();
  if (old) out.legacy = old;
  // That layout's notice for a video it cannot show, shown in place of the player (hidden, with
  // class "hid", on every other page of it).
  const notice = document.querySelector('#player-unavailable:not(.hid) #unavailable-message');
  if (!player && notice) out.unavailable = notice.textContent.replace(/\s+/g, ' ').trim();
  return out;
}
