// Reads an Instagram profile page as Instagram serves it to a visitor who is not logged in: the
// profile's meta tags (og:title "Full Name (@handle) • …", og:description "5,351 Followers, 3,408
// Following, 713 Posts - …", the description meta that adds the biography, og:image, og:url),
// the profile id the page logs (`"page_id":"profilePage_<id>"`), and whether the page says the
// account is private. The page's embedded account JSON is not read: on a logged-in page it is
// the viewer's own account, not the profile's.
(args, kit) => {
  const SEL = {privateNotice: 'h2, span'};
  const m = kit.meta();
  let profileId = null;
  for (const text of kit.scriptTexts('script:not([src])')) {
    const found = /"page_id"\s*:\s*"profilePage_(\d+)"/.exec(text) ||
        /"profile_id"\s*:\s*"(\d+)"/.exec(text);
    if (found) { profileId = found[1]; break; }
  }
  let privateNotice = false;
  for (const n of document.querySelectorAll(SEL.privateNotice)) {
    if (n.children.length === 0 && /^This account is private$/i.test(kit.text(n))) {
      privateNotice = true;
      break;
    }
  }
  return {
    path: location.pathname,
    ogType: m['og:type'] || null,
    ogTitle: m['og:title'] || null,
    ogDescription: m['og:description'] || null,
    description: m['description'] || null,
    ogImage: m['og:image'] || null,
    ogUrl: m['og:url'] || null,
    iosUrl: m['al:ios:url'] || null,
    profileId,
    privateNotice,
  };
}
