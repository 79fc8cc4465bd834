// POST /scrape/web's page fetch (extract/web/fetch.h) with the options of conventions.md
// "Interactions, rules, no browser, main content", in real Chromium and through a real egress
// gateway, over live loopback pages (tests/web/interaction_pages.h): jsScenario's steps,
// extractRules run over both roads with the same expected extractedData, main content and the
// content filters on both roads, removeBase64Images, blockUrls, and the plain road's charset and
// redirects. Charging, the 422 and the answers' schema are web_interactions_tests' (the service).
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "extract/web/fetch.h"
#include "extract/web/request.h"
#include "proxies/gateway.h"
#include "tests/content/main_content_pages.h"
#include "tests/support/chromium.h"
#include "tests/support/local_server.h"
#include "tests/web/interaction_pages.h"

namespace gleaner {
namespace {

using nlohmann::json;

/// The pages, a record of the paths requested, and a gateway that lets loopback through.
struct Site {
  Site() {
    server.server().set_pre_routing_handler([this](const httplib::Request& request, httplib::Response&) {
      std::lock_guard lock(mutex);
      paths.push_back(request.path);
      return httplib::Server::HandlerResponse::Unhandled;
    });
    testing::add_interaction_pages(server.server());
    server.start();
  }
  bool requested(const std::string& path) {
    std::lock_guard lock(mutex);
    return std::find(paths.begin(), paths.end(), path) != paths.end();
  }

  std::mutex mutex;  // guards paths
  std::vector<std::string> paths;
  testing::LocalServer server;
  proxies::Gateway gateway{[] {
                             proxies::GatewayOptions options;
                             options.allow_private_addresses = true;
                             return options;
                           }(),
                           nullptr, nullptr};
};

Site& site() {
  static Site* s = new Site;  // lives until exit: the pool's pages may still reach it
  return *s;
}

/// The body fetch_page answers for `request` (with `url` the loaded URL); an error fails the test.
json fetch(json request) {
  request["url"] = site().server.url(request["url"].get<std::string>());
  const web::WebRequest parsed = web::parse_web_request(request.dump(), Millis(30000));
  web::WebServices services{testing::shared_pool(), &site().gateway, nullptr};
  try {
    web::WebResult result =
        web::fetch_page(parsed, proxies::Route::direct(), services, deadline_in(parsed.timeout));
    result.body["url"] = result.url;
    return result.body;
  } catch (const Error& e) {
    ADD_FAILURE() << request.dump() << ": " << code_name(e.code()) << ": " << e.what() << " ["
                  << e.detail() << "]";
    return json::object();
  }
}

/// The error fetch_page throws for `request`.
Error failure(json request) {
  request["url"] = site().server.url(request["url"].get<std::string>());
  const web::WebRequest parsed = web::parse_web_request(request.dump(), Millis(30000));
  web::WebServices services{testing::shared_pool(), &site().gateway, nullptr};
  try {
    web::fetch_page(parsed, proxies::Route::direct(), services, deadline_in(parsed.timeout));
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << request.dump() << " succeeded";
  return Error(ErrorCode::Internal, "no error");
}

// ---- jsScenario ----

TEST(Scenario, LoadMoreIsClickedUntilItIsGone) {
  json body = fetch({{"url", "/load-more"},
                     {"outputFormat", json::array()},
                     {"jsScenario", json::parse(R"J([{"infiniteScroll": {"maxCount": 10, "delay": 150,
                                                      "endClick": "#more"}}])J")},
                     {"extractRules", {{"items", {{"selector", "#items li"}, {"type", "list"}}}}}});
  EXPECT_EQ(body["extractedData"]["items"].size(), 9u) << body.dump();
  EXPECT_EQ(body["extractedData"]["items"].back(), "item 9");
  ASSERT_EQ(body["jsScenarioReport"].size(), 1u);
  EXPECT_EQ(body["jsScenarioReport"][0]["kind"], "infiniteScroll");
  EXPECT_EQ(body["jsScenarioReport"][0]["ok"], true);
}

TEST(Scenario, ClicksOneAtATime) {
  json body = fetch({{"url", "/load-more"},
                     {"outputFormat", json::array()},
                     {"jsScenario", json::parse(R"J([{"click": "#more"}, {"wait": 200},
                                                     {"waitForAndClick": "//button[@id='more']"},
                                                     {"waitFor": "#items li:nth-child(9)"}])J")},
                     {"extractRules", {{"items", {{"selector", "#items li"}, {"type", "list"}}},
                                       {"button", "#more"}}}});
  EXPECT_EQ(body["extractedData"]["items"].size(), 9u) << body.dump();
  EXPECT_TRUE(body["extractedData"]["button"].is_null()) << "removed after the last load";
}

TEST(Scenario, AFormIsFilledAndSubmittedByEnter) {
  json body = fetch({{"url", "/form"},
                     {"jsScenario", json::parse(R"J([{"fill": ["#q", "blue kettle"]}, {"press": "Enter"}])J")},
                     {"extractRules", {{"heading", "h1"}}}});
  EXPECT_EQ(body["extractedData"]["heading"], "Results for blue kettle") << body.dump();
  EXPECT_NE(body.value("url", "").find("/results?q=blue+kettle"), std::string::npos) << body.value("url", "");
}

TEST(Scenario, AFormIsSubmittedByAClickOnXPath) {
  json body = fetch({{"url", "/form"},
                     {"jsScenario", json::parse(R"J([{"fill": ["//input[@name='q']", "red"]},
                                                    {"click": "//button[@type='submit']"}])J")},
                     {"extractRules", {{"heading", "h1"}}}});
  EXPECT_EQ(body["extractedData"]["heading"], "Results for red") << body.dump();
}

TEST(Scenario, AnInfiniteListIsScrolledToItsEnd) {
  json body = fetch({{"url", "/infinite"},
                     {"outputFormat", json::array()},
                     {"jsScenario", json::parse(R"J([{"infiniteScroll": {"maxCount": 30, "delay": 200}}])J")},
                     {"extractRules", {{"rows", {{"selector", ".row"}, {"type", "list"}}}}}});
  EXPECT_EQ(body["extractedData"]["rows"].size(), 50u);
  const json& result = body["jsScenarioReport"][0]["result"];
  EXPECT_EQ(result["stoppedBy"], "end") << result.dump();
  EXPECT_LT(result["scrolls"].get<int>(), 30) << "stopped when the page stopped growing";
}

TEST(Scenario, AFailedStrictStepNamesItsIndex) {
  const Error e = failure({{"url", "/product"},
                           {"timeout", 8000},
                           {"jsScenario", json::parse(R"J([{"scrollY": 100}, {"waitFor": "#absent"}, {"click": "h1"}])J")}});
  EXPECT_EQ(e.code(), ErrorCode::ScenarioFailed) << e.what();
  EXPECT_EQ(e.step().value_or(-1), 1);
}

TEST(Scenario, EvaluateResultsComeInStepOrder) {
  json body = fetch({{"url", "/product"},
                     {"jsScenarioStrict", false},
                     {"jsScenario", json::parse(R"J([
                         {"evaluate": "document.querySelectorAll('.review').length"},
                         {"evaluate": "return [1, 2, 3].map((x) => x * 2)"},
                         {"evaluate": "throw new Error('boom')"},
                         {"evaluate": "new Promise((r) => setTimeout(() => r({ready: true}), 50))"},
                         {"click": "#absent"}])J")}});
  EXPECT_EQ(body["evaluateResults"], json::parse(R"J([2, [2, 4, 6], null, {"ready": true}])J")) << body.dump();
  const json& report = body["jsScenarioReport"];
  ASSERT_EQ(report.size(), 5u);
  EXPECT_NE(report[2]["error"].get<std::string>().find("boom"), std::string::npos) << report.dump();
  EXPECT_EQ(report[4]["ok"], false);
  EXPECT_NE(report[4]["error"].get<std::string>().find("#absent"), std::string::npos);
}

// ---- both roads ----

class BothRoads : public ::testing::TestWithParam<bool> {
 protected:
  json fetch_on_road(json request) {
    request["jsRendering"] = GetParam();
    return fetch(std::move(request));
  }
};

TEST_P(BothRoads, ProductRulesGiveTheSameData) {
  const json rules = {
      {"name", "h1.name"},
      {"next", "a.next @href"},
      {"sku", ".product @data-sku"},
      {"price", {{"selector", ".price"}, {"output", "@content"}}},
      {"tags", {{"selector", ".tags li"}, {"type", "list"}}},
      {"nameHtml", {{"selector", "h1"}, {"output", "html"}}},
      {"reviews", {{"selector", ".review"}, {"type", "list"}, {"output", {{"author", "b"}, {"text", "p"}}}}},
      {"specs", {{"selector", "#specs"}, {"output", "table_json"}}},
      {"specRows", {{"selector", "//table[@id='specs']"}, {"output", "table_array"}}},
      {"missing", ".nothing"},
      {"none", {{"selector", ".nothing"}, {"type", "list"}}},
  };
  json body = fetch_on_road({{"url", "/product"}, {"extractRules", rules}});
  const json expected = json::parse(R"J({
    "name": "Blue Kettle", "next": "/product/2", "sku": "K-42", "price": "19.99",
    "tags": ["kitchen", "steel"], "nameHtml": "<h1 class=\"name\">Blue   Kettle</h1>",
    "reviews": [{"author": "Ann", "text": "Great kettle."}, {"author": "Bob", "text": "Too loud."}],
    "specs": [{"Property": "Volume", "Value": "1.7 l"}, {"Property": "Power", "Value": "2200 W"}],
    "specRows": [["Property", "Value"], ["Volume", "1.7 l"], ["Power", "2200 W"]],
    "missing": null, "none": []})J");
  EXPECT_EQ(body["extractedData"], expected) << body["extractedData"].dump(1);
}

TEST_P(BothRoads, OnlyMainContentKeepsTheArticle) {
  json body = fetch_on_road({{"url", "/article"}, {"outputFormat", {"markdown", "text"}}, {"onlyMainContent", true}});
  for (const char* part : {"text", "markdown"}) {
    const std::string out = body.value(part, "");
    EXPECT_NE(out.find("The river rose overnight"), std::string::npos) << part << ":\n" << out;
    EXPECT_NE(out.find("volunteers, many of them neighbours"), std::string::npos) << part << ":\n" << out;
    for (const char* gone : {"Politics", "Most read", "Copyright", "Share on X", "Sport"}) {
      EXPECT_EQ(out.find(gone), std::string::npos) << gone << " in " << part << ":\n" << out;
    }
  }
}

// The pages of tests/content/main_content_pages.h, each decided by one rule of the main-content
// search: both roads keep and leave out the same (the plain road's controls are in
// tests/rules/plain_test.cpp).
TEST_P(BothRoads, OnlyMainContentRules) {
  for (const auto* page : testing::kMainContentPages) {
    const std::string text =
        fetch_on_road({{"url", page->path}, {"outputFormat", {"text"}}, {"onlyMainContent", true}})
            .value("text", "");
    for (const char* kept : page->kept) {
      EXPECT_NE(text.find(kept), std::string::npos)
          << page->path << ": " << kept << " missing in:\n"
          << text;
    }
    for (const char* gone : page->gone) {
      EXPECT_EQ(text.find(gone), std::string::npos) << page->path << ": " << gone << " kept in:\n"
                                                    << text;
    }
  }
}

TEST_P(BothRoads, IncludeAndExcludeTags) {
  json body = fetch_on_road({{"url", "/article"},
                             {"outputFormat", {"markdown"}},
                             {"includeOnlyTags", {"article"}},
                             {"excludeTags", {".share", "p:nth-of-type(2)"}}});
  EXPECT_EQ(body.value("markdown", ""),
            "# The river rose overnight\n\nResidents of the valley woke to water in their streets, after "
            "a night of rain that the forecasters had called unlikely, unusual, and short.");
}

TEST_P(BothRoads, Base64ImagesLeaveMarkdownUnlessKept) {
  json body = fetch_on_road({{"url", "/inline-image"}, {"outputFormat", {"markdown"}}});
  EXPECT_EQ(body.value("markdown", "").find("data:"), std::string::npos) << body.value("markdown", "");
  body = fetch_on_road({{"url", "/inline-image"}, {"outputFormat", {"markdown"}}, {"removeBase64Images", false}});
  EXPECT_NE(body.value("markdown", "").find("![dot](data:image/png;base64,iVBOR"), std::string::npos)
      << body.value("markdown", "");
}

// Found by the red team (#41): this rule held a thread at 100% CPU for minutes, long after its
// client left. It now stops within the request's evaluation budget (its steps: 400; its time:
// 504), naming the rule.
TEST_P(BothRoads, ASelectorPastTheEvaluationBudgetIsRefusedNamingIt) {
  json request = {{"url", site().server.url("/large")},
                  {"jsRendering", GetParam()},
                  {"extractRules",
                   {{"title", "h1"}, {"costly", "//*/following::*/preceding::*/following::*"}}}};
  const web::WebRequest parsed = web::parse_web_request(request.dump(), Millis(30000));
  web::WebServices services{testing::shared_pool(), &site().gateway, nullptr};
  try {
    web::fetch_page(parsed, proxies::Route::direct(), services, deadline_in(parsed.timeout));
    ADD_FAILURE() << "the rule finished";
  } catch (const Error& e) {
    EXPECT_TRUE(e.code() == ErrorCode::InvalidParameter || e.code() == ErrorCode::Timeout)
        << code_name(e.code()) << ": " << e.what();
    EXPECT_EQ(e.parameter().value_or(""), "extractRules.costly");
  }
}

std::string road_name(const ::testing::TestParamInfo<bool>& road) {
  return road.param ? "Browser" : "Plain";
}
INSTANTIATE_TEST_SUITE_P(Roads, BothRoads, ::testing::Values(true, false), road_name);

// ---- blockUrls ----

TEST(BlockUrls, BlockedUrlsAreNeverRequestedButThePageIs) {
  fetch({{"url", "/with-resources"}, {"blockUrls", {"tracker", "with-resources"}}});
  EXPECT_TRUE(site().requested("/with-resources")) << "the page itself is never blocked";
  EXPECT_TRUE(site().requested("/style.css"));
  EXPECT_FALSE(site().requested("/tracker.js"));
}

// ---- the plain road ----

TEST(PlainRoad, DecodesTheDeclaredCharset) {
  json body = fetch({{"url", "/latin1"}, {"jsRendering", false}, {"outputFormat", {"text", "html"}}});
  EXPECT_EQ(body["text"], "caf\xc3\xa9 cr\xc3\xa8me");
  EXPECT_EQ(body["statusCode"], 200);
  EXPECT_NE(body.value("content", "").find("caf\xc3\xa9"), std::string::npos);
}

TEST(PlainRoad, FollowsRedirectsUpToTen) {
  json body = fetch({{"url", "/hop"}, {"jsRendering", false}, {"extractRules", {{"t", "h1"}}}});
  EXPECT_EQ(body["url"], site().server.url("/product"));
  EXPECT_EQ(body["extractedData"]["t"], "Blue Kettle");
  const Error e = failure({{"url", "/loop/0"}, {"jsRendering", false}});
  EXPECT_EQ(e.code(), ErrorCode::UpstreamError) << e.what();
  EXPECT_TRUE(site().requested("/loop/10"));
  EXPECT_FALSE(site().requested("/loop/11")) << "at most 10 redirects";
}

TEST(PlainRoad, AnIncludeOnlyTagsSelectorPastTheBudgetIsRefusedNamingIt) {
  const Error e = failure({{"url", "/siblings"},
                           {"jsRendering", false},
                           {"outputFormat", {"markdown"}},
                           {"includeOnlyTags", {"div:has(~ div:has(~ div)) span"}}});
  EXPECT_TRUE(e.code() == ErrorCode::InvalidParameter || e.code() == ErrorCode::Timeout)
      << code_name(e.code()) << ": " << e.what();
  EXPECT_EQ(e.parameter().value_or(""), "includeOnlyTags");
}

TEST(PlainRoad, TheSiteStatusDecidesAsOnTheBrowserRoad) {
  EXPECT_EQ(failure({{"url", "/nowhere-404"}, {"jsRendering", false}}).code(), ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner
