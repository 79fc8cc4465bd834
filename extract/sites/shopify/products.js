// Reads a store's /products.json (or a collection's) as Chromium shows a JSON answer (its text
// as the document's body), and says what the document was when it is not JSON (a store's HTML
// page, a password page).
(args, kit) => {
  const raw = document.body ? (document.body.innerText || document.body.textContent || '') : '';
  const json = kit.parseJson(raw);
  return {url: location.href, contentType: document.contentType, title: document.title,
          products: json && Array.isArray(json.products) ? json.products : null};
}
