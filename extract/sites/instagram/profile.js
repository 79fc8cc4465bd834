// Reads an Instagram profile page as Instagram serves it to a visitor who is not logged in: the
// profile's meta tags (og:title "Full Name (@handle) • …", og:description "5,351 Followers, 3,408
// Following, 713 Posts - …", the description meta that adds the biography, og:image, og:url),
// the profile id the page logs (`"page_id":"profilePage_<id>"`), whether the page says the
// account is private, and the profile header of a page Instagram's scripts have drawn. The
// page's embedded account JSON is not read: on a logged-in page it is the viewer's own account,
// not the profile's.
(args, kit) => {
  const SEL = {
    privateNotice: 'h2, span',
    headerCounts: 'header section > ul > li',
    headerBiography: 'header section > div > span[dir="auto"] span[dir="auto"]',
    loginPassword: 'form#loginForm input[name="password"]',
  };
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
  // The header a rendered page draws from the profile's own data (the raw document has none): its
  // three counts in the site's order (posts, followers, following) whatever the language, the
  // followers' exact count in the title of their number (the number shown may be rounded,
  // "1.1M"), and the biography under the name.
  let header = null;
  const stats = document.querySelectorAll(SEL.headerCounts);
  if (stats.length === 3) {
    const numberIn = (li) => {
      const titled = li.querySelector('span[title]');
      const shown = li.querySelector('span');
      return (titled && titled.getAttribute('title')) || (shown ? kit.text(shown) : '');
    };
    const bio = document.querySelector(SEL.headerBiography);
    header = {
      posts: numberIn(stats[0]),
      followers: numberIn(stats[1]),
      following: numberIn(stats[2]),
      biography: bio ? bio.innerText.trim() : null,
    };
  }
  return {
    path: location.pathname,
    header,
    ogType: m['og:type'] || null,
    ogTitle: m['og:title'] || null,
    ogDescription: m['og:description'] || null,
    description: m['description'] || null,
    ogImage: m['og:image'] || null,
    ogUrl: m['og:url'] || null,
    iosUrl: m['al:ios:url'] || null,
    profileId,
    privateNotice,
    // Instagram's login form, which it serves in place of the content to a visitor it will not
    // show it to (without sending them to /accounts/login).
    loginForm: document.querySelector(SEL.loginPassword) !== null,
  };
}
