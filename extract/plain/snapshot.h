#pragma once
// snapshot.js's output (extract/content/snapshot.h) made in C++ from fetched HTML, for the
// jsRendering: false road: the same parts in the same shape, so every converter of
// extract/content/ serves both roads. What needs layout is approximated from the markup: an element
// is hidden by the `hidden` attribute, an inline style with display:none or visibility:hidden,
// aria-hidden="true" (unless it holds content, as snapshot.js decides), or a closed <details>;
// generic elements are "div" for <div> and "span" otherwise (no CSS is applied).
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "extract/content/snapshot.h"
#include "extract/html/document.h"

namespace gleaner::plain {

/// Which subtrees the tree (and so markdown and text) is made of: `roots` when `use_roots` (none:
/// an empty tree), else all of the body; without the elements `skip` says.
struct TreeFilter {
  bool use_roots = false;
  std::vector<xmlNodePtr> roots;
  std::function<bool(xmlNodePtr)> skip;
  /// removeBase64Images: false keeps data: images' URLs in the tree.
  bool keep_data_images = false;
};

/// {url, baseUrl, html?, tree?, links?, meta?} of `doc` fetched from `url`; `html` is `source`
/// (the decoded page as the server sent it). `text` is not made here: it comes from the tree
/// (content::tree_text) on this road.
nlohmann::json snapshot_of(const html::Document& doc, const std::string& source,
                           const std::string& url, const content::SnapshotParts& parts,
                           const TreeFilter& filter);

/// Tags whose content a person never sees as text (script, style, head, form controls...): the
/// SKIP list of snapshot.js.
bool never_shown(std::string_view tag);

/// `ref` resolved against `base` as a browser resolves an href ("" when it cannot be).
std::string resolve_url(const std::string& base, const std::string& ref);

}  // namespace gleaner::plain
