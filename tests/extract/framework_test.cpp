// The pieces every endpoint shares: URL encoding, block detection and the page
// flow (navigate → check → read → shape) over a scripted tab.
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/block_detection.h"
#include "extract/endpoint.h"
#include "extract/page_reader.h"
#include "extract/url.h"
#include "tests/support/sites/fake_tab.h"

namespace gleaner::extract {
namespace {

using testing::error_of;
using testing::FakeTabs;
using testing::ordinary_page_signals;

// --- URLs -----------------------------------------------------------------------------------

TEST(Url, FormEncodingAsBrowsersSendIt) {
  EXPECT_EQ(form_encode("dell xps 13 buy"), "dell+xps+13+buy");
  EXPECT_EQ(form_encode("a&b=c+d/é"), "a%26b%3Dc%2Bd%2F%C3%A9");
  EXPECT_EQ(form_encode("safe-_.~"), "safe-_.~");
  EXPECT_EQ(path_encode("a b/c"), "a%20b%2Fc");
  EXPECT_EQ(form_decode("a+b%2Fc%C3%A9"), "a b/cé");
}

TEST(Url, QueryValueAsUrlSearchParamsGetsIt) {
  const std::string redirect = "https://www.google.com/url?q=https://x.test/a%3Fb%3D1&sa=U&url=&q=2";
  EXPECT_EQ(query_value(redirect, "q"), "https://x.test/a?b=1");  // the first, decoded
  EXPECT_EQ(query_value(redirect, "url"), "");
  EXPECT_EQ(query_value(redirect, "ved"), std::nullopt);
  EXPECT_EQ(query_value("https://x.test/s?q=a+b#q=c", "q"), "a b");
  EXPECT_EQ(query_value("https://x.test/s?flag&n=1", "flag"), "");
  EXPECT_EQ(query_value("https://x.test/s#q=c", "q"), std::nullopt);
}

TEST(Url, BuilderKeepsOrderAndRawValues) {
  UrlBuilder url("https://www.google.com/search");
  url.add("q", "top hotels").add_raw("ibp", "htl;events").add("gl", "uk");
  EXPECT_EQ(url.str(), "https://www.google.com/search?q=top+hotels&ibp=htl;events&gl=uk");
  EXPECT_EQ(UrlBuilder("https://x.test/p?a=1").add("b", "2").str(), "https://x.test/p?a=1&b=2");
  EXPECT_EQ(UrlBuilder("https://x.test/").add_raw("h", "a b&c").str(),
            "https://x.test/?h=a%20b%26c");
}

// --- Block detection ------------------------------------------------------------------------

TEST(BlockDetection, NavigationStatuses) {
  EXPECT_NO_THROW(check_navigation({"https://www.google.com/search?q=x", 200, {}}));
  EXPECT_NO_THROW(check_navigation({"https://www.google.com/search?q=x", 0, {}}));
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/a", 404, {}});
            }).code(),
            ErrorCode::NotFound);
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/a", 429, {}});
            }).code(),
            ErrorCode::UpstreamBlocked);
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/a", 403, {}});
            }).code(),
            ErrorCode::UpstreamBlocked);
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/a", 503, {}});
            }).code(),
            ErrorCode::UpstreamError);
  EXPECT_EQ(error_of([] {
              check_navigation({"https://www.google.com/sorry/index?continue=x", 200, {}});
            }).code(),
            ErrorCode::UpstreamBlocked);
}

TEST(BlockDetection, WallHeadersAreBlocksWhateverTheStatus) {
  // Cloudflare marks its challenges with cf-mitigated; AWS WAF answers a challenge with 202.
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/", 403, {{"cf-mitigated", "challenge"}}});
            }).code(),
            ErrorCode::UpstreamBlocked);
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/", 202, {{"x-amzn-waf-action", "challenge"}}});
            }).code(),
            ErrorCode::UpstreamBlocked);
  EXPECT_NO_THROW(check_navigation({"https://x.test/", 200, {{"cf-ray", "9d31"}}}));
  // Vercel's Security Checkpoint and Yandex's captcha say so in a header too.
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/", 200, {{"x-vercel-mitigated", "challenge"}}},
                               PageKind::AnyPage);
            }).code(),
            ErrorCode::UpstreamBlocked);
  EXPECT_EQ(error_of([] {
              check_navigation({"https://x.test/", 200, {{"x-yandex-captcha", "captcha"}}});
            }).code(),
            ErrorCode::UpstreamBlocked);
  EXPECT_NO_THROW(check_navigation({"https://x.test/", 200, {{"x-vercel-cache", "HIT"}}}));
}

TEST(BlockDetection, WallsOfOtherVendorsByTitleAndWords) {
  // Block pages as wafw00f's and identYwaf's signatures quote them (docs/endpoints/README.md).
  auto short_page = [](const std::string& title, const std::string& text) {
    nlohmann::json s = ordinary_page_signals("https://x.test/");
    s["title"] = title;
    s["text"] = text;
    s["textLength"] = static_cast<long long>(text.size());
    return wall_reason(s);
  };
  for (const char* title :
       {"Request Rejected", "Vercel Security Checkpoint", "Sucuri WebSite Firewall - Access Denied",
        "Visitor anti-robot validation", "DDoS-Guard", "Unauthorized Request Blocked"}) {
    SCOPED_TRACE(title);
    EXPECT_TRUE(short_page(title, "x"));
  }
  for (const char* text :
       {"the requested url was rejected. please consult with your administrator. your support id "
        "is: 14517474674167111961 [go back]",
        "access denied - sucuri website firewall",
        "you are seeing this page because we have detected unauthorized activity.",
        "you performed an action that triggered the service and blocked your request.",
        "this response was generated by wordfence.", "security check by bitninja.com",
        "our system thinks you might be a robot! please solve the captcha.",
        "sorry, your request has been blocked as it may cause potential threats to the server's "
        "security.",
        "ddos protection by ddos-guard"}) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(short_page("Shop", text));
  }
  EXPECT_FALSE(short_page("Request for proposals", "the requested documents are listed below."));
}

TEST(BlockDetection, WhileAPageLoadsOnlyACertainWallCounts) {
  // wall_reason ends a selector wait early: an application's shell, empty or with a weak marker,
  // may still render into the page, a strong marker or a challenge title will not.
  nlohmann::json s = ordinary_page_signals("https://www.google.com/maps/search/x");
  EXPECT_EQ(wall_reason(s), std::nullopt);
  s["textLength"] = 0;
  s["elementCount"] = 2;
  EXPECT_EQ(wall_reason(s), std::nullopt);
  EXPECT_TRUE(block_reason(s));
  s["walls"] = {{{"vendor", "recaptcha"}, {"marker", "iframe"}, {"strong", false}}};
  EXPECT_EQ(wall_reason(s), std::nullopt);
  s["walls"] = {{{"vendor", "datadome"}, {"marker", "iframe"}, {"strong", true}}};
  EXPECT_EQ(wall_reason(s), "datadome wall (iframe) on a page of 0 characters, 2 elements");
  EXPECT_EQ(wall_reason(s), block_reason(s));
  s["walls"] = nlohmann::json::array();
  s["url"] = "https://consent.google.com/ml?continue=x";
  EXPECT_TRUE(wall_reason(s));
  EXPECT_EQ(wall_reason(nlohmann::json()), std::nullopt);
}

TEST(BlockDetection, APageThatNeverSettledOrCameWithAnErrorIsAWallOnlyByItsMarks) {
  // marked_wall judges such a page (read_page): an empty page is no wall there (an error page
  // often is one), a weak marker on a thin page and a strong one anywhere are.
  nlohmann::json s = ordinary_page_signals("https://www.google.com/search?q=x");
  s["textLength"] = 0;
  s["elementCount"] = 2;
  EXPECT_EQ(marked_wall(s), std::nullopt);
  EXPECT_EQ(block_reason(s), "empty page");
  s["walls"] = {{{"vendor", "google"}, {"marker", "noscript enablejs"}, {"strong", false}}};
  EXPECT_EQ(marked_wall(s), "google wall (noscript enablejs) on a page of 0 characters, 2 elements");
  EXPECT_EQ(marked_wall(s), block_reason(s));
  // The same weak marker on a short page the endpoint recognized as its own (a results page of
  // one result, 2026): no wall; a strong marker there still is one.
  s["textLength"] = 700;
  s["elementCount"] = 700;
  EXPECT_TRUE(block_reason(s));
  EXPECT_EQ(block_reason(s, false, /*recognized=*/true), std::nullopt);
  s["walls"][0]["strong"] = true;
  EXPECT_TRUE(block_reason(s, false, /*recognized=*/true));
  s["walls"][0]["strong"] = false;
  s["textLength"] = 50000;  // a weak marker on a whole page: the site's ordinary page
  EXPECT_EQ(marked_wall(s), std::nullopt);
  s["walls"][0]["strong"] = true;
  EXPECT_TRUE(marked_wall(s));
  EXPECT_EQ(marked_wall(nlohmann::json()), std::nullopt);
  // Where the <noscript> refresh of Google's JavaScript check leads: a wall by its address.
  nlohmann::json refreshed = ordinary_page_signals(
      "https://www.google.com/httpservice/retry/enablejs?sei=iNaNab2dB7Cn0PEP64GluAE");
  EXPECT_TRUE(marked_wall(refreshed));
}

TEST(BlockDetection, OrdinaryPagePasses) {
  EXPECT_EQ(block_reason(ordinary_page_signals("https://www.google.com/search?q=x")), std::nullopt);
}

TEST(BlockDetection, RecognisesBlockPages) {
  auto with = [](std::function<void(nlohmann::json&)> change) {
    nlohmann::json s = ordinary_page_signals("https://www.google.com/search?q=x");
    change(s);
    return block_reason(s);
  };
  // A strong marker of a vendor's wall decides on any page; a weak one (also seen on ordinary
  // pages of protected sites) only on a page with next to no text.
  EXPECT_TRUE(with([](auto& s) {
    s["walls"] = {{{"vendor", "perimeterx"}, {"marker", "#px-captcha"}, {"strong", true}}};
  }));
  EXPECT_FALSE(with([](auto& s) {
    s["walls"] = {{{"vendor", "recaptcha"}, {"marker", "iframe"}, {"strong", false}}};
  }));
  EXPECT_TRUE(with([](auto& s) {
    s["walls"] = {{{"vendor", "recaptcha"}, {"marker", "iframe"}, {"strong", false}}};
    s["textLength"] = 300;
  }));
  // An endpoint that read its data from a page without text yet: the page is not empty, but a
  // wall still decides.
  {
    nlohmann::json s = ordinary_page_signals("https://www.youtube.com/watch?v=x");
    s["textLength"] = 0;
    EXPECT_TRUE(block_reason(s));
    EXPECT_FALSE(block_reason(s, /*data_without_text=*/true));
    s["walls"] = {{{"vendor", "recaptcha"}, {"marker", "iframe"}, {"strong", false}}};
    EXPECT_FALSE(block_reason(s, true));
    s["walls"] = {{{"vendor", "datadome"}, {"marker", "iframe"}, {"strong", true}}};
    EXPECT_TRUE(block_reason(s, true));
  }
  EXPECT_TRUE(with([](auto& s) { s["url"] = "https://consent.google.com/ml?continue=x"; }));
  // An endpoint that recognized its page (Google's short "did not match" page, which in the EU
  // carries the consent dialog): the dialog is no wall, but a vendor's wall or a consent host is.
  {
    nlohmann::json s = ordinary_page_signals("https://www.google.com/search?q=x");
    s["consentForm"] = true;
    s["textLength"] = 900;
    EXPECT_TRUE(block_reason(s));
    EXPECT_FALSE(block_reason(s, false, /*recognized=*/true));
    s["walls"] = {{{"vendor", "perimeterx"}, {"marker", "#px-captcha"}, {"strong", true}}};
    EXPECT_TRUE(block_reason(s, false, true));
    s["walls"] = nlohmann::json::array();
    s["url"] = "https://consent.google.com/ml?continue=x";
    EXPECT_TRUE(block_reason(s, false, true));
  }
  EXPECT_TRUE(with([](auto& s) { s["title"] = "Just a moment..."; }));
  EXPECT_TRUE(with([](auto& s) {
    s["text"] = "our systems have detected unusual traffic from your computer network.";
    s["textLength"] = 400;
  }));
  EXPECT_TRUE(with([](auto& s) {
    s["text"] =
        "before you continue to google we use cookies and data to ... reject all accept all";
    s["textLength"] = 900;
  }));
  EXPECT_TRUE(with([](auto& s) {
    s["consentForm"] = true;
    s["textLength"] = 900;
  }));
  EXPECT_TRUE(with([](auto& s) { s["textLength"] = 0; }));
  EXPECT_TRUE(with([](auto& s) { s["elementCount"] = 3; }));
  EXPECT_FALSE(block_reason(nlohmann::json::object()) == std::nullopt);
  // A long real page that mentions a phrase or has a cookie form is not a block page.
  EXPECT_FALSE(with([](auto& s) {
    s["text"] = "access denied: a film review";
    s["consentForm"] = true;
  }));
}

// --- The page flow ------------------------------------------------------------------------------

// A minimal endpoint over the scripted tab: the framework's flow with nothing site-specific.
class EchoEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "test/echo"; }
  std::int64_t default_cost() const override { return 1; }
  std::vector<std::string> fields() const override { return {"items"}; }
  const Parameters& parameters() const override {
    static const Parameters params{{Param::string("q").required()}};
    return params;
  }
  PageRequest build_request(const ValidatedParams& p) const override {
    PageRequest r;
    r.url = UrlBuilder("https://site.test/search").add("q", *p.string("q")).str();
    r.script_args = {{"q", *p.string("q")}};
    return r;
  }
  std::string_view script() const override { return "(args) => ({items: [args.q]});"; }
  nlohmann::json shape(const nlohmann::json& out, const ValidatedParams&) const override {
    return {{"items", out.value("items", nlohmann::json::array())}};
  }
};

TEST(PageFlow, ReadsAndShapes) {
  EchoEndpoint endpoint;
  FakeTabs tabs;
  tabs.serve("https://site.test/search?q=a+b", {{"items", {"a b"}}});
  auto params = endpoint.validate({{"q", "a b"}});
  auto result = endpoint.fetch(params, tabs, deadline_in(Millis(1000)));
  EXPECT_EQ(result.url, "https://site.test/search?q=a+b");
  EXPECT_EQ(result.body["items"][0], "a b");
  ASSERT_EQ(tabs.expressions.size(), 1u);
  // The block check and the script run in one expression with the script's arguments.
  EXPECT_NE(tabs.expressions[0].find("const VENDORS"), std::string::npos);
  EXPECT_NE(tabs.expressions[0].find("(args) => ({items: [args.q]})\n)({\"q\":\"a b\"}, kit)"),
            std::string::npos);
  // In a world of its own unless the endpoint asks for the page's.
  EXPECT_EQ(tabs.worlds, std::vector<World>{World::Isolated});
}

TEST(PageFlow, APageWithoutDataIsExtractionFailedNotAnEmptySuccessNorABlock) {
  // An ordinary page (plenty of text, no wall) whose data the script does not find.
  EchoEndpoint endpoint;
  FakeTabs tabs;
  tabs.serve("https://site.test/search?q=x", {{"items", nlohmann::json::array()}});
  auto e = error_of([&] {
    endpoint.fetch(endpoint.validate({{"q", "x"}}), tabs, deadline_in(Millis(1000)));
  });
  EXPECT_EQ(e.code(), ErrorCode::ExtractionFailed);
  EXPECT_EQ(http_status(e.code()), 502);
}

TEST(PageFlow, APageWithoutTextIsStillAWall) {
  // The wall decision is the block check's alone: the same empty reading on a page that shows
  // no text is upstream_blocked.
  EchoEndpoint endpoint;
  FakeTabs tabs;
  FakeTabs::Page page;
  page.navigation = {"https://site.test/search?q=x", 200, {}};
  auto signals = ordinary_page_signals(page.navigation.url);
  signals["text"] = "";
  signals["textLength"] = 0;
  signals["elementCount"] = 5;
  page.evaluated = {
      {"signals", signals}, {"data", {{"items", nlohmann::json::array()}}}, {"error", nullptr}};
  tabs.serve_page(page.navigation.url, page);
  auto e = error_of([&] {
    endpoint.fetch(endpoint.validate({{"q", "x"}}), tabs, deadline_in(Millis(1000)));
  });
  EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
}

TEST(PageFlow, BlockSignalsWin) {
  EchoEndpoint endpoint;
  FakeTabs tabs;
  FakeTabs::Page page;
  page.navigation = {"https://site.test/search?q=x", 200, {}};
  auto signals = ordinary_page_signals(page.navigation.url);
  signals["walls"] = {{{"vendor", "google"}, {"marker", "#captcha-form"}, {"strong", true}}};
  page.evaluated = {{"signals", signals}, {"data", {{"items", {"x"}}}}, {"error", nullptr}};
  tabs.serve_page(page.navigation.url, page);
  auto e = error_of([&] {
    endpoint.fetch(endpoint.validate({{"q", "x"}}), tabs, deadline_in(Millis(1000)));
  });
  EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
}

TEST(PageFlow, MissingPageIsNotFoundAndScriptErrorIsExtractionFailed) {
  EchoEndpoint endpoint;
  FakeTabs tabs;
  auto e = error_of([&] {
    endpoint.fetch(endpoint.validate({{"q", "x"}}), tabs, deadline_in(Millis(1000)));
  });
  EXPECT_EQ(e.code(), ErrorCode::NotFound);

  FakeTabs::Page page;
  page.navigation = {"https://site.test/search?q=y", 200, {}};
  page.evaluated = {{"signals", ordinary_page_signals(page.navigation.url)},
                    {"data", nullptr},
                    {"error", "TypeError: x is null"}};
  tabs.serve_page(page.navigation.url, page);
  e = error_of([&] {
    endpoint.fetch(endpoint.validate({{"q", "y"}}), tabs, deadline_in(Millis(1000)));
  });
  // No wall, but markup the script cannot read: a layout it does not know.
  EXPECT_EQ(e.code(), ErrorCode::ExtractionFailed);
  EXPECT_NE(e.detail().find("TypeError"), std::string::npos);
}

TEST(PageFlow, ComposedExpressionToleratesTrailingSemicolon) {
  auto expr = compose_page_expression("(a) => a;\n\n", nlohmann::json{{"k", 1}});
  EXPECT_NE(expr.find("(a) => a\n)({\"k\":1}, kit)"), std::string::npos);
}

}  // namespace
}  // namespace gleaner::extract
