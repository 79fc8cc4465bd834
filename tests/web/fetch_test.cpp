// POST /scrape/web's page flow on the scripted tab the site endpoints are tested with
// (tests/support/sites/fake_tab.h): the browser a request asks for, its cookies in the jar, the one
// status check, one snapshot read in an isolated world. The opener's side (gateway, main-document
// diagnosis) is tested in real Chromium: tests/web/service_test.cpp, tests/extract.
#include "extract/web/fetch.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/sites/fake_tab.h"

namespace gleaner::web {
namespace {

using extract::testing::error_of;
using extract::testing::FakeTabs;
using nlohmann::json;

constexpr const char* kUrl = "https://example.com/page";

Deadline soon() { return deadline_in(Millis(10000)); }

WebRequest request_for(const std::string& url) {
  WebRequest request;
  request.url = url;
  return request;
}

// A page whose snapshot (as snapshot.js returns it, the object form) says `html`.
FakeTabs::Page page_with(int status, const std::string& html) {
  FakeTabs::Page page;
  page.navigation = {kUrl, status, {{"content-type", "text/html"}, {"proxy-connection", "close"}}};
  page.evaluated = {{"url", kUrl}, {"baseUrl", kUrl}, {"html", html}};
  return page;
}

TEST(WebFetchOnTabs, TheProfileFollowsTheRequest) {
  WebRequest request = request_for(kUrl);
  request.headers = {{"Accept-Language", "de"}, {"Cookie", "a=1"}};
  extract::BrowserProfile profile = browser_profile(request);
  EXPECT_EQ(profile.headers, (std::map<std::string, std::string>{{"Accept-Language", "de"}}))
      << "cookies go in the jar, never as a header Chromium drops";
  EXPECT_EQ(profile.viewport_width(), 1366);
  EXPECT_EQ(profile.viewport_height(), 768);
  EXPECT_FALSE(profile.load_media);
  EXPECT_FALSE(profile.load_trackers);
  EXPECT_FALSE(profile.painted) << "nothing to paint without a screenshot";

  request.viewport_width = 800;
  request.block_resources = false;
  request.block_ads = false;
  request.screenshot = true;
  profile = browser_profile(request);
  EXPECT_EQ(profile.viewport_width(), 800);
  EXPECT_EQ(profile.viewport_height(), 768);
  EXPECT_TRUE(profile.load_media);
  EXPECT_TRUE(profile.load_trackers);
  EXPECT_TRUE(profile.painted);
}

TEST(WebFetchOnTabs, CookiesGoInTheJarForThePage) {
  FakeTabs tabs;
  tabs.serve_page(kUrl, page_with(200, "<p>hi</p>"));
  WebRequest request = request_for(kUrl);
  request.headers = {{"cookie", "session=abc; theme=dark;  ; =nameless; flag"}};
  read_web_page(request, tabs, nullptr, soon());
  ASSERT_EQ(tabs.cookie_jars.size(), 1u);
  EXPECT_EQ(tabs.cookie_jars[0].first, kUrl);
  const auto& cookies = tabs.cookie_jars[0].second;
  ASSERT_EQ(cookies.size(), 2u);
  EXPECT_EQ(cookies[0].name, "session");
  EXPECT_EQ(cookies[0].value, "abc");
  EXPECT_EQ(cookies[1].name, "theme");
  EXPECT_EQ(cookies[1].value, "dark");

  FakeTabs without;
  without.serve_page(kUrl, page_with(200, "<p>hi</p>"));
  read_web_page(request_for(kUrl), without, nullptr, soon());
  EXPECT_TRUE(without.cookie_jars.empty());
}

TEST(WebFetchOnTabs, OneSnapshotInAWorldOfItsOwn) {
  FakeTabs tabs;
  tabs.serve_page(kUrl, page_with(200, "<p>the page</p>"));
  const WebResult result = read_web_page(request_for(kUrl), tabs, nullptr, soon());
  EXPECT_EQ(result.url, kUrl);
  EXPECT_EQ(result.body["statusCode"], 200);
  EXPECT_EQ(result.body["content"], "<p>the page</p>");
  EXPECT_EQ(result.body["headers"], (json{{"content-type", "text/html"}}))
      << "what a proxy added is not the site's answer";
  ASSERT_EQ(tabs.expressions.size(), 1u);
  EXPECT_EQ(tabs.worlds[0], extract::World::Isolated);
  EXPECT_EQ(tabs.loaded, std::vector<std::string>{kUrl});
}

TEST(WebFetchOnTabs, TheOneStatusCheckDecides) {
  const std::vector<std::pair<int, ErrorCode>> errors = {
      {404, ErrorCode::NotFound},        {410, ErrorCode::NotFound},
      {401, ErrorCode::UpstreamBlocked}, {403, ErrorCode::UpstreamBlocked},
      {407, ErrorCode::UpstreamBlocked}, {429, ErrorCode::UpstreamBlocked},
      {500, ErrorCode::UpstreamError},   {503, ErrorCode::UpstreamError}};
  for (const auto& [status, code] : errors) {
    FakeTabs tabs;
    tabs.serve_page(kUrl, page_with(status, "<p>no</p>"));
    EXPECT_EQ(error_of([&] { read_web_page(request_for(kUrl), tabs, nullptr, soon()); }).code(),
              code)
        << status;
    EXPECT_TRUE(tabs.expressions.empty()) << status << ": nothing read of an error page";
  }
  // Any other page is the page asked for, with its status: a generic fetch returns it.
  for (const int status : {400, 418, 451}) {
    FakeTabs tabs;
    tabs.serve_page(kUrl, page_with(status, "<p>teapot</p>"));
    const WebResult result = read_web_page(request_for(kUrl), tabs, nullptr, soon());
    EXPECT_EQ(result.body["statusCode"], status);
    EXPECT_EQ(result.body["content"], "<p>teapot</p>");
  }
  // A challenge wall says so in a header, whatever its status.
  FakeTabs tabs;
  FakeTabs::Page wall = page_with(200, "<p>checking your browser</p>");
  wall.navigation.headers["cf-mitigated"] = "challenge";
  tabs.serve_page(kUrl, wall);
  EXPECT_EQ(error_of([&] { read_web_page(request_for(kUrl), tabs, nullptr, soon()); }).code(),
            ErrorCode::UpstreamBlocked);
}

TEST(WebFetchOnTabs, AScreenshotWithoutTheServiceIsUnavailable) {
  FakeTabs tabs;
  tabs.serve_page(kUrl, page_with(200, "<p>hi</p>"));
  WebRequest request = request_for(kUrl);
  request.screenshot = true;
  EXPECT_EQ(error_of([&] { read_web_page(request, tabs, nullptr, soon()); }).code(),
            ErrorCode::Unavailable);
}

}  // namespace
}  // namespace gleaner::web
