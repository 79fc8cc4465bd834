// Reads a news RSS 2.0 feed (search, topic, section, story, publication or top headlines: all the
// same shape) as Chromium shows it. Chromium's XML viewer keeps the feed's own elements in the
// document, so lookups by tag name work whether or not the viewer wrapped them. Returns the feed
// as plain JSON; news.cpp shapes it (publisher suffix, ISO dates, positions).
() => {
  // Direct children only: <image> has its own <title> and <link>.
  const child = (el, tag) => {
    for (const c of el.children) if (c.localName === tag) return c;
    return null;
  };
  const text = (el, tag) => {
    const c = child(el, tag);
    return c ? c.textContent.trim() : null;
  };
  // An item's description is escaped HTML. For a story cluster it is an <ol> of
  // <li><a href>headline</a>&nbsp;&nbsp;<font>publisher</font></li>, the item's own article first.
  const cluster = (html) => {
    if (!html || html.indexOf('<li') < 0) return [];
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const out = [];
    for (const li of doc.querySelectorAll('li')) {
      const a = li.querySelector('a[href]');
      if (!a) continue;
      const font = li.querySelector('font');
      out.push({title: a.textContent.trim(), link: a.getAttribute('href'),
                source: font ? font.textContent.trim() : null});
    }
    return out;
  };

  const rss = document.getElementsByTagName('rss')[0];
  const channel = rss ? document.getElementsByTagName('channel')[0] : null;
  if (!channel) return {isFeed: false};
  const items = [];
  for (const item of channel.children) {
    if (item.localName !== 'item') continue;
    const source = child(item, 'source');
    items.push({
      title: text(item, 'title'),
      link: text(item, 'link'),
      pubDate: text(item, 'pubDate'),
      source: source ? source.textContent.trim() : null,
      sourceUrl: source ? source.getAttribute('url') : null,
      cluster: cluster(text(item, 'description')),
    });
  }
  return {isFeed: true, title: text(channel, 'title'), link: text(channel, 'link'),
          language: text(channel, 'language'), items};
}
