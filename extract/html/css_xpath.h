#pragma once
// CSS selectors compiled to XPath 1.0 (what cssselect does for lxml), so one evaluator, libxml2's,
// answers extractRules whether the selector is CSS or XPath, over the rendered DOM or fetched HTML.
//
// Supported: type and `*`, `#id`, `.class`, attribute selectors (`[a]`, `=`, `~=`, `|=`, `^=`, `$=`,
// `*=`, with the ` i` flag), the four combinators, selector lists, and the pseudo-classes that
// depend on the tree alone: :first-child, :last-child, :only-child, :nth-child(), :nth-last-child(),
// :first-of-type, :last-of-type, :only-of-type, :nth-of-type(), :nth-last-of-type() (these four
// with an element name), :not(), :is(), :where(), :has(), :empty, :root, :checked, :disabled,
// :enabled, :link, :any-link, and :contains("text") / :-soup-contains("text"). State pseudo-classes
// (:hover, :focus, :visited) and pseudo-elements mean nothing outside a live page and are refused.
#include <string>
#include <string_view>

namespace gleaner::html {

/// An XPath expression selecting, from a context node, the descendants matched by `css` in
/// document order. On a malformed or unsupported selector returns "" and sets `error` (what and
/// where).
std::string css_to_xpath(std::string_view css, std::string* error);

/// An XPath string literal for `text` ('..', "..", or concat() when it holds both quotes).
std::string xpath_literal(std::string_view text);

/// Whether a selector is XPath rather than CSS: it starts with `/` or `(` (conventions.md), or
/// with `./` for a path relative to a nested rule's element.
bool is_xpath(std::string_view selector);

}  // namespace gleaner::html
