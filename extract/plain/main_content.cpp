#include "extract/plain/main_content.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/error.h"
#include "core/regex.h"
#include "extract/html/css_xpath.h"

namespace gleaner::plain {
namespace {

// The patterns of main_content.js.
const Regex kPositive(
    "article|body|content|entry|h-?entry|main|page|post|text|blog|story|prose|recipe|product|"
    "description",
    {.ignore_case = true});
const Regex kNegative(
    "-ad-|^ad-|\\bads?\\b|banner|breadcrumb|combx|comment|communit|consent|cookie|contact|disqus|"
    "extra|foot|gdpr|header|legends|menu|modal|nav|newsletter|outbrain|pager|pagination|popup|"
    "promo|related|remark|replies|rss|share|shoutbox|sidebar|skyscraper|social|sponsor|subscribe|"
    "tags?\\b|taboola|teaser|tool|widget|masthead|meta|author-?box|signup|login",
    {.ignore_case = true});
// Readability's unlikely candidates (main_content.js's UNLIKELY and MAYBE).
const Regex kUnlikely(
    "-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|"
    "header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|"
    "supplemental|ad-break|agegate|pagination|pager|popup|yom-remote",
    {.ignore_case = true});
const Regex kMaybe("and|article|body|column|content|main|shadow", {.ignore_case = true});
// Elements that start a block of their own, and those whose text is never read.
const std::set<std::string, std::less<>> kBlocks = {
    "address", "article",  "aside",      "blockquote", "dd",     "details", "dialog", "div",  "dl",
    "dt",      "fieldset", "figcaption", "figure",     "footer", "form",    "h1",     "h2",   "h3",
    "h4",      "h5",       "h6",         "header",     "hgroup", "hr",      "li",     "main", "nav",
    "ol",      "p",        "pre",        "section",    "table",  "ul"};
const std::set<std::string, std::less<>> kNoText = {"script", "style",   "noscript", "template",
                                                    "svg",    "iframe",  "object",   "button",
                                                    "select", "textarea"};
const Regex kAside("caption|credit|byline|author|dateline|writtenby|attribution",
                   {.ignore_case = true});
const Regex kLabel(
    "^(advert|advertisement|advertising|anzeige|werbung|publicidad|publicit[ée]|pubblicit[àa])$",
    {.ignore_case = true});
// Names of sharing widgets and of promotions (more to read, newsletters), which win over a content
// word beside them ("dpsp-share-text", "article__share") in a block short beside the article.
const Regex kShare("share|sharing|social", {.ignore_case = true});
const Regex kPromo(
    "read-?more|recommend|trending|more-?stories|also-?like|newsletter|subscri|signup|sign-up",
    {.ignore_case = true});
// Names of a date line ("post-date", "timestamp", "arttidate_pub").
const Regex kDateName("date|timestamp|publish|updated", {.ignore_case = true});
const Regex kDateProp("^date", {.ignore_case = true});
const std::set<std::string, std::less<>> kFurnitureTags = {"nav", "aside", "footer", "dialog"};
const std::set<std::string, std::less<>> kBoilerRoles = {
    "navigation", "complementary", "contentinfo", "banner", "search",
    "dialog",     "alertdialog",   "menu",        "menubar"};
const std::set<std::string, std::less<>> kBoilerTags = {"nav",    "aside",  "footer", "form",
                                                        "dialog", "button", "select", "iframe"};
const std::set<std::string, std::less<>> kTextBlocks = {
    "p", "pre", "td", "blockquote", "li", "dd", "h2", "h3", "h4", "div", "section", "article"};

// Words are runs of ASCII letters and digits or of other characters past ASCII but a no-break
// space (main_content.js's wordsIn splits the same way).
std::vector<std::string_view> words_in(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t start = std::string_view::npos;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const auto c = i < text.size() ? static_cast<unsigned char>(text[i]) : 0;
    const bool nbsp =
        c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xA0;
    const bool word = !nbsp && (std::isalnum(c) || c >= 0x80) &&
                      !(c == 0xA0 && i > 0 && static_cast<unsigned char>(text[i - 1]) == 0xC2);
    if (word && start == std::string_view::npos) start = i;
    if (!word && start != std::string_view::npos) {
      words.push_back(text.substr(start, i - start));
      start = std::string_view::npos;
    }
  }
  return words;
}

// Characters of words joined by single spaces (JavaScript's words.join(' ').length).
std::size_t joined_length(const std::vector<std::string_view>& words) {
  std::size_t n = words.empty() ? 0 : words.size() - 1;
  for (std::string_view w : words) {
    for (const char ch : w) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  }
  return n;
}

// Readability's _textSimilarity: how much of `b`'s words are also `a`'s, 0 to 1; ASCII folded to
// lower case (as main_content.js's titleSimilarity).
double title_similarity(std::string a, std::string b) {
  for (std::string* s : {&a, &b}) {
    for (char& c : *s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const std::vector<std::string_view> words_a = words_in(a);
  const std::vector<std::string_view> words_b = words_in(b);
  if (words_a.empty() || words_b.empty()) return 0;
  const std::unordered_set<std::string_view> in_a(words_a.begin(), words_a.end());
  std::vector<std::string_view> only_b;
  for (std::string_view w : words_b) {
    if (!in_a.count(w)) only_b.push_back(w);
  }
  return 1.0 - static_cast<double>(joined_length(only_b)) /
                   static_cast<double>(joined_length(words_b));
}

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
  bool h1 = false;  // an <h1> inside
};

class Scorer {
 public:
  explicit Scorer(const html::Document& doc) : doc_(doc) { measure(doc.body(), false); }

  /// The main content's roots; `strict`: text inside page furniture (furniture()) credits nobody.
  std::vector<xmlNodePtr> main_roots(bool strict) {
    final_.clear();
    std::unordered_map<xmlNodePtr, double> raw;
    const auto stated = stated_body();
    std::vector<std::pair<xmlNodePtr, std::size_t>> stated_blocks;
    for (xmlNodePtr el : shown_) {
      const std::string_view tag = html::tag_of(el);
      if (!kTextBlocks.count(tag)) continue;
      // A div or section counts as a paragraph only for the text it holds itself (main_content.js).
      std::string text;
      xmlNodePtr first = el->parent;
      if (tag == "div" || tag == "section" || tag == "article") {
        bool blocks = false;
        for (xmlNodePtr n = el->children; n; n = n->next) {
          if (n->type == XML_TEXT_NODE && n->content) {
            text += reinterpret_cast<const char*>(n->content);
          } else if (n->type == XML_ELEMENT_NODE && shown_set_.count(n) &&
                     !kNoText.count(html::tag_of(n))) {
            if (kBlocks.count(html::tag_of(n)))
              blocks = true;
            else
              text += " " + html::text_content(n);
          }
        }
        if (blocks) first = el;
      } else {
        text = html::text_content(el);
      }
      text = html::collapse_whitespace(text);
      const std::size_t length = collapsed_length(text.c_str());
      if (length < 25) continue;
      if (stated && strict) {
        const auto sh = shingles_of(text);
        const auto in = std::count_if(sh.begin(), sh.end(),
                                      [&](const std::string& x) { return stated->count(x) != 0; });
        if (!sh.empty() && static_cast<double>(in) >= static_cast<double>(sh.size()) * 0.6) {
          stated_blocks.emplace_back(el, length);
        }
      }
      if (strict && furniture(el)) continue;
      std::size_t commas = 0;
      for (const char* comma : {",", "\u060C", "\u3001", "\uFF0C"}) {
        for (std::size_t at = text.find(comma); at != std::string::npos;
             at = text.find(comma, at + 1))
          ++commas;
      }
      const double s = 1.0 + static_cast<double>(commas) +
                       std::min<double>(static_cast<double>(length / 100), 3.0);
      xmlNodePtr up = first;
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
      // The body's names say what kind of page it is (WordPress's "single-post"), not where its
      // content is: they weigh nothing.
      const std::string n = el == doc_.body() ? std::string() : names(el);
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
      if (s > best_score || (s == best_score && best && s > 0 && order(el) < order(best))) {
        best = el;
        best_score = s;
      }
    }
    // The page states its article text and the blocks holding most of it are found: the deepest
    // element around nine tenths of them is the article, whatever the scores say, and alone.
    if (xmlNodePtr container = stated_container(stated_blocks)) return {container};
    if (!best) return {};
    // Readability's rule: three of the next best candidates in one ancestor of the best mean the
    // content is split across blocks, which that ancestor holds.
    std::vector<std::pair<double, xmlNodePtr>> others;
    for (const auto& [el, s] : final_) {
      if (el != best && s >= best_score * 0.75) others.emplace_back(s, el);
    }
    std::sort(others.begin(), others.end(), [&](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : order(a.second) < order(b.second);
    });
    if (others.size() > 5) others.resize(5);
    if (others.size() >= 3) {
      for (xmlNodePtr up = best->parent; up && up->type == XML_ELEMENT_NODE && up != doc_.root();
           up = up->parent) {
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
    for (xmlNodePtr up = best->parent;
         up && up->type == XML_ELEMENT_NODE && up != doc_.body() && up != doc_.root();
         up = up->parent) {
      const double s = score(up);
      if (s >= best_score * 0.75 && lengths_[up].text < lengths_[best].text * 1.6 &&
          link_density(up) < 0.35) {
        best = up;
        best_score = std::max(best_score, s);
      } else {
        break;
      }
    }
    std::vector<xmlNodePtr> roots;
    for (xmlNodePtr sib : html::element_children(best->parent)) {
      if (sib == best)
        roots.push_back(sib);
      else if (score(sib) >= std::max(10.0, best_score * 0.25) && link_density(sib) < 0.3)
        roots.push_back(sib);
      else if (html::tag_of(sib) == "p" && shown_set_.count(sib) && sentence_beside(sib))
        roots.push_back(sib);
    }
    // An article split into blocks of one kind (a page builder's text modules between figures, ad
    // rows or sub-headings): blocks with the best block's tag and classes near it (under its
    // ancestor six levels up) that score as text too, with few links, are part of it.
    const std::string kind = html::attribute(best, "class");
    if (kind.find_first_not_of(" \t\n\r\f") != std::string::npos) {
      xmlNodePtr scope = best;
      for (int i = 0; i < 6 && scope->parent && scope->parent->type == XML_ELEMENT_NODE &&
                      scope->parent != doc_.body();
           ++i)
        scope = scope->parent;
      const std::string_view tag = html::tag_of(best);
      for (xmlNodePtr el : shown_) {
        if (html::tag_of(el) != tag || !contains(scope, el) || html::attribute(el, "class") != kind)
          continue;
        if (std::any_of(roots.begin(), roots.end(),
                        [&](xmlNodePtr r) { return contains(r, el) || contains(el, r); }))
          continue;
        if (score(el) >= std::max(10.0, best_score * 0.25) && link_density(el) < 0.3 &&
            !(strict && furniture(el)))
          roots.push_back(el);
      }
      std::sort(roots.begin(), roots.end(),
                [&](xmlNodePtr a, xmlNodePtr b) { return order(a) < order(b); });
    }
    return roots;
  }

  bool boilerplate(xmlNodePtr el) {
    const std::string_view tag = html::tag_of(el);
    if (boiler_element(el)) return true;
    // An embedded post or quotation is the article's whatever its wrapper's names say (a tweet in a
    // "social-media-embed" block).
    const std::size_t length = lengths_[el].text;
    if (length > 0 && quoted_length(el) * 10 >= length * 6) return false;
    if (aside(el)) return true;
    if (tag == "header") {
      auto headings = html::evaluate_xpath(doc_, el, "descendant::h1 | descendant::h2", nullptr);
      if (headings.nodes.empty()) return true;
    }
    const std::string n = names(el);
    // (In a thread, the posts named like comments stay however short.)
    if (kNegative.search(n) && !kPositive.search(n) && !(thread_ && kUnlikely.search(n))) {
      auto h1 = html::evaluate_xpath(doc_, el, "descendant::h1", nullptr);
      if (h1.nodes.empty() && (lengths_[el].text < 200 || link_density(el) > 0.3)) return true;
    }
    if ((tag == "ul" || tag == "ol" || tag == "div") && lengths_[el].text > 0 &&
        link_density(el) > 0.6)
      return true;
    return link_card(el) || teaser(el) || date_line(el);
  }

  std::size_t text_length(xmlNodePtr el) { return lengths_[el].text; }

  /// The chosen roots' text, against which aside() weighs a block named like furniture.
  void set_roots(const std::vector<xmlNodePtr>& roots) {
    roots_length_ = 0;
    for (xmlNodePtr r : roots) roots_length_ += lengths_[r].text;
    // The content is little but blocks named like furniture (under 500 characters outside them,
    // and they two thirds of it): a forum thread whose posts are named "comment"; they stay.
    std::size_t named = 0;
    std::function<void(xmlNodePtr)> walk = [&](xmlNodePtr el) {
      for (xmlNodePtr c : html::element_children(el)) {
        if (!shown_set_.count(c)) continue;
        const std::string n = names(c);
        if (!lengths_[c].h1 && kUnlikely.search(n) && !kMaybe.search(n))
          named += lengths_[c].text;
        else
          walk(c);
      }
    };
    for (xmlNodePtr r : roots) walk(r);
    thread_ = named * 3 >= roots_length_ * 2 && roots_length_ - named < 500;
    title_heading_ = find_title_heading(roots);
  }

  /// The heading that repeats the page's title (set_roots(); main_content.js's titleHeading).
  bool title_heading(xmlNodePtr el) const { return el != nullptr && el == title_heading_; }

  /// Readability's rule for a paragraph beside the body: a long one with few links, or a short
  /// sentence without any.
  bool sentence_beside(xmlNodePtr p) {
    const std::size_t n = lengths_[p].text;
    const double d = link_density(p);
    if (n > 80) return d < 0.25;
    if (n == 0 || d > 0) return false;
    const std::string t = html::collapse_whitespace(html::text_content(p));
    return t.find(". ") != std::string::npos || (!t.empty() && t.back() == '.');
  }

 private:
  /// What sits beside the article's text inside its block (main_content.js's aside()): captions
  /// and photo credits, bylines and author boxes, the "Advertisement" label of an ad slot, and
  /// blocks named like comments, related links, menus or footers whatever their size.
  bool aside(xmlNodePtr el) {
    if (html::tag_of(el) == "figcaption") return true;
    const std::string n = names(el);
    if (lengths_[el].h1) return false;
    // Unless it holds most of the content (a forum's first post is a "comment").
    if (kUnlikely.search(n) && !kMaybe.search(n) && lengths_[el].text * 2 <= roots_length_ &&
        !thread_)
      return true;
    // Captions, credits and author boxes are short beside the text (a journal's long "author
    // guidelines" are its content).
    // A content word beside (a "post-author" box) does not save one a quarter of the text or less.
    if (kAside.search(n) && lengths_[el].text * 2 <= roots_length_ &&
        (!kPositive.search(n) || lengths_[el].text * 4 <= roots_length_))
      return true;
    // A sharing widget, and a block of promotions a quarter of the text or less, whatever content
    // words their names hold too.
    if (kShare.search(n) && lengths_[el].text < 100) return true;
    if (kPromo.search(n) && lengths_[el].text * 4 <= roots_length_) return true;
    if (html::attribute(el, "rel") == "author" || html::attribute(el, "itemprop") == "author")
      return true;
    // A paragraph that is a label and a link: "Read also:" and a headline.
    if (html::tag_of(el) == "p" && link_density(el) > 0.5 && lengths_[el].text < 200) {
      std::string label = html::collapse_whitespace(label_of(el));
      // A no-break space after the colon is white space too, as in main_content.js.
      while (label.size() >= 2 && label.compare(label.size() - 2, 2, "\u00A0") == 0)
        label = html::collapse_whitespace(label.substr(0, label.size() - 2));
      if (!label.empty() && label.back() == ':') return true;
    }
    return lengths_[el].text < 20 &&
           kLabel.search(html::collapse_whitespace(html::text_content(el)));
  }

  /// A block of links inside a line of text (a hover card of a name's latest articles, hidden
  /// until the pointer is on it; a line of tags): the innermost inline element of 100 characters
  /// or more, four fifths links and under 50 characters outside them, three links or more.
  bool link_card(xmlNodePtr el) {
    const std::string_view tag = html::tag_of(el);
    const Lengths& l = lengths_[el];
    if (tag == "a" || kBlocks.count(tag) || l.text < 100 || link_density(el) <= 0.8 ||
        l.text - l.links >= 50)
      return false;
    if (html::evaluate_xpath(doc_, el, "descendant::a", nullptr).nodes.size() < 3) return false;
    // The innermost such element: the name it hangs on stays.
    for (xmlNodePtr c : html::element_children(el)) {
      if (link_card(c)) return false;
    }
    return true;
  }

  /// A headline linked to another article between the article's paragraphs ("SEAN SPICER
  /// ELIMINATED FROM 'DANCING WITH THE STARS'", "Also on rt.com ..."): a paragraph, or a link
  /// standing alone among blocks, four fifths link text (hover cards aside), of four words or more
  /// and not an address (a source cited as its URL is the article's).
  bool teaser(xmlNodePtr el) {
    const std::string_view tag = html::tag_of(el);
    if (tag == "a") {
      if (!el->parent) return false;
      bool blocks = false;
      for (xmlNodePtr c = el->parent->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE && c->content &&
            !html::collapse_whitespace(reinterpret_cast<const char*>(c->content)).empty())
          return false;
        if (c->type == XML_ELEMENT_NODE && kBlocks.count(html::tag_of(c))) blocks = true;
      }
      if (!blocks) return false;
    } else if (tag != "p") {
      return false;
    }
    std::size_t text = lengths_[el].text;
    std::size_t links = lengths_[el].links;
    std::function<void(xmlNodePtr)> cards = [&](xmlNodePtr e) {
      for (xmlNodePtr c : html::element_children(e)) {
        if (link_card(c)) {
          text -= lengths_[c].text;
          links -= lengths_[c].links;
        } else {
          cards(c);
        }
      }
    };
    cards(el);
    if (text == 0 || static_cast<double>(links) <= static_cast<double>(text) * 0.8) return false;
    const std::string t = html::collapse_whitespace(html::text_content(el));
    if (t.find("://") != std::string::npos || t.find("www.") != std::string::npos) return false;
    return std::count(t.begin(), t.end(), ' ') >= 3;
  }

  /// A date line ("Updated 10:01 pm PST, Tuesday, November 19, 2019", "LinkNaija October 06,
  /// 2018"): under 100 characters, two fifths of it in the page's date elements (<time>, a
  /// datetime attribute, itemprop date...), or under 80 with a digit and named like a date; a block
  /// or a line of its own (not a date inside a sentence).
  bool date_line(xmlNodePtr el) {
    const std::size_t length = lengths_[el].text;
    if (length == 0 || length >= 100 || lengths_[el].h1) return false;
    bool date = date_length(el) * 10 >= length * 4;
    if (!date && length < 80 && kDateName.search(names(el))) {
      const std::string t = html::text_content(el);
      date = std::any_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    }
    if (!date) return false;
    if (kBlocks.count(html::tag_of(el))) return true;
    // The line around an inline element: its block's text but the blocks beside it.
    xmlNodePtr block = el->parent;
    while (block && block->type == XML_ELEMENT_NODE && block != doc_.body() &&
           !kBlocks.count(html::tag_of(block)))
      block = block->parent;
    if (!block || block->type != XML_ELEMENT_NODE) return false;
    std::size_t line = lengths_[block].text;
    for (xmlNodePtr c : html::element_children(block)) {
      if (kBlocks.count(html::tag_of(c)) && !contains(c, el)) line -= lengths_[c].text;
    }
    return line < 100;
  }

  /// The text inside the page's date elements.
  std::size_t date_length(xmlNodePtr el) {
    if (!shown_set_.count(el)) return 0;
    const std::string itemprop = html::attribute(el, "itemprop");
    bool datetime = false;
    html::attribute(el, "datetime", &datetime);
    if (html::tag_of(el) == "time" || datetime || kDateProp.search(itemprop))
      return lengths_[el].text;
    std::size_t n = 0;
    for (xmlNodePtr c : html::element_children(el)) n += date_length(c);
    return n;
  }

  /// The text inside quotations (blockquote).
  std::size_t quoted_length(xmlNodePtr el) {
    if (!shown_set_.count(el)) return 0;
    if (html::tag_of(el) == "blockquote") return lengths_[el].text;
    std::size_t n = 0;
    for (xmlNodePtr c : html::element_children(el)) n += quoted_length(c);
    return n;
  }

  /// The text of an element outside its links.
  static std::string label_of(xmlNodePtr el) {
    std::string out;
    for (xmlNodePtr n = el->children; n; n = n->next) {
      if (n->type == XML_TEXT_NODE && n->content)
        out += reinterpret_cast<const char*>(n->content);
      else if (n->type == XML_ELEMENT_NODE && html::tag_of(n) != "a")
        out += label_of(n);
    }
    return out;
  }

  /// The three-word shingles of a text (of words_in's words).
  static std::vector<std::string> shingles_of(std::string_view text) {
    const std::vector<std::string_view> words = words_in(text);
    std::vector<std::string> out;
    for (std::size_t i = 0; i + 3 <= words.size(); ++i) {
      out.push_back(std::string(words[i]) + " " + std::string(words[i + 1]) + " " +
                    std::string(words[i + 2]));
    }
    return out;
  }

  /// The shingles of the article text the page states (the longest schema.org articleBody of
  /// its JSON-LD, 500 characters or more), or none.
  std::shared_ptr<const std::unordered_set<std::string>> stated_body() {
    if (stated_done_) return stated_;
    stated_done_ = true;
    std::string longest;
    std::function<void(const nlohmann::json&, int)> walk = [&](const nlohmann::json& v, int depth) {
      if (depth > 20 || !v.is_structured()) return;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (v.is_object() && it.key() == "articleBody" && it->is_string()) {
          if (it->get_ref<const std::string&>().size() > longest.size())
            longest = it->get<std::string>();
        } else {
          walk(*it, depth + 1);
        }
      }
    };
    auto scripts =
        html::evaluate_xpath(doc_, nullptr, "//script[@type='application/ld+json']", nullptr);
    for (xmlNodePtr script : scripts.nodes) {
      walk(nlohmann::json::parse(html::text_content(script), nullptr, /*allow_exceptions=*/false),
           0);
    }
    if (collapsed_length(longest.c_str()) >= 500) {
      const auto sh = shingles_of(longest);
      stated_ = std::make_shared<const std::unordered_set<std::string>>(sh.begin(), sh.end());
    }
    return stated_;
  }

  xmlNodePtr stated_container(const std::vector<std::pair<xmlNodePtr, std::size_t>>& blocks) const {
    std::size_t total = 0;
    for (const auto& b : blocks) total += b.second;
    if (total < 400) return nullptr;
    std::unordered_map<xmlNodePtr, std::size_t> held;
    for (const auto& [el, n] : blocks) {
      for (xmlNodePtr up = el; up && up->type == XML_ELEMENT_NODE && up != doc_.root();
           up = up->parent)
        held[up] += n;
    }
    for (xmlNodePtr up = blocks.front().first;
         up && up->type == XML_ELEMENT_NODE && up != doc_.root(); up = up->parent) {
      if (static_cast<double>(held[up]) >= static_cast<double>(total) * 0.9)
        return up == doc_.body() ? nullptr : up;
    }
    return nullptr;
  }

  /// Whether an element or one of its ancestors below the body is page furniture by its tag, role
  /// or Readability's unlikely names (a form is not: some sites wrap the whole page in one).
  bool furniture(xmlNodePtr el) {
    if (!el || el->type != XML_ELEMENT_NODE || el == doc_.body() || el == doc_.root()) return false;
    if (auto it = outside_.find(el); it != outside_.end()) return it->second;
    const std::string_view tag = html::tag_of(el);
    bool out = kFurnitureTags.count(tag) || kBoilerRoles.count(html::attribute(el, "role"));
    if (!out && tag != "a" && tag != "article" && tag != "main") {
      const std::string n = names(el);
      out = kUnlikely.search(n) && !kMaybe.search(n);
    }
    out = out || furniture(el->parent);
    outside_[el] = out;
    return out;
  }

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
        out.h1 = out.h1 || inner.h1 || tag == "h1";
      }
    }
    lengths_[node] = out;
    return out;
  }

  static std::string names(xmlNodePtr el) {
    return html::attribute(el, "class") + " " + html::attribute(el, "id");
  }

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

  /// An element's place in the document; the body (measured, not numbered) comes first.
  std::size_t order(xmlNodePtr el) const {
    auto it = order_.find(el);
    return it == order_.end() ? 0 : it->second + 1;
  }

  static bool contains(xmlNodePtr ancestor, xmlNodePtr node) {
    for (; node; node = node->parent) {
      if (node == ancestor) return true;
    }
    return false;
  }

  // Readability's _headerDuplicatesTitle: the first <h1> or <h2> of the content whose words are,
  // but for a quarter, those of the page's <title>.
  xmlNodePtr find_title_heading(const std::vector<xmlNodePtr>& roots) {
    const auto found = html::evaluate_xpath(doc_, nullptr, "(//title)[1]", nullptr).nodes;
    if (found.empty()) return nullptr;
    const std::string title = html::collapse_whitespace(html::text_content(found.front()));
    if (title.empty()) return nullptr;
    const std::unordered_set<xmlNodePtr> root_set(roots.begin(), roots.end());
    xmlNodePtr heading = nullptr;
    std::function<void(xmlNodePtr)> walk = [&](xmlNodePtr el) {
      for (xmlNodePtr c : html::element_children(el)) {
        if (heading) return;
        const std::string_view tag = html::tag_of(c);
        if ((tag == "h1" || tag == "h2") && shown_set_.count(c) && !root_set.count(c) &&
            title_similarity(title, html::text_content(c)) > 0.75) {
          heading = c;
          return;
        }
        walk(c);
      }
    };
    for (xmlNodePtr r : roots) {
      const std::string_view tag = html::tag_of(r);
      if (tag == "h1" || tag == "h2") continue;  // a root is kept whatever it is
      walk(r);
      if (heading) break;
    }
    return heading;
  }

  const html::Document& doc_;
  xmlNodePtr title_heading_ = nullptr;
  std::vector<xmlNodePtr> shown_;  // document order
  std::unordered_set<xmlNodePtr> shown_set_;
  std::unordered_map<xmlNodePtr, std::size_t> order_;
  std::unordered_map<xmlNodePtr, Lengths> lengths_;
  std::unordered_map<xmlNodePtr, double> final_;
  std::unordered_map<xmlNodePtr, bool> outside_;
  std::size_t roots_length_ = 0;
  bool thread_ = false;  // set_roots(): the content is a thread of blocks named like comments
  bool stated_done_ = false;
  std::shared_ptr<const std::unordered_set<std::string>> stated_;
};

/// The nodes a list of CSS selectors matches, in document order; `parameter` names the list when
/// the selectors overrun the request's budget.
std::vector<xmlNodePtr> matches(const html::Document& doc,
                                const std::vector<std::string>& selectors,
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
    // With Readability's unlikely names first; without them when that leaves too little (a page
    // whose whole body sits in a block named like one), as main_content.js does.
    const auto length = [&](const std::vector<xmlNodePtr>& roots) {
      std::size_t n = 0;
      for (xmlNodePtr r : roots) n += scorer->text_length(r);
      return n;
    };
    filter.roots = scorer->main_roots(true);
    if (length(filter.roots) < 500) {
      auto loose = scorer->main_roots(false);
      if (length(loose) > length(filter.roots)) filter.roots = std::move(loose);
    }
    filter.use_roots = !filter.roots.empty();
    if (!filter.use_roots) scorer.reset();  // no block of text at all: the whole page
  }
  if (excluded || scorer) {
    // The roots themselves are kept whatever their names.
    auto roots = std::make_shared<std::unordered_set<xmlNodePtr>>();
    if (scorer) {
      roots->insert(filter.roots.begin(), filter.roots.end());
      scorer->set_roots(filter.roots);
    }
    filter.skip = [excluded, scorer, roots](xmlNodePtr el) {
      return (excluded && excluded->count(el)) ||
             (scorer && !roots->count(el) &&
              (scorer->title_heading(el) || scorer->boilerplate(el)));
    };
  }
  return filter;
}

}  // namespace gleaner::plain
