// The browser road's reading of a document (Endpoint::reads_document()): a JSON API answer's text
// as Chromium shows it (in a <pre>; its JSON viewer may add controls beside it), an HTML page's
// markup (its DOM's outerHTML), with what the document turned out to be. The endpoint reads the
// text in C++ (Endpoint::read_document), as it reads what the plain road fetched.
(args, kit) => {
  const type = document.contentType;
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    return {url: location.href, contentType: type, title: document.title,
            text: document.documentElement ? document.documentElement.outerHTML : ''};
  }
  const holder = document.querySelector('body > pre') || document.body;
  return {url: location.href, contentType: type, title: document.title,
          text: holder ? (holder.textContent || '') : ''};
}
