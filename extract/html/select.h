#pragma once
// Querying a parsed page by CSS from any of its nodes, for code that reads a page of its own
// (a site's reader over a document fetched without running its scripts): the selector compiled to
// XPath once (css_xpath.h), evaluated below the node as querySelectorAll() answers.
#include <string>
#include <string_view>
#include <vector>

#include "extract/html/document.h"

namespace gleaner::html {

/// A CSS selector compiled once. Its text is the code's own (a site's selectors written together
/// at the top of its reader), so a selector that does not compile is a programming error: the
/// constructor throws std::logic_error naming it.
class Selector {
 public:
  explicit Selector(std::string_view css);

  /// The descendants of `context` it matches, in document order (querySelectorAll); from the
  /// whole document when `context` is null.
  std::vector<xmlNodePtr> all(const Document& doc, xmlNodePtr context = nullptr) const;
  /// The first of them (querySelector), null when none.
  xmlNodePtr first(const Document& doc, xmlNodePtr context = nullptr) const;

 private:
  std::string xpath_;
};

/// Whether `node` is `ancestor` or lies inside it (Node.contains()).
bool contains(xmlNodePtr ancestor, xmlNodePtr node);

}  // namespace gleaner::html
