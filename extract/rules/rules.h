#pragma once
// extractRules of POST /scrape/web (conventions.md "Interactions, rules, no browser, main
// content"): field name → rule, answered in `extractedData`. One implementation over a parsed
// html::Document serves both roads: the browser road hands it the rendered DOM's outerHTML, the
// plain road the fetched HTML, so the same rules give the same answers by construction.
//
// A rule is a string ("h1": the text of the first match; "a.next @href": that attribute as
// written) or an object {selector, type: "item"|"list", output, clean}; output is "text", "html"
// (outerHTML), "@<attr>", "table_json", "table_array", or an object of nested rules evaluated
// inside each match. Selectors are CSS (compiled to XPath, extract/html/css_xpath.h) or XPath when
// they start with '/', '(' or './'. docs/endpoints/web.md has the full rules.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "extract/html/document.h"

namespace gleaner::rules {

/// Limits of a rule set, checked by parse_rules (each a 400 naming the place).
inline constexpr std::size_t kMaxRules = 100;      ///< fields at one level
inline constexpr int kMaxDepth = 5;                ///< levels of nested rules
inline constexpr std::size_t kMaxSelector = 1000;  ///< characters of a selector
/// Bytes of values a rule set may make on one page (a 400 naming the rule past it).
inline constexpr std::size_t kMaxOutputBytes = 20 * 1024 * 1024;

struct Rule {
  enum class Output { Text, Html, Attribute, TableJson, TableArray, Nested };
  /// As the client wrote it.
  std::string selector;
  /// XPath 1.0 to evaluate (the selector itself, or compiled from CSS).
  std::string xpath;
  bool list = false;
  Output output = Output::Text;
  /// Output::Attribute: its name.
  std::string attribute;
  /// Trim and collapse white space of texts.
  bool clean = true;
  /// Output::Nested: the rules evaluated inside each match, in the order given.
  std::vector<std::pair<std::string, Rule>> nested;
};

using Rules = std::vector<std::pair<std::string, Rule>>;

/// Reads and checks extractRules. `path` names the value in errors ("extractRules"); a fault is
/// gleaner::Error(InvalidParameter) naming the exact place: "extractRules.price.selector",
/// "extractRules.items.output.name.type".
Rules parse_rules(const nlohmann::json& value, const std::string& path);

/// Evaluates `rules` over `doc`: an object with every field of `rules`. No match: null
/// for an item, [] for a list. Every selector draws on `budget` (html::XPathBudget): a rule whose
/// evaluation needs more steps than are left, or values past kMaxOutputBytes, is a 400 naming it
/// ("extractRules.items"); the request's deadline passed, a 504.
nlohmann::json apply_rules(const Rules& rules, const html::Document& doc,
                           html::XPathBudget& budget);

}  // namespace gleaner::rules
