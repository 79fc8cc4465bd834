#include "extract/plain/main_content.h"

#include "core/error.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/regex.h"
#include "extract/html/css_xpath.h"

namespace gleaner::plain {
namespace {

// The patterns of main_content.js.
const Regex kPositive(
    "article|body|content|entry|h-?entry|main|page|post|text|blog|story|prose|recipe|product|description",
    {.ignore_case = true});
const Regex kNegative(
    "-ad-|^ad-|\\bads?\\b|banner|breadcrumb|combx|comment|communit|consent|cookie|contact|disqus|"
    "extra|foot|gdpr|header|legends|menu|modal|nav|newsletter|outbrain|pager|pagination|popup|"
    "promo|related|remark|replies|rss|share|shoutbox|sidebar|skyscraper|social|sponsor|subscribe|"
    "tags?\\b|taboola|teaser|tool|widget|masthead|meta|author-?box|signup|login",
    {.ignore_case = true});
const std::set<std::string, std::less<>> kBoilerRoles = {
    "navigation", "complementary", "contentinfo", "banner", "search", "dialog", "alertdialog", "menu", "menubar"};
const std::set<std::string, std::less<>> kBoilerTags = {"nav", "aside", "footer", "form", "dialog",
                                                        "button", "select", "iframe"};
const std::set<std::string, std::less<>> kTextBlocks = {"p", "pre", "td", "blockquote", "li", "dd", "h2",
                                                        "h3", "h4", "div", "section", "article"};

std::size_t collapsed_length(const char* text) {
  std::size_t n = 0;
  bool space = true;
  for (const char* p = text; *p; ++p) {
    const bool blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f';
    if (blank) {
      if (!space) ++n;
      space = true;
    } else {
      // UTF-8 continuation bytes are not characters.
      if ((static_cast<unsigned char>(*p) & 0xC0) != 0x80) ++n;
      space = false;
    }
  }
  return n;
}

struct Lengths {
  std::size_t text = 0;
  std::size_t links = 0;
};

class Scorer {
 public:
  explicit Scorer(const html::Document& doc) : doc_(doc) { measure(doc.body(), false); }

  std::vector<xmlNodePtr> main_roots() {
    std::unordered_map<xmlNodePtr, double> raw;
    for (xmlNodePtr el : shown_) {
      const std::string_view tag = html::tag_of(el);
      if (!kTextBlocks.count(tag)) continue;
      std::string text;
      if (tag == "div" || tag == "section" || tag == "article") {
        for (xmlNodePtr n = el->children; n; n = n->next) {
          if (n->type == XML_TEXT_NODE && n->content) text += reinterpret_cast<const char*>(n->content);
        }
      } else {
        text = html::text_content(el);
      }
      text = html::collapse_whitespace(text);
      if (collapsed_length(text.c_str()) < 25) continue;
      std::size_t commas = 0;
      for (std::size_t at = text.find(','); at != std::string::npos; at = text.find(',', at + 1)) ++commas;
      const double s = 1.0 + static_cast<double>(commas) +
                       std::min<double>(static_cast<double>(collapsed_length(text.c_str()) / 100), 3.0);
      xmlNodePtr up = el->parent;
      for (double share : {1.0, 0.5, 1.0 / 3}) {
        if (!up || up->type != XML_ELEMENT_NODE || up == doc_.root()) break;
        raw[up] += s * share;
        up = up->parent;
      }
    }
    xmlNodePtr best = nullptr;
    double best_score = 0;
    for (const auto& [el, r] : raw) {
      double s = r;
      const std::string n = names(el);
      const bool positive = kPositive.search(n);
      if (positive) s += 25;
      if (kNegative.search(n) && !positive) s -= 25;
      const std::string_view tag = html::tag_of(el);
      if (tag == "article" || tag == "main" || html::attribute(el, "role") == "main" ||
          html::attribute(el, "itemprop") == "articleBody") {
        s += 30;
      }
      if (boiler_element(el)) s -= 50;
      s *= 1 - link_density(el);
      final_[el] = s;
      // Ties go to the element first in the document, so the answer does not depend on hashing.
      if (s > best_score || (s == best_score && best && s > 0 && order_.at(el) < order_.at(best))) {
        best = el;
        best_score = s;
      }
    }
    if (!best) return {};
    // Readability's rule: three of the next best candidates in one ancestor of the best mean the
    // content is split across blocks, which that ancestor holds.
    std::vector<std::pair<double, xmlNodePtr>> others;
    for (const auto& [el, s] : final_) {
      if (el != best && s >= best_score * 0.75) others.emplace_back(s, el);
    }
    std::sort(others.begin(), others.end(), [&](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : order_.at(a.second) < order_.at(b.second);
    });
    if (others.size() > 5) others.resize(5);
    if (others.size() >= 3) {
      for (xmlNodePtr up = best->parent; up && up->type == XML_ELEMENT_NODE && up != doc_.root(); up = up->parent) {
        const auto inside = std::count_if(others.begin(), others.end(),
                                          [&](const auto& o) { return contains(up, o.second); });
        if (inside >= 3) {
          best = up;
          best_score = std::max(best_score, score(up));
          break;
        }
        if (up == doc_.body()) break;
      }
    }
    for (xmlNodePtr up = best->parent; up && up->type == XML_ELEMENT_NODE && up != doc_.body() && up != doc_.root();
         up = up->parent) {
      const double s = score(up);
      if (s >= best_score * 0.75 && lengths_[up].text < lengths_[best].text * 1.6 && link_density(up) < 0.35) {
        best = up;
        best_score = std::max(best_score, s);
      } else {
        break;
      }
    }
    std::vector<xmlNodePtr> roots;
    for (xmlNodePtr sib : html::element_children(best->parent)) {
      if (sib == best) roots.push_back(sib);
      else if (score(sib) >= std::max(10.0, best_score * 0.25) && link_density(sib) < 0.3) roots.push_back(sib);
    }
    // The title heading above the content is part of it.
    auto h1 = html::evaluate_xpath(doc_, nullptr, "(//body//h1)[1]", nullptr);
    if (!h1.nodes.empty() && shown_set_.count(h1.nodes.front())) {
      xmlNodePtr title = h1.nodes.front();
      const bool inside = std::any_of(roots.begin(), roots.end(), [&](xmlNodePtr r) { return contains(r, title); });
      if (!inside && order_.at(title) < order_.at(roots.front())) roots.insert(roots.begin(), title);
    }
    return roots;
  }

  bool boilerplate(xmlNodePtr el) {
    const std::string_view tag = html::tag_of(el);
    if (boiler_element(el)) return true;
    if (tag == "header") {
      auto headings = html::evaluate_xpath(doc_, el, "descendant::h1 | descendant::h2", nullptr);
      if (headings.nodes.empty()) return true;
    }
    const std::string n = names(el);
    if (kNegative.search(n) && !kPositive.search(n)) {
      auto h1 = html::evaluate_xpath(doc_, el, "descendant::h1", nullptr);
      if (h1.nodes.empty() && (lengths_[el].text < 200 || link_density(el) > 0.3)) return true;
    }
    if ((tag == "ul" || tag == "ol" || tag == "div") && lengths_[el].text > 0 && link_density(el) > 0.6) return true;
    return false;
  }

 private:
  Lengths measure(xmlNodePtr node, bool in_link) {
    Lengths out;
    if (!node) return out;
    for (xmlNodePtr child = node->children; child; child = child->next) {
      if (child->type == XML_TEXT_NODE && child->content) {
        const std::size_t n = collapsed_length(reinterpret_cast<const char*>(child->content));
        out.text += n;
        if (in_link) out.links += n;
      } else if (child->type == XML_ELEMENT_NODE) {
        const std::string_view tag = html::tag_of(child);
        if (never_shown(tag) || hidden_in_markup(child)) continue;
        order_[child] = order_.size();
        shown_.push_back(child);
        shown_set_.insert(child);
        const Lengths inner = measure(child, in_link || tag == "a");
        out.text += inner.text;
        out.links += inner.links;
      }
    }
    lengths_[node] = out;
    return out;
  }

  static std::string names(xmlNodePtr el) { return html::attribute(el, "class") + " " + html::attribute(el, "id"); }

  bool boiler_element(xmlNodePtr el) const {
    return kBoilerTags.count(html::tag_of(el)) || kBoilerRoles.count(html::attribute(el, "role"));
  }

  double link_density(xmlNodePtr el) {
    const Lengths& l = lengths_[el];
    return l.text ? std::min(1.0, static_cast<double>(l.links) / static_cast<double>(l.text)) : 1.0;
  }

  double score(xmlNodePtr el) const {
    auto it = final_.find(el);
    return it == final_.end() ? 0.0 : it->second;
  }

  static bool contains(xmlNodePtr ancestor, xmlNodePtr node) {
    for (; node; node = node->parent) {
      if (node == ancestor) return true;
    }
    return false;
  }

  const html::Document& doc_;
  std::vector<xmlNodePtr> shown_;  // document order
  std::unordered_set<xmlNodePtr> shown_set_;
  std::unordered_map<xmlNodePtr, std::size_t> order_;
  std::unordered_map<xmlNodePtr, Lengths> lengths_;
  std::unordered_map<xmlNodePtr, double> final_;
};

/// The nodes a list of CSS selectors matches, in document order; `parameter` names the list when
/// the selectors overrun the request's budget.
std::vector<xmlNodePtr> matches(const html::Document& doc, const std::vector<std::string>& selectors,
                                html::XPathBudget* budget, const char* parameter) {
  std::string xpath;
  for (const std::string& css : selectors) {
    std::string compiled = html::css_to_xpath(css, nullptr);
    if (compiled.empty()) continue;  // refused by the request's parser already
    xpath += (xpath.empty() ? "" : " | ") + compiled;
  }
  if (xpath.empty()) return {};
  try {
    return html::evaluate_xpath(doc, nullptr, xpath, nullptr, budget).nodes;
  } catch (Error& e) {
    if (e.code() == ErrorCode::InvalidParameter || e.code() == ErrorCode::Timeout) {
      throw std::move(e).with_parameter(parameter);
    }
    throw;
  }
}

}  // namespace

TreeFilter content_filter(const html::Document& doc, const std::vector<std::string>& include,
                          const std::vector<std::string>& exclude, bool main,
                          html::XPathBudget* budget) {
  TreeFilter filter;
  std::shared_ptr<std::unordered_set<xmlNodePtr>> excluded;
  if (!exclude.empty()) {
    const auto found = matches(doc, exclude, budget, "excludeTags");
    excluded = std::make_shared<std::unordered_set<xmlNodePtr>>(found.begin(), found.end());
  }
  std::shared_ptr<Scorer> scorer;
  if (!include.empty()) {
    const auto found = matches(doc, include, budget, "includeOnlyTags");
    const std::unordered_set<xmlNodePtr> set(found.begin(), found.end());
    for (xmlNodePtr el : found) {
      bool nested = false;
      for (xmlNodePtr up = el->parent; up && !nested; up = up->parent) nested = set.count(up) != 0;
      if (!nested) filter.roots.push_back(el);
    }
    filter.use_roots = true;  // nothing matched: an empty tree, as on the browser road
  } else if (main) {
    scorer = std::make_shared<Scorer>(doc);
    filter.roots = scorer->main_roots();
    filter.use_roots = !filter.roots.empty();
    if (!filter.use_roots) scorer.reset();  // no block of text at all: the whole page
  }
  if (excluded || scorer) {
    filter.skip = [excluded, scorer](xmlNodePtr el) {
      return (excluded && excluded->count(el)) || (scorer && scorer->boilerplate(el));
    };
  }
  return filter;
}

}  // namespace gleaner::plain
