#pragma once
// onlyMainContent, includeOnlyTags and excludeTags on the jsRendering: false road: the parts of
// the fetched page that `text` and `markdown` are made of, as a TreeFilter for snapshot_of().
//
// Without layout the main content is found from the markup alone, the way the browser road's
// main_content.js scores it (extract/content/main_content.js) less what only boxes tell: text
// blocks credit their ancestors with their length and commas; class/id names, semantic elements
// (<article>, <main>, role=main, itemprop=articleBody) and link density weigh the candidates; the
// best block is widened to a parent that holds little more, joined by siblings that score well,
// and the title heading above it; navigation, asides, forms, share/comment widgets and link lists
// inside it are left out.
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
