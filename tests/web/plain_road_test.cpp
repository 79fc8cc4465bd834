// The plain road's way out (web::gateway_get over extract/plain/http_client.h) through a real
// egress gateway to a loopback site, no browser: the small findings of issue 41, item 6, that
// made the plain road differ from the browser's (an internationalised host, a redirect target
// read by another standard) or take the gateway's own answer for the site's; and a transfer that
// its page job left (issue 34, item 4) stopping at once rather than at its deadline.
#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "core/cancel.h"
#include "core/error.h"
#include "extract/plain/http_client.h"
#include "extract/web/plain_fetch.h"
#include "proxies/gateway.h"
#include "proxies/resolver.h"
#include "tests/support/chromium.h"
#include "tests/support/local_server.h"
#include "tests/support/trickling_site.h"

namespace gleaner {
namespace {

/// A gateway that lets loopback through and knows the IDN test name as 127.0.0.1.
std::unique_ptr<proxies::Gateway> loopback_gateway() {
  proxies::GatewayOptions options;
  options.allow_private_addresses = true;
  auto resolver = std::make_shared<proxies::OverrideResolver>(
      proxies::OverrideResolver::parse(nlohmann::json{{"xn--bcher-kva.test", "127.0.0.1"}}),
      std::make_shared<proxies::SystemResolver>());
  return std::make_unique<proxies::Gateway>(options, nullptr, resolver);
}

plain::HttpResponse get(proxies::Gateway& gateway, const std::string& url) {
  plain::HttpRequest http;
  http.url = url;
  return web::gateway_get(gateway, proxies::Route::direct(), std::move(http),
                          deadline_in(Millis(20000)));
}

TEST(PlainRoad, AnInternationalisedHostIsAskedForInItsAsciiForm) {
  std::mutex mutex;
  std::string host;  // guarded by mutex
  testing::LocalServer site;
  site.server().Get("/page", [&](const httplib::Request& request, httplib::Response& response) {
    std::lock_guard lock(mutex);
    host = request.get_header_value("Host");
    response.set_content("<p>ok</p>", "text/html");
  });
  site.start();
  const auto gateway = loopback_gateway();
  const std::string port = std::to_string(site.port());
  const plain::HttpResponse page = get(*gateway,
                                       "http://b\xC3\xBC"
                                       "cher.test:" +
                                           port + "/page");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.body, "<p>ok</p>");
  EXPECT_EQ(page.url, "http://xn--bcher-kva.test:" + port + "/page");
  std::lock_guard lock(mutex);
  EXPECT_EQ(host, "xn--bcher-kva.test:" + port);
}

TEST(PlainRoad, ARedirectTargetIsReadAsChromiumReadsIt) {
  testing::LocalServer site;
  site.server().Get("/dir/start", [&](const httplib::Request&, httplib::Response& response) {
    // The URL Standard: the page's own scheme without "//" is a relative reference.
    response.status = 302;
    response.set_header("Location", "http:127.0.0.1:" + std::to_string(site.port()) + "/x");
  });
  site.server().Get(R"(/dir/127\.0\.0\.1:\d+/x)",
                    [](const httplib::Request&, httplib::Response& response) {
                      response.set_content("relative", "text/plain");
                    });
  site.server().Get("/x", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("absolute", "text/plain");
  });
  site.server().Get("/other", [&](const httplib::Request&, httplib::Response& response) {
    response.status = 301;
    response.set_header("Location", "\\\\127.0.0.1:" + std::to_string(site.port()) + "\\a\\..\\x");
  });
  site.start();
  const auto gateway = loopback_gateway();
  const plain::HttpResponse relative = get(*gateway, site.url("/dir/start"));
  EXPECT_EQ(relative.body, "relative");
  EXPECT_EQ(relative.url, site.url("/dir/127.0.0.1:" + std::to_string(site.port()) + "/x"));
  // Back-slashes are slashes in an http(s) URL, and "//" starts a host.
  EXPECT_EQ(get(*gateway, site.url("/other")).body, "absolute");
}

TEST(PlainRoad, ARedirectToAnOverlongUrlIsTheSitesFaultNotAnHttp407) {
  testing::LocalServer site;
  site.server().Get("/long", [](const httplib::Request&, httplib::Response& response) {
    response.status = 302;
    // Past the URL limit, within the gateway's 64 KiB of response head (which refuses more).
    response.set_header("Location", "/" + std::string(20'000, 'a'));
  });
  site.start();
  const auto gateway = loopback_gateway();
  try {
    get(*gateway, site.url("/long"));
    FAIL() << "followed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamError) << e.what();
    EXPECT_NE(std::string(e.what()).find("longer than 16384 bytes"), std::string::npos) << e.what();
  }
}

TEST(PlainRoad, TheGatewaysOwnAnswersSaySo) {
  // A request line the gateway cannot read (past its head limit; validation and the redirect
  // check keep such URLs from it now) is answered by the gateway, not by the site: its 407 carries
  // the gateway's mark, by which gateway_get tells it from the site's answers.
  testing::LocalServer site;
  site.start();
  const auto gateway = loopback_gateway();
  proxies::GatewayLease lease = gateway->open_lease(proxies::Route::direct());
  plain::HttpRequest http;
  http.url = site.url("/" + std::string(100'000, 'a'));
  http.proxy = plain::HttpProxy{lease.proxy_server(), lease.username(), lease.password()};
  const plain::HttpResponse answer = plain::http_get(http, deadline_in(Millis(20000)));
  EXPECT_EQ(answer.status, 407);
  EXPECT_EQ(answer.headers.count("x-gleaner-gateway"), 1u);
}

/// Whether `condition` held within the suites' one maximum wait (polled, not timed).
bool within_max_wait(const std::function<bool()>& condition) {
  const Deadline end = deadline_in(testing::kMaxWait);
  while (!condition()) {
    if (SteadyClock::now() > end) return false;
    std::this_thread::sleep_for(Millis(20));
  }
  return true;
}

// Issue 34, item 4: a page job's plain-road fetch that its job (DELETE) or the service (SIGTERM)
// left went on until its own deadline, up to 300 s, holding its connection and the shutdown.
TEST(PlainRoad, ACancelledTransferStops) {
  auto site = std::make_unique<testing::TricklingSite>();
  CancelFlag flag;
  std::promise<ErrorCode> outcome;
  std::future<ErrorCode> ended = outcome.get_future();
  std::thread fetch([&, url = site->url()] {
    const CancelScope scope(flag);
    plain::HttpRequest http;
    http.url = url;
    try {
      plain::http_get(http, deadline_in(Millis(300000)));
      outcome.set_value(ErrorCode::Internal);  // the page never ends: not expected
    } catch (const Error& e) {
      outcome.set_value(e.code());
    }
  });
  ASSERT_TRUE(within_max_wait([&] { return site->requests() == 1; }));
  flag.cancel();
  const bool stopped = ended.wait_for(testing::kMaxWait) == std::future_status::ready;
  EXPECT_TRUE(stopped) << "the transfer went on after it was cancelled";
  if (stopped) {
    EXPECT_EQ(ended.get(), ErrorCode::Unavailable);
  }
  site.reset();  // ends the body, should the transfer still run
  fetch.join();
}

}  // namespace
}  // namespace gleaner
