#pragma once
// A page's HTML as a tree outside the browser: parsed by gumbo (the HTML5 parsing algorithm, so
// implied <tbody>, <p> closed by a block, misnested tags... come out as a browser builds them)
// into a libxml2 document, which gives XPath 1.0 for free. Both roads of POST /scrape/web read
// extractRules from such a document (the browser road from the rendered DOM's outerHTML), so
// their answers are the same by construction.
//
// HTML elements carry no namespace in the tree, so `//div[@id='x']` matches as written; tag and
// attribute names are lower case as the HTML parser makes them.
#include <libxml/tree.h>
#include <libxml/xpath.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"

namespace gleaner::html {

class Document {
 public:
  /// Parses `html` (UTF-8). Never throws on bad markup (HTML has none); only on memory.
  static Document parse(std::string_view html);

  Document(Document&&) noexcept = default;
  Document& operator=(Document&&) noexcept = default;

  xmlDocPtr doc() const { return doc_.get(); }
  /// The <html> element (always there after HTML5 parsing).
  xmlNodePtr root() const;
  /// The <body> element, or root() when there is none (a frameset).
  xmlNodePtr body() const;

 private:
  Document() = default;
  struct DocFree {
    void operator()(xmlDocPtr d) const { xmlFreeDoc(d); }
  };
  std::unique_ptr<xmlDoc, DocFree> doc_;
};

/// The result of an XPath expression: the nodes of a node-set in document order, or the string
/// value of a scalar result (boolean, number, string).
struct XPathResult {
  std::vector<xmlNodePtr> nodes;
  bool scalar = false;
  std::string value;
};

/// A bound on the work the XPath expressions of one request may do. A user's selector
/// (extractRules, includeOnlyTags, excludeTags) can cost time far beyond its length
/// (`//*/following::*/preceding::*`, nested `:has()` over sibling axes) and libxml2 cannot be
/// interrupted by its caller. Two bounds hold it:
/// - steps: libxml2 counts the steps of an evaluation (nodes visited, operations) and stops one
///   past its context's opLimit. Every expression of a request draws on one budget of steps, so the
///   same selectors on the same page always end the same way (a 400 naming the selector);
/// - time: node-set merges and sorts are not counted as steps and can be quadratic in the page, so
///   a watchdog thread stops any evaluation still running at `stop_at` (the request's deadline, or
///   kMaxTime after the budget was made, whichever is first) by exhausting its opLimit, which
///   libxml2 checks between steps (a 504 naming the selector).
class XPathBudget {
 public:
  /// Steps for one request's selectors.
  static constexpr unsigned long kDefaultSteps = 50'000'000;
  /// Time one request's selectors may take, whatever its own timeout.
  static constexpr Millis kMaxTime{5'000};

  /// The budget of a request whose deadline is `deadline`.
  static XPathBudget for_request(Deadline deadline) {
    const Deadline cap = SteadyClock::now() + kMaxTime;
    return XPathBudget(kDefaultSteps, deadline < cap ? deadline : cap);
  }
  XPathBudget(unsigned long steps, Deadline stop_at)
      : limit_(steps), steps_(steps), stop_at_(stop_at) {}

  /// The steps the budget started with.
  unsigned long limit() const { return limit_; }
  unsigned long steps_left() const { return steps_; }
  Deadline stop_at() const { return stop_at_; }
  /// Takes `used` steps off the budget.
  void spend(unsigned long used) { steps_ -= used < steps_ ? used : steps_; }

 private:
  unsigned long limit_;
  unsigned long steps_;
  Deadline stop_at_;
};

/// Evaluates `xpath` with `context` as the context node. Returns an empty result with `error` set
/// when the expression does not compile or evaluate. With a `budget`, the evaluation draws on it:
/// an expression that needs more steps than are left throws Error(InvalidParameter), one still
/// running (or not yet started) at the budget's stop_at Error(Timeout); the caller names the
/// parameter.
XPathResult evaluate_xpath(const Document& doc, xmlNodePtr context, const std::string& xpath,
                           std::string* error, XPathBudget* budget = nullptr);

/// Whether `xpath` compiles as XPath 1.0; otherwise what libxml2 said.
std::string xpath_error(const std::string& xpath);

/// Element children of `node` in order.
std::vector<xmlNodePtr> element_children(xmlNodePtr node);
/// Lower-case local name of an element ("" for other nodes).
std::string_view tag_of(xmlNodePtr node);
/// An attribute's value as written, or nullopt-like "" with `found` false.
std::string attribute(xmlNodePtr node, const char* name, bool* found = nullptr);

/// The text a node holds (textContent), without what <script>, <style>, <template> and
/// <noscript> hold.
std::string text_content(xmlNodePtr node);
/// The node serialized as HTML (outerHTML; an attribute or text node: its value).
std::string outer_html(const Document& doc, xmlNodePtr node);

/// White space trimmed and every run of it (space, tab, CR, LF, FF) made one space.
std::string collapse_whitespace(std::string_view text);

}  // namespace gleaner::html
