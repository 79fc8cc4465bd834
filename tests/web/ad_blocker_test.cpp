// AdBlocker: which hosts the list blocks (the host itself and its subdomains, never a look-alike),
// and that the page asked for is never blocked.
#include "extract/web/ad_blocker.h"

#include <gtest/gtest.h>

namespace gleaner::web {
namespace {

browser::InterceptedRequest request_to(const std::string& url, bool main_frame = false) {
  browser::InterceptedRequest request;
  request.url = url;
  request.method = "GET";
  request.resource_type = main_frame ? "Document" : "Script";
  request.is_navigation = main_frame;
  request.is_main_frame = main_frame;
  return request;
}

bool blocked(AdBlocker& blocker, const browser::InterceptedRequest& request) {
  const auto decision = blocker.decide(request);
  return decision && std::holds_alternative<browser::Fail>(*decision);
}

TEST(AdBlocker, ReadsOneHostPerLineWithComments) {
  AdBlocker blocker("# a comment\n  ads.example  \n\ntracker.test # trailing comment\n#x.test\n");
  EXPECT_EQ(blocker.size(), 2u);
  EXPECT_TRUE(blocker.blocks_host("ads.example"));
  EXPECT_TRUE(blocker.blocks_host("tracker.test"));
  EXPECT_FALSE(blocker.blocks_host("x.test"));
}

TEST(AdBlocker, BlocksAHostAndItsSubdomainsOnly) {
  AdBlocker blocker("doubleclick.net\n");
  EXPECT_TRUE(blocker.blocks_host("doubleclick.net"));
  EXPECT_TRUE(blocker.blocks_host("ads.doubleclick.net"));
  EXPECT_TRUE(blocker.blocks_host("a.b.doubleclick.net"));
  EXPECT_FALSE(blocker.blocks_host("notdoubleclick.net"));
  EXPECT_FALSE(blocker.blocks_host("doubleclick.net.example.com"));
  EXPECT_FALSE(blocker.blocks_host("net"));
  EXPECT_FALSE(blocker.blocks_host(""));
}

TEST(AdBlocker, TheBuiltInListHasTheBigAdServers) {
  AdBlocker blocker;
  EXPECT_GT(blocker.size(), 10u);
  EXPECT_TRUE(blocker.blocks_host("doubleclick.net"));
  EXPECT_TRUE(blocker.blocks_host("securepubads.g.doubleclick.net"));
  EXPECT_FALSE(blocker.blocks_host("example.com"));
}

TEST(AdBlocker, DecidesOnTheUrlsHost) {
  AdBlocker blocker("doubleclick.net\n");
  EXPECT_TRUE(blocked(blocker, request_to("https://ads.doubleclick.net/pixel.gif")));
  EXPECT_TRUE(blocked(blocker, request_to("http://user:pw@ADS.DoubleClick.NET.:8080/x?y#z")));
  EXPECT_FALSE(blocked(blocker, request_to("https://example.com/?ref=doubleclick.net")));
  EXPECT_FALSE(blocked(blocker, request_to("https://example.com/doubleclick.net/a.js")));
  EXPECT_FALSE(blocker.decide(request_to("https://example.com/app.js")).has_value())
      << "other hosts are left to the next interceptor";
}

TEST(AdBlocker, ThePageAskedForIsNeverBlocked) {
  AdBlocker blocker("doubleclick.net\n");
  EXPECT_FALSE(blocked(blocker, request_to("https://www.doubleclick.net/", /*main_frame=*/true)));
  // An iframe's document is not the page: it is blocked like any sub-resource.
  auto frame = request_to("https://ads.doubleclick.net/frame.html");
  frame.resource_type = "Document";
  frame.is_navigation = true;
  EXPECT_TRUE(blocked(blocker, frame));
}

TEST(UrlHost, TakesTheHostOutOfAUrl) {
  EXPECT_EQ(url_host("https://Example.COM/path"), "example.com");
  EXPECT_EQ(url_host("http://user@host.test:81/"), "host.test");
  EXPECT_EQ(url_host("https://host.test./"), "host.test");
  EXPECT_EQ(url_host("https://host.test?q=a@b"), "host.test");
  EXPECT_EQ(url_host("http://[::1]:80/"), "");
  EXPECT_EQ(url_host("data:text/html,hi"), "");
}

}  // namespace
}  // namespace gleaner::web
