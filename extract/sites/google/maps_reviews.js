// Reads a place's reviews as its reviews pane asks for them (GET /scrape/google-maps/reviews,
// maps_reviews.cpp). It runs on the place's page, which the place reader (maps_place.js, handed in
// as `readPlace`: maps_reviews.cpp composes the two) reads first; then it asks the site's reviews
// RPC, `/maps/rpc/listugcposts`, from the page's own origin with its cookies, as the pane does,
// and returns the answer's next page token and list of entries as the site wrote them
// (extract/sites/google/maps/reviews.cpp reads each entry). `args.pb` is the request's `pb`
// with `{dataId}` and `{session}` to fill in: the place's feature id ("data id", asked for or
// read from the page's own link) and a new session id.
async (args, kit, readPlace) => {
  const FEATURE_ID = /!1s(0x[0-9a-fA-F]+:0x[0-9a-fA-F]+)/;  // in a place link's data segment
  // Where an answer that is not the data went: Google's captcha, its consent interstitial.
  const WALL = /\/sorry\/|consent\.google\./;
  const decoded = (s) => {
    try { return decodeURIComponent(s); } catch (e) { return s; }
  };
  const place = readPlace();
  let dataId = args.dataId || '';
  for (const link of [place.selfLink, place.url, location.href]) {
    if (dataId) break;
    const m = FEATURE_ID.exec(link || '') || FEATURE_ID.exec(decoded(link || ''));
    if (m) dataId = m[1];
  }
  const out = {place, dataId, status: null, blocked: false, answer: false, nextPageToken: null,
               entries: null};
  if (!dataId) return out;
  // The session id of the request (`!5m2!1s…`): 21 URL-safe base64 characters, new each time.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const session = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '').slice(0, 21);
  const pb = args.pb.replace('{dataId}', encodeURIComponent(dataId)).replace('{session}', session);
  const response = await fetch(args.rpc + pb, {credentials: 'include'});
  out.status = response.status;
  out.blocked = WALL.test(response.url);
  const answer = out.blocked ? null : kit.prefixedJson(await response.text());
  if (!Array.isArray(answer)) return out;
  out.answer = true;
  out.nextPageToken = typeof answer[1] === 'string' ? answer[1] : null;
  out.entries = Array.isArray(answer[2]) ? answer[2] : [];
  return out;
}
