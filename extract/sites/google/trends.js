// Reads Google Trends as its explore page does: the page loaded is the explore call
// (`/trends/api/explore?hl=&tz=&req=`), whose answer lists the widgets with their request and
// token; the script then asks for the one widget's data the way the page asks for it
// (`/trends/api/widgetdata/<kind>?hl=&tz=&req=<widget request>&token=<token>`), from the same
// origin, and returns both answers' data as the site wrote them. Both answers start with Google's
// `)]}'` guard (kit.prefixedJson).
async (args, kit) => {
  // A JSON document is shown as its text in a <pre> (the browser's own viewer may add controls).
  const SEL = { text: 'body > pre', body: 'body' };
  // dataType → the widget of the explore answer and the path of its data.
  const WIDGETS = {
    timeseries: { id: /^TIMESERIES$/, path: 'multiline' },
    geoMap: { id: /^GEO_MAP(_0)?$/, path: 'comparedgeo' },
    relatedTopics: { id: /^RELATED_TOPICS(_0)?$/, path: 'relatedsearches' },
    relatedQueries: { id: /^RELATED_QUERIES(_0)?$/, path: 'relatedsearches' },
  };
  const holder = document.querySelector(SEL.text) || document.querySelector(SEL.body);
  const explore = kit.prefixedJson((holder && holder.textContent) || '');
  if (!explore || !Array.isArray(explore.widgets)) return { explore: null };
  const wanted = WIDGETS[args.dataType] || WIDGETS.timeseries;
  const widget = explore.widgets.find((w) => w && typeof w.id === 'string' && wanted.id.test(w.id));
  const out = { explore: { widgets: explore.widgets.map((w) => w.id) }, widget: null, data: null };
  if (!widget) return out;
  const request = Object.assign({}, widget.request);
  if (args.resolution) request.resolution = args.resolution;
  const url = '/trends/api/widgetdata/' + wanted.path + '?hl=' + encodeURIComponent(args.hl) +
    '&tz=' + encodeURIComponent(args.tz) + '&req=' + encodeURIComponent(JSON.stringify(request)) +
    '&token=' + encodeURIComponent(widget.token || '');
  out.widget = { id: widget.id, url: new URL(url, location.href).href };
  const response = await fetch(url, { credentials: 'include' });
  out.status = response.status;
  const data = kit.prefixedJson(await response.text());
  out.data = data && data.default ? data.default : null;
  return out;
}
