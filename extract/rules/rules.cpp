#include "extract/rules/rules.h"

#include <map>
#include <set>

#include "core/error.h"
#include "extract/html/css_xpath.h"

namespace gleaner::rules {
namespace {

using nlohmann::json;

bool attribute_name(std::string_view name) {
  if (name.empty()) return false;
  for (char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (!(std::isalnum(u) || ch == '-' || ch == '_' || ch == ':' || ch == '.')) return false;
  }
  return true;
}

/// Checks a selector and compiles it to XPath; `path` names it in the error.
std::string compile(const std::string& selector, const std::string& path) {
  if (selector.empty() || selector.size() > kMaxSelector) {
    throw invalid_parameter(path, "'" + path + "' must be a selector of 1 to " +
                                      std::to_string(kMaxSelector) + " characters");
  }
  if (html::is_xpath(selector)) {
    if (std::string why = html::xpath_error(selector); !why.empty()) {
      throw invalid_parameter(path, "'" + path + "' is not a valid XPath expression: " + why);
    }
    return selector;
  }
  std::string why;
  std::string xpath = html::css_to_xpath(selector, &why);
  if (xpath.empty()) {
    throw invalid_parameter(path, "'" + path + "' is not a valid CSS selector: " + why);
  }
  return xpath;
}

Rules parse_level(const json& value, const std::string& path, int depth);

/// "selector @attr" → {selector, attr}; an '@' that does not end the string in a name is part of
/// the selector (XPath's "//a/@href").
Rule shorthand(const std::string& text, const std::string& path) {
  Rule rule;
  std::string selector = text;
  const auto at = text.rfind(" @");
  if (at != std::string::npos && attribute_name(std::string_view(text).substr(at + 2))) {
    rule.output = Rule::Output::Attribute;
    rule.attribute = text.substr(at + 2);
    selector = text.substr(0, at);
    while (!selector.empty() && selector.back() == ' ') selector.pop_back();
  }
  rule.selector = selector;
  rule.xpath = compile(selector, path);
  return rule;
}

Rule full_form(const json& value, const std::string& path, int depth) {
  Rule rule;
  static const std::set<std::string> known = {"selector", "type", "output", "clean"};
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (known.count(it.key()) == 0) {
      throw invalid_parameter(path + "." + it.key(),
                              "unknown field '" + path + "." + it.key() +
                                  "'; a rule has selector, type, output, clean");
    }
  }
  const auto selector = value.find("selector");
  if (selector == value.end() || selector->is_null()) throw missing_parameter(path + ".selector");
  if (!selector->is_string()) {
    throw invalid_parameter(path + ".selector", "'" + path + ".selector' must be a string");
  }
  rule.selector = selector->get<std::string>();
  rule.xpath = compile(rule.selector, path + ".selector");

  if (const auto type = value.find("type"); type != value.end() && !type->is_null()) {
    if (!type->is_string() || (*type != "item" && *type != "list")) {
      throw invalid_parameter(path + ".type", "'" + path + ".type' must be 'item' or 'list'");
    }
    rule.list = *type == "list";
  }
  if (const auto clean = value.find("clean"); clean != value.end() && !clean->is_null()) {
    if (!clean->is_boolean()) {
      throw invalid_parameter(path + ".clean", "'" + path + ".clean' must be true or false");
    }
    rule.clean = clean->get<bool>();
  }
  if (const auto output = value.find("output"); output != value.end() && !output->is_null()) {
    const std::string where = path + ".output";
    if (output->is_object()) {
      if (depth + 1 >= kMaxDepth) {
        throw invalid_parameter(where,
                                "rules nest at most " + std::to_string(kMaxDepth) + " levels deep");
      }
      rule.output = Rule::Output::Nested;
      rule.nested = parse_level(*output, where, depth + 1);
    } else if (output->is_string()) {
      const std::string o = output->get<std::string>();
      if (o == "text")
        rule.output = Rule::Output::Text;
      else if (o == "html")
        rule.output = Rule::Output::Html;
      else if (o == "table_json")
        rule.output = Rule::Output::TableJson;
      else if (o == "table_array")
        rule.output = Rule::Output::TableArray;
      else if (o.size() > 1 && o[0] == '@' && attribute_name(std::string_view(o).substr(1))) {
        rule.output = Rule::Output::Attribute;
        rule.attribute = o.substr(1);
      } else {
        throw invalid_parameter(where, "'" + where +
                                           "' must be text, html, @<attribute>, "
                                           "table_json, table_array or an object of nested rules");
      }
    } else {
      throw invalid_parameter(where, "'" + where + "' must be a string or an object of rules");
    }
  }
  return rule;
}

Rules parse_level(const json& value, const std::string& path, int depth) {
  if (!value.is_object()) {
    throw invalid_parameter(path, "'" + path + "' must be an object of field name → rule");
  }
  if (value.empty()) throw invalid_parameter(path, "'" + path + "' has no rule");
  if (value.size() > kMaxRules) {
    throw invalid_parameter(path,
                            "'" + path + "' has more than " + std::to_string(kMaxRules) + " rules");
  }
  Rules rules;
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string where = path + "." + it.key();
    if (it.key().empty()) throw invalid_parameter(path, "a field name of '" + path + "' is empty");
    if (it.value().is_string())
      rules.emplace_back(it.key(), shorthand(it.value(), where));
    else if (it.value().is_object())
      rules.emplace_back(it.key(), full_form(it.value(), where, depth));
    else
      throw invalid_parameter(where, "'" + where + "' must be a selector string or a rule object");
  }
  return rules;
}

/// One evaluation of a rule set: the document, the request's XPath budget, and how many bytes of
/// values may still be made (a list of the html of `//*` is quadratic in the page).
struct Evaluation {
  const html::Document& doc;
  html::XPathBudget& budget;
  std::size_t bytes_left;

  /// The nodes `xpath` selects from `context`; a budget overrun names `path`.
  html::XPathResult select(xmlNodePtr context, const std::string& xpath, const std::string& path) {
    try {
      return html::evaluate_xpath(doc, context, xpath, nullptr, &budget);
    } catch (Error& e) {
      if (e.code() == ErrorCode::InvalidParameter || e.code() == ErrorCode::Timeout) {
        throw std::move(e).with_parameter(path);
      }
      throw;
    }
  }

  /// Counts a value made for `path` against the size limit.
  std::string keep(std::string value, const std::string& path) {
    if (value.size() > bytes_left) {
      throw invalid_parameter(path, "extractRules make more than " +
                                        std::to_string(kMaxOutputBytes / (1024 * 1024)) +
                                        " MB of values on this page; make '" + path + "' narrower");
    }
    bytes_left -= value.size();
    return value;
  }
};

std::string text_of(Evaluation& ev, xmlNodePtr node, bool clean, const std::string& path) {
  std::string text = html::text_content(node);
  return ev.keep(clean ? html::collapse_whitespace(text) : std::move(text), path);
}

/// The table a match stands for: itself, else the first table inside it.
xmlNodePtr table_of(Evaluation& ev, xmlNodePtr node, const std::string& path) {
  if (html::tag_of(node) == "table") return node;
  if (!node || node->type != XML_ELEMENT_NODE) return nullptr;
  auto found = ev.select(node, "descendant::table[1]", path);
  return found.nodes.empty() ? nullptr : found.nodes.front();
}

struct TableRow {
  std::vector<std::string> cells;
  bool header = false;  // in <thead>, or only <th> cells
};

std::vector<TableRow> rows_of(Evaluation& ev, xmlNodePtr table, bool clean,
                              const std::string& path) {
  std::vector<TableRow> rows;
  // The table's own rows only, not those of a table nested in a cell.
  auto found = ev.select(table, "tr | thead/tr | tbody/tr | tfoot/tr", path);
  for (xmlNodePtr tr : found.nodes) {
    TableRow row;
    bool only_th = true;
    for (xmlNodePtr cell : html::element_children(tr)) {
      const auto tag = html::tag_of(cell);
      if (tag != "td" && tag != "th") continue;
      if (tag == "td") only_th = false;
      row.cells.push_back(text_of(ev, cell, clean, path));
    }
    if (row.cells.empty()) continue;
    row.header = html::tag_of(tr->parent) == "thead" || only_th;
    rows.push_back(std::move(row));
  }
  return rows;
}

json table_array(std::vector<TableRow> rows) {
  json out = json::array();
  for (auto& row : rows) out.push_back(std::move(row.cells));
  return out;
}

json table_json(std::vector<TableRow> rows) {
  json out = json::array();
  if (rows.empty()) return out;
  // The keys: the first header row, else the first row.
  std::size_t header_at = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].header) {
      header_at = i;
      break;
    }
  }
  std::vector<std::string> keys;
  std::map<std::string, int> seen;
  for (std::size_t i = 0; i < rows[header_at].cells.size(); ++i) {
    std::string key = rows[header_at].cells[i];
    if (key.empty()) key = "column " + std::to_string(i + 1);
    if (const int n = ++seen[key]; n > 1) key += " " + std::to_string(n);
    keys.push_back(key);
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (r == header_at || rows[r].header) continue;
    json row = json::object();
    for (std::size_t i = 0; i < rows[r].cells.size(); ++i) {
      row[i < keys.size() ? keys[i] : "column " + std::to_string(i + 1)] = rows[r].cells[i];
    }
    out.push_back(std::move(row));
  }
  return out;
}

json apply_level(Evaluation& ev, const Rules& rules, xmlNodePtr context, const std::string& path);

/// The value of one match; null when the match has none (an element without the attribute).
json value_of(Evaluation& ev, const Rule& rule, xmlNodePtr node, const std::string& path) {
  const bool element = node->type == XML_ELEMENT_NODE;
  switch (rule.output) {
    case Rule::Output::Text: return text_of(ev, node, rule.clean, path);
    case Rule::Output::Html: return ev.keep(html::outer_html(ev.doc, node), path);
    case Rule::Output::Attribute: {
      if (!element) return nullptr;
      bool found = false;
      std::string value = html::attribute(node, rule.attribute.c_str(), &found);
      if (!found) return nullptr;
      return ev.keep(std::move(value), path);
    }
    case Rule::Output::TableJson:
    case Rule::Output::TableArray: {
      xmlNodePtr table = table_of(ev, node, path);
      if (!table) return nullptr;
      std::vector<TableRow> rows = rows_of(ev, table, rule.clean, path);
      return rule.output == Rule::Output::TableJson ? table_json(std::move(rows))
                                                    : table_array(std::move(rows));
    }
    case Rule::Output::Nested:
      if (!element) return nullptr;
      return apply_level(ev, rule.nested, node, path + ".output");
  }
  return nullptr;
}

json apply_rule(Evaluation& ev, const Rule& rule, xmlNodePtr context, const std::string& path) {
  html::XPathResult found = ev.select(context, rule.xpath, path);
  if (found.scalar) {
    // count(), string()... : the value itself, whatever the output.
    json value = ev.keep(rule.clean ? html::collapse_whitespace(found.value) : found.value, path);
    return rule.list ? json::array({value}) : value;
  }
  if (!rule.list) {
    for (xmlNodePtr node : found.nodes) {
      json value = value_of(ev, rule, node, path);
      if (!value.is_null()) return value;
    }
    return nullptr;
  }
  json out = json::array();
  for (xmlNodePtr node : found.nodes) {
    json value = value_of(ev, rule, node, path);
    if (!value.is_null()) out.push_back(std::move(value));
  }
  return out;
}

json apply_level(Evaluation& ev, const Rules& rules, xmlNodePtr context, const std::string& path) {
  json out = json::object();
  for (const auto& [name, rule] : rules)
    out[name] = apply_rule(ev, rule, context, path + "." + name);
  return out;
}

}  // namespace

Rules parse_rules(const json& value, const std::string& path) {
  return parse_level(value, path, 0);
}

json apply_rules(const Rules& rules, const html::Document& doc, html::XPathBudget& budget) {
  Evaluation ev{doc, budget, kMaxOutputBytes};
  return apply_level(ev, rules, reinterpret_cast<xmlNodePtr>(doc.doc()), "extractRules");
}

}  // namespace gleaner::rules
