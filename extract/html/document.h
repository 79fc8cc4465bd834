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

/// Evaluates `xpath` with `context` as the context node. Returns nullopt-like empty result with
/// `error` set when the expression does not compile or evaluate.
XPathResult evaluate_xpath(const Document& doc, xmlNodePtr context, const std::string& xpath,
                           std::string* error);

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
