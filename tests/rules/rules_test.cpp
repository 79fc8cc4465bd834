// extractRules over parsed HTML: shorthand and full forms, every output kind, XPath, `clean`,
// nested rules, tables, no match, and each malformed rule refused with its path.
#include "extract/rules/rules.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace gleaner::rules {
namespace {

using nlohmann::json;

const char* kProduct = R"html(<!doctype html><html><head><title>Shop</title></head><body>
<div class="product" data-sku="A-1">
  <h1 class="name">  Blue
     Kettle </h1>
  <span class="price" content="19.99">$19.99</span>
  <a class="next" href="/p/2">next</a>
  <ul class="tags"><li>kitchen</li><li>blue</li><li>steel</li></ul>
  <div class="review"><b>Ann</b><p>Great kettle.</p></div>
  <div class="review"><b>Bob</b><p>Too loud.</p></div>
  <img class="photo" src="/k.jpg">
</div>
<table id="specs">
  <thead><tr><th>Property</th><th>Value</th></tr></thead>
  <tbody><tr><td>Volume</td><td>1.7 l</td></tr><tr><td>Power</td><td>2200 W</td></tr></tbody>
</table>
<table id="bare"><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table>
</body></html>)html";

json run(const json& rules) {
  static const html::Document doc = html::Document::parse(kProduct);
  html::XPathBudget budget = html::XPathBudget::for_request(deadline_in(Millis(60'000)));
  return apply_rules(parse_rules(rules, "extractRules"), doc, budget);
}

TEST(ExtractRules, ShorthandTextAndAttribute) {
  json out = run({{"name", "h1.name"}, {"next", "a.next @href"}, {"sku", ".product @data-sku"},
                  {"missing", ".nothing"}, {"missingAttr", "h1 @href"}});
  EXPECT_EQ(out["name"], "Blue Kettle") << "trimmed and collapsed";
  EXPECT_EQ(out["next"], "/p/2") << "the attribute as written";
  EXPECT_EQ(out["sku"], "A-1");
  EXPECT_TRUE(out["missing"].is_null());
  EXPECT_TRUE(out["missingAttr"].is_null());
}

TEST(ExtractRules, FullFormOutputs) {
  json out = run({
      {"tags", {{"selector", ".tags li"}, {"type", "list"}}},
      {"none", {{"selector", ".nothing"}, {"type", "list"}}},
      {"price", {{"selector", ".price"}, {"output", "@content"}}},
      {"raw", {{"selector", "h1"}, {"clean", false}}},
      {"tagsHtml", {{"selector", ".tags"}, {"output", "html"}}},
      {"photos", {{"selector", "img"}, {"type", "list"}, {"output", "@src"}}},
  });
  EXPECT_EQ(out["tags"], json({"kitchen", "blue", "steel"}));
  EXPECT_EQ(out["none"], json::array());
  EXPECT_EQ(out["price"], "19.99");
  EXPECT_EQ(out["raw"], "  Blue\n     Kettle ");
  EXPECT_EQ(out["tagsHtml"], "<ul class=\"tags\"><li>kitchen</li><li>blue</li><li>steel</li></ul>");
  EXPECT_EQ(out["photos"], json({"/k.jpg"}));
}

TEST(ExtractRules, NestedRulesAreEvaluatedInsideEachMatch) {
  json out = run({{"reviews",
                   {{"selector", ".review"},
                    {"type", "list"},
                    {"output", {{"author", "b"}, {"text", "p"}, {"link", "a @href"}}}}}});
  EXPECT_EQ(out["reviews"], json::parse(R"([{"author":"Ann","text":"Great kettle.","link":null},
                                            {"author":"Bob","text":"Too loud.","link":null}])"));
}

TEST(ExtractRules, Tables) {
  json out = run({{"specs", {{"selector", "#specs"}, {"output", "table_json"}}},
                  {"rows", {{"selector", "#specs"}, {"output", "table_array"}}},
                  {"bare", {{"selector", "#bare"}, {"output", "table_json"}}},
                  {"all", {{"selector", "table"}, {"type", "list"}, {"output", "table_array"}}}});
  EXPECT_EQ(out["specs"], json::parse(R"([{"Property":"Volume","Value":"1.7 l"},
                                          {"Property":"Power","Value":"2200 W"}])"));
  EXPECT_EQ(out["rows"], json::parse(R"([["Property","Value"],["Volume","1.7 l"],["Power","2200 W"]])"));
  EXPECT_EQ(out["bare"], json::parse(R"([{"x":"1","y":"2"}])")) << "no header row: the first row";
  EXPECT_EQ(out["all"].size(), 2u);
}

TEST(ExtractRules, XPathSelectors) {
  json out = run({{"name", "//h1"},
                  {"href", "//a[@class='next']/@href"},
                  {"count", "(count(//li))"},
                  {"second", {{"selector", "(//li)[2]"}}},
                  {"inReview", {{"selector", "//div[@class='review']"}, {"type", "list"},
                                {"output", {{"who", "./b"}}}}}});
  EXPECT_EQ(out["name"], "Blue Kettle");
  EXPECT_EQ(out["href"], "/p/2");
  EXPECT_EQ(out["count"], "3");
  EXPECT_EQ(out["second"], "blue");
  EXPECT_EQ(out["inReview"], json::parse(R"([{"who":"Ann"},{"who":"Bob"}])"));
}

/// The parameter named by the 400 `rules` cause.
std::string fault(const json& rules) {
  try {
    parse_rules(rules, "extractRules");
  } catch (const Error& e) {
    EXPECT_EQ(e.code() == ErrorCode::InvalidParameter || e.code() == ErrorCode::MissingParameter, true);
    return e.parameter().value_or("<none>");
  }
  return "<parsed>";
}

TEST(ExtractRules, MalformedRulesNameTheirPath) {
  EXPECT_EQ(fault(json::array()), "extractRules");
  EXPECT_EQ(fault(json::object()), "extractRules");
  EXPECT_EQ(fault({{"price", 3}}), "extractRules.price");
  EXPECT_EQ(fault({{"price", "p >"}}), "extractRules.price");
  EXPECT_EQ(fault({{"price", {{"selector", "a:hover"}}}}), "extractRules.price.selector");
  EXPECT_EQ(fault({{"price", {{"type", "list"}}}}), "extractRules.price.selector");
  EXPECT_EQ(fault({{"price", {{"selector", "p"}, {"type", "many"}}}}), "extractRules.price.type");
  EXPECT_EQ(fault({{"price", {{"selector", "p"}, {"output", "json"}}}}), "extractRules.price.output");
  EXPECT_EQ(fault({{"price", {{"selector", "p"}, {"clean", "yes"}}}}), "extractRules.price.clean");
  EXPECT_EQ(fault({{"price", {{"selector", "p"}, {"colour", 1}}}}), "extractRules.price.colour");
  EXPECT_EQ(fault({{"items", {{"selector", "li"}, {"output", {{"name", {{"selector", "//b["}}}}}}}}),
            "extractRules.items.output.name.selector");
  json deep = {{"selector", "p"}};
  for (int i = 0; i < kMaxDepth; ++i) deep = {{"selector", "p"}, {"output", {{"x", deep}}}};
  EXPECT_NE(fault({{"deep", deep}}), "<parsed>");
}

/// A page of `n` nested and sibling divs, as large pages are: 20,000 elements.
const html::Document& large_page() {
  static const html::Document doc = [] {
    std::string page = "<!doctype html><html><body>";
    for (int i = 0; i < 200; ++i) {
      page += "<div>";
      for (int j = 0; j < 100; ++j) page += "<div><span>x</span></div>";
      page += "</div>";
    }
    return html::Document::parse(page + "</body></html>");
  }();
  return doc;
}

/// 20,000 sibling divs: where sibling combinators inside :has() are at their worst.
const html::Document& flat_page() {
  static const html::Document doc = [] {
    std::string page = "<!doctype html><html><body>";
    for (int i = 0; i < 20'000; ++i) page += "<div><span>x</span></div>";
    return html::Document::parse(page + "</body></html>");
  }();
  return doc;
}

/// The error `rules` end in over `page`, with its parameter; "<finished>" when they finish.
std::pair<ErrorCode, std::string> overrun(const json& rules, html::XPathBudget& budget,
                                          const html::Document& page = large_page()) {
  try {
    apply_rules(parse_rules(rules, "extractRules"), page, budget);
  } catch (const Error& e) {
    return {e.code(), e.parameter().value_or("<none>")};
  }
  return {ErrorCode::Internal, "<finished>"};
}

// Found by the red team (#41): these ran for minutes at 100% CPU, holding an admission slot. Under
// a request's budget they end, with the rule named: on its steps or on its time, whichever runs
// out first (libxml2 does not count node-set merges as steps).
TEST(ExtractRules, ASelectorThatWouldRunForMinutesEndsWithinTheBudgetNamingItsRule) {
  for (const auto& [selector, page] :
       {std::pair{"//*/following::*/preceding::*/following::*", &large_page()},
        std::pair{"div:has(~ div:has(~ div)) span", &flat_page()}}) {
    html::XPathBudget budget = html::XPathBudget::for_request(deadline_in(Millis(600'000)));
    const auto [code, parameter] =
        overrun({{"cheap", "body > div"}, {"costly", selector}}, budget, *page);
    EXPECT_TRUE(code == ErrorCode::InvalidParameter || code == ErrorCode::Timeout)
        << selector << ": " << code_name(code);
    EXPECT_EQ(parameter, "extractRules.costly") << selector;
  }
}

TEST(ExtractRules, TheWatchdogStopsAnEvaluationAtItsTimeWhateverItsSteps) {
  html::XPathBudget budget(~0UL / 2, deadline_in(Millis(300)));
  EXPECT_EQ(overrun({{"costly", "//*/following::*/preceding::*/following::*"}}, budget),
            std::make_pair(ErrorCode::Timeout, std::string("extractRules.costly")));
  // The watchdog serves the next evaluation as well.
  html::XPathBudget again(~0UL / 2, deadline_in(Millis(300)));
  EXPECT_EQ(overrun({{"also", "div:has(~ div:has(~ div)) span"}}, again, flat_page()),
            std::make_pair(ErrorCode::Timeout, std::string("extractRules.also")));
}

TEST(ExtractRules, RulesShareOneBudgetOfStepsAndAPassedDeadlineIsATimeout) {
  // Each rule alone fits; together they overrun, and the error names the one that did.
  html::XPathBudget first(html::XPathBudget::kDefaultSteps, deadline_in(Millis(600'000)));
  EXPECT_NO_THROW(apply_rules(parse_rules({{"a", "span"}}, "extractRules"), large_page(), first));
  const unsigned long one_rule = html::XPathBudget::kDefaultSteps - first.steps_left();
  ASSERT_GT(one_rule, 0u);
  html::XPathBudget small(one_rule * 2 + one_rule / 2, deadline_in(Millis(600'000)));
  EXPECT_EQ(overrun({{"a", "span"}, {"b", "span"}, {"c", "span"}}, small),
            std::make_pair(ErrorCode::InvalidParameter, std::string("extractRules.c")));

  html::XPathBudget late(html::XPathBudget::kDefaultSteps, SteadyClock::now() - Millis(1));
  EXPECT_EQ(overrun({{"a", "span"}}, late).first, ErrorCode::Timeout);
}

TEST(ExtractRules, ValuesPastTheSizeLimitAreRefusedNamingTheRule) {
  // Every element's html: quadratic in the nesting of the page.
  std::string page = "<!doctype html><html><body>";
  for (int i = 0; i < 3000; ++i) page += "<div>" + std::string(100, 'x');
  const html::Document doc = html::Document::parse(page + "</body></html>");
  html::XPathBudget budget = html::XPathBudget::for_request(deadline_in(Millis(600'000)));
  try {
    apply_rules(parse_rules({{"all", {{"selector", "div"}, {"type", "list"}, {"output", "html"}}}},
                            "extractRules"),
                doc, budget);
    FAIL() << "finished";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    EXPECT_EQ(e.parameter().value_or(""), "extractRules.all");
  }
}

}  // namespace
}  // namespace gleaner::rules
