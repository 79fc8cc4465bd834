// CSS selectors compiled to XPath, checked by what they select in a parsed page (the selectors'
// meaning, not the XPath text), and the selectors refused with the place named.
#include "extract/html/css_xpath.h"
#include "extract/html/document.h"
#include "extract/html/select.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gleaner::html {
namespace {

const char* kPage = R"html(<!doctype html><html><body>
<div id="main" class="box  wide">
  <h1 title="t">Title</h1>
  <p class="lead">one</p><p>two</p><p lang="en-GB">three</p>
  <ul><li>a</li><li class="x">b</li><li>c</li><li>d</li></ul>
  <a href="/next?page=2" data-kind="Next">next</a>
  <span></span>
  <section><p>nested</p></section>
</div>
<table><tr><td>cell</td></tr></table>
</body></html>)html";

/// The ids, or the texts, of what `css` selects in kPage.
std::vector<std::string> texts(const std::string& css) {
  static const Document doc = Document::parse(kPage);
  std::string error;
  const std::string xpath = css_to_xpath(css, &error);
  EXPECT_FALSE(xpath.empty()) << css << ": " << error;
  std::vector<std::string> out;
  for (xmlNodePtr n : evaluate_xpath(doc, nullptr, xpath, &error).nodes) {
    out.push_back(collapse_whitespace(text_content(n)));
  }
  EXPECT_TRUE(error.empty()) << css << " → " << xpath << ": " << error;
  return out;
}

using V = std::vector<std::string>;

TEST(CssToXpath, TypeIdClassAndCombinators) {
  EXPECT_EQ(texts("h1"), V{"Title"});
  EXPECT_EQ(texts("#main > p"), (V{"one", "two", "three"}));
  EXPECT_EQ(texts("#main p"), (V{"one", "two", "three", "nested"}));
  EXPECT_EQ(texts("p.lead + p"), V{"two"});
  EXPECT_EQ(texts("p.lead ~ p"), (V{"two", "three"}));
  EXPECT_EQ(texts("div.box.wide > h1"), V{"Title"});
  EXPECT_EQ(texts("li.x, h1"), (V{"Title", "b"})) << "a list comes in document order";
  EXPECT_EQ(texts("TD"), V{"cell"}) << "element names are case-insensitive; <tbody> is implied";
  EXPECT_EQ(texts("table > tbody > tr > td"), V{"cell"});
}

TEST(CssToXpath, Attributes) {
  EXPECT_EQ(texts("[title]"), V{"Title"});
  EXPECT_EQ(texts("a[href^='/next']"), V{"next"});
  EXPECT_EQ(texts("a[href$=\"=2\"]"), V{"next"});
  EXPECT_EQ(texts("a[href*=page]"), V{"next"});
  EXPECT_EQ(texts("[class~=wide] > h1"), V{"Title"});
  EXPECT_EQ(texts("p[lang|=en]"), V{"three"});
  EXPECT_EQ(texts("a[data-kind=next i]"), V{"next"});
  EXPECT_TRUE(texts("a[data-kind=next]").empty());
}

TEST(CssToXpath, PseudoClasses) {
  EXPECT_EQ(texts("li:first-child"), V{"a"});
  EXPECT_EQ(texts("li:last-child"), V{"d"});
  EXPECT_EQ(texts("li:nth-child(2n)"), (V{"b", "d"}));
  EXPECT_EQ(texts("li:nth-child(odd)"), (V{"a", "c"}));
  EXPECT_EQ(texts("li:nth-child(-n+2)"), (V{"a", "b"}));
  EXPECT_EQ(texts("li:nth-last-child(1)"), V{"d"});
  EXPECT_EQ(texts("p:nth-of-type(2)"), V{"two"});
  EXPECT_EQ(texts("p:first-of-type"), (V{"one", "nested"}));
  EXPECT_EQ(texts("li:not(.x):not(:first-child)"), (V{"c", "d"}));
  EXPECT_EQ(texts("section:has(> p)"), V{"nested"});
  EXPECT_EQ(texts("p:contains('tw')"), V{"two"});
  EXPECT_EQ(texts("#main > span:empty").size(), 1u);
  EXPECT_EQ(texts(":is(h1, td)"), (V{"Title", "cell"}));
}

TEST(CssToXpath, RefusesWhatItCannotMean) {
  for (const char* bad : {"", "p >", "a[href", "li:nth-child(x)", "p::before", "a:hover",
                          "ns|p", ":first-of-type", "p,", "[=x]"}) {
    std::string error;
    EXPECT_TRUE(css_to_xpath(bad, &error).empty()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(CssToXpath, QuotesInLiterals) {
  EXPECT_EQ(xpath_literal("it's"), "\"it's\"");
  EXPECT_EQ(xpath_literal("a'b\"c"), "concat('a', \"'\", 'b\"c')");
}

// A reader's own selectors, queried below a node as querySelectorAll() queries.
TEST(Selector, QueriesBelowANode) {
  const Document doc = Document::parse(kPage);
  const Selector p("p");
  EXPECT_EQ(p.all(doc).size(), 4u);
  const xmlNodePtr section = Selector("#main section").first(doc);
  ASSERT_NE(section, nullptr);
  ASSERT_EQ(p.all(doc, section).size(), 1u);
  EXPECT_EQ(text_content(p.first(doc, section)), "nested");
  EXPECT_TRUE(contains(section, p.first(doc, section)));
  EXPECT_FALSE(contains(section, p.first(doc)));
  EXPECT_EQ(Selector("section").first(doc, section), nullptr);  // descendants only
  EXPECT_THROW(Selector("p >"), std::logic_error);
}

}  // namespace
}  // namespace gleaner::html
