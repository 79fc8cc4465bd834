// The browser road's reading of a document (a JSON API answer, Endpoint::reads_document()): its
// text as Chromium shows it (in a <pre>; its JSON viewer may add controls beside it), with what
// the document turned out to be. The endpoint reads the text in C++ (Endpoint::read_document), as
// it reads what the plain road fetched.
(args, kit) => {
  const holder = document.querySelector('body > pre') || document.body;
  return {url: location.href, contentType: document.contentType, title: document.title,
          text: holder ? (holder.textContent || '') : ''};
}
