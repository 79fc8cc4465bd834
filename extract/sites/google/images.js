// Reads a Google Images results page from the data the page draws its tiles from, in which each
// image is an entry [1, [0, id, [thumbnail, height, width], [original, height, width], ...,
// {"2003": [null, id, page link, title, ..., domain at 17]}]]. Pages up to 2022 keep the entries
// in the `AF_initDataCallback` blob `ds:1` (kit.afInitData); pages after the redesign (2026) in
// an inline `var m = {...}` map keyed by element ids. The entries are found by that shape
// wherever the page nests them, each once, in the page's order. Nothing depends on a class name.
(args, kit) => {
  const SEL = { tile: '[data-tbnid], [data-id][data-ri]' };
  const blobs = kit.afInitData();
  const images = [];
  const seen = new Set();
  const isImage = (v) => Array.isArray(v) && v[0] === 1 && Array.isArray(v[1]) &&
    Array.isArray(v[1][3]) && typeof v[1][3][0] === 'string' && Array.isArray(v[1][2]);
  const walk = (v, depth) => {
    if (!Array.isArray(v) || depth > 12) return;
    if (isImage(v)) {
      const e = v[1];
      const info = e.find((x) => x && typeof x === 'object' && !Array.isArray(x) && x['2003']);
      const page = info ? info['2003'] : [];
      if (seen.has(e[1])) return;
      seen.add(e[1]);
      images.push({
        id: typeof e[1] === 'string' ? e[1] : '',
        thumbnail: e[2][0] || '', thumbnailHeight: e[2][1], thumbnailWidth: e[2][2],
        original: e[3][0] || '', originalHeight: e[3][1], originalWidth: e[3][2],
        link: typeof page[2] === 'string' ? page[2] : '',
        title: typeof page[3] === 'string' ? page[3] : '',
        source: typeof page[17] === 'string' ? page[17] : '',
      });
      return;
    }
    for (const x of v) walk(x, depth + 1);
  };
  for (const key of Object.keys(blobs)) walk(blobs[key], 0);
  const entryStart = '[1,[0,"';
  for (const text of kit.scriptTexts('script:not([src])')) {
    for (let at = text.indexOf(entryStart); at >= 0; at = text.indexOf(entryStart, at + 1)) {
      walk(kit.valueAt(text, at), 0);
    }
  }
  return {
    url: location.href,
    images,
    tiles: document.querySelectorAll(SEL.tile).length,
  };
}
