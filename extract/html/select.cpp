#include "extract/html/select.h"

#include <stdexcept>

#include "extract/html/css_xpath.h"

namespace gleaner::html {

Selector::Selector(std::string_view css) {
  std::string why;
  xpath_ = css_to_xpath(css, &why);
  if (xpath_.empty()) {
    throw std::logic_error("selector '" + std::string(css) + "' does not compile: " + why);
  }
}

std::vector<xmlNodePtr> Selector::all(const Document& doc, xmlNodePtr context) const {
  return evaluate_xpath(doc, context, xpath_, nullptr).nodes;
}

xmlNodePtr Selector::first(const Document& doc, xmlNodePtr context) const {
  // The first in document order of an XPath node-set is its first node.
  const std::vector<xmlNodePtr> nodes = all(doc, context);
  return nodes.empty() ? nullptr : nodes.front();
}

bool contains(xmlNodePtr ancestor, xmlNodePtr node) {
  for (; node; node = node->parent) {
    if (node == ancestor) return true;
  }
  return false;
}

}  // namespace gleaner::html
