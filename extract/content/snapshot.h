#pragma once
// The in-page snapshot behind POST /scrape/web's outputs. snapshot.js is one function expression
// (the convention of extract/endpoint.h): evaluate it in the rendered page with snapshot_args()
// and hand its output's parts to the converters of this folder:
//   tree  → to_markdown()        (markdown.h)
//   links → extract_links()      (links.h)
//   text, links → extract_emails() (emails.h)
//   meta  → page_metadata()      (metadata.h)
// `html` and `text` are returned to the client as they are. See docs/content.md.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string_view>

namespace gleaner::content {

/// Which parts the snapshot returns; ask only for what the request needs.
struct SnapshotParts {
  bool html = false;   ///< doctype + document.documentElement.outerHTML
  bool text = false;   ///< document.body.innerText
  bool tree = false;   ///< the visible DOM for to_markdown()
  bool links = false;  ///< every a[href]/area[href], resolved by the browser
  bool meta = false;   ///< title, lang, canonical, meta tags, JSON-LD texts
  /// Each part is cut at this many characters (and named in the output's `truncated`).
  std::size_t max_chars = 20'000'000;
  /// Return the output as one JSON string: several times faster through the protocol than a deep
  /// object on big pages. parse_snapshot() reads either form.
  bool as_string = true;
};

/// The script: `(opts) => {...}` returning {url, baseUrl, html?, text?, tree?, links?, meta?,
/// truncated?, errors?} (with asString: [that object without html and text as JSON text, html,
/// text]). It never throws; a part that fails is
/// named in `errors` and the others still come.
std::string_view snapshot_script();

/// main_content.js: `(filter) => {roots, skip}` for the tree options of snapshot_script(), from
/// {include: [css], exclude: [css], main: bool} (onlyMainContent, includeOnlyTags, excludeTags).
std::string_view main_content_script();

/// The argument to call snapshot_script() with.
nlohmann::json snapshot_args(const SnapshotParts& parts);

/// The snapshot object from what the script returned (the object, its JSON text, or
/// [JSON text without html and text, html or null, text or null]).
/// Throws gleaner::Error(Internal) when it is neither: the page tampered with the script's
/// globals or the evaluation went wrong.
nlohmann::json parse_snapshot(nlohmann::json returned);

}  // namespace gleaner::content
