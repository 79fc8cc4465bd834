#pragma once
// onlyMainContent, includeOnlyTags and excludeTags on the jsRendering: false road: the parts of
// the fetched page that `text` and `markdown` are made of, as a TreeFilter for snapshot_of().
//
// The main content is found by the one algorithm of main_content.js (extract/content/), over the
// markup instead of the rendered page, so both roads give the same text where layout does not
// decide: text blocks credit their ancestors with their length and commas, text inside page
// furniture (navigation, landmarks, blocks named like comments, footers, menus) credits nobody;
// class/id names, semantic elements and link density weigh the candidates; a schema.org
// articleBody stated in JSON-LD points at the block that holds it; the best block is widened,
// joined by siblings that score well and by prose paragraphs beside it; captions, bylines, ad
// labels, comment and related blocks, navigation, asides, forms and link lists inside it are left
// out. What the browser road adds (visibility, boxes, fixed and off-page elements) needs layout.
#include <string>
#include <vector>

#include "extract/html/document.h"
#include "extract/plain/snapshot.h"

namespace gleaner::plain {

/// `include` and `exclude` are CSS selectors (checked by the request's parser); `main` asks for
/// the main content (ignored when `include` names elements). With a `budget`, the selectors draw
/// on it (html::XPathBudget): past it, a 400 naming includeOnlyTags or excludeTags.
TreeFilter content_filter(const html::Document& doc, const std::vector<std::string>& include,
                          const std::vector<std::string>& exclude, bool main,
                          html::XPathBudget* budget = nullptr);

/// Whether the markup hides an element: the `hidden` attribute, an inline display:none or
/// visibility:hidden, or aria-hidden="true" on an element without content (snapshot.js's rule).
bool hidden_in_markup(xmlNodePtr el);

}  // namespace gleaner::plain
