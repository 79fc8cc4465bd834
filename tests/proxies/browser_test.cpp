// Real Chromium pages through the egress gateway: the page and all its sub-resources pass through
// it (and through an upstream proxy that demands credentials only the gateway has), and the
// address guard refuses a page on 127.0.0.1, a public-looking name that resolves to 127.0.0.1 and
// a redirect to a private address, while a private sub-resource is only blocked.
//
// The shared pool resolves no name but 127.0.0.1 itself (tests/support/chromium.h), so a page on
// site.example can only load if the gateway resolved it.
#include "browser/pool.h"
#include "extract/pool_tabs.h"
#include "core/error.h"
#include "proxies/gateway.h"
#include "proxies/http_head.h"
#include "tests/proxies/support/loopback.h"
#include "tests/support/chromium.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gleaner::proxies {
namespace {

using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using proxies::testing::CountingProxy;
using proxies::testing::Origin;
using proxies::testing::expect_main_document_refused;
using proxies::testing::test_names;

const char* kPage = R"(<!doctype html><html><head><title>through the gateway</title>
<link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head>
<body><img src="/pixel.png"></body></html>)";

class GatewayInChromium : public ::testing::Test {
 protected:
  GatewayInChromium() : origin(/*start_later=*/true) {
    origin.server().Get("/page", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(kPage, "text/html");
    });
    origin.server().Get("/private-image", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(
          "<title>private image</title><img src=\"http://169.254.169.254/latest/x.png\">"
          "<img src=\"/pixel.png\">",
          "text/html");
    });
    origin.server().Get("/to-metadata", [](const httplib::Request&, httplib::Response& response) {
      response.set_redirect("http://169.254.169.254/latest/meta-data/");
    });
    origin.server().Get("/to-metadata-name", [](const httplib::Request&, httplib::Response& response) {
      response.set_redirect("http://metadata.example/latest/meta-data/");
    });
    origin.start();
  }

  void start(bool allow_private, std::shared_ptr<UpstreamPools> pools = nullptr) {
    GatewayOptions options;
    options.allow_private_addresses = allow_private;
    gateway = std::make_unique<Gateway>(options, std::move(pools), test_names());
  }

  // Loads `url` in a fresh page whose traffic goes through `lease`. The navigation's own error
  // (if any) is returned as text; a refused main document usually shows up as one.
  std::string load(GatewayLease& lease, const std::string& url, int* status = nullptr) {
    browser::ContextOptions options;
    extract::route_through(lease, options);
    auto page = shared_pool().lease(options, max_wait());
    try {
      auto result = page->navigate(url, browser::WaitSpec::load(), max_wait());
      if (status) *status = result.status;
      return {};
    } catch (const Error& e) {
      return std::string(e.what()) + " " + e.detail();
    }
  }

  std::string site(const std::string& path) const {
    return "http://site.example:" + std::to_string(origin.port()) + path;
  }

  Origin origin;
  CountingProxy upstream{"upstream-user", "upstream-secret"};
  std::unique_ptr<Gateway> gateway;  // declared last: stopped before the servers
};

bool has(const std::vector<std::string>& paths, const std::string& path) {
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

TEST_F(GatewayInChromium, ThePageAndItsSubResourcesGoThroughTheGateway) {
  start(/*allow_private=*/true);
  auto lease = gateway->open_lease(Route::direct());
  int status = 0;
  EXPECT_EQ(load(lease, site("/page"), &status), "");
  EXPECT_EQ(status, 200);
  const auto paths = origin.paths();
  for (const char* path : {"/page", "/style.css", "/app.js", "/pixel.png"})
    EXPECT_TRUE(has(paths, path)) << path;
  for (const auto& hit : origin.hits()) {
    EXPECT_EQ(hit.headers.count("Proxy-Authorization"), 0u) << hit.path;
    EXPECT_EQ(hit.headers.at("Host"), "site.example:" + std::to_string(origin.port()));
  }
  EXPECT_NO_THROW(lease.check_main_document());
  EXPECT_TRUE(lease.incidents().empty());
}

TEST_F(GatewayInChromium, ThroughAnUpstreamProxyWhoseCredentialsThePageNeverHas) {
  auto pools = std::make_shared<UpstreamPools>(
      UpstreamPools::parse(nlohmann::json::array(
          {{{"type", "residential"},
            {"country", "US"},
            {"url", "http://127.0.0.1:" + std::to_string(upstream.port())},
            {"username", "upstream-user"},
            {"password", "upstream-secret"}}})),
      Millis(60000), 3);
  start(/*allow_private=*/true, pools);
  auto lease = gateway->open_lease(pools->route("residential", "us"));
  int status = 0;
  EXPECT_EQ(load(lease, "http://127.0.0.1:" + std::to_string(origin.port()) + "/page", &status), "");
  EXPECT_EQ(status, 200);
  for (const char* path : {"/page", "/style.css", "/app.js", "/pixel.png"})
    EXPECT_TRUE(has(origin.paths(), path)) << path;
  // Everything passed the upstream, each time with the credentials the gateway added.
  EXPECT_GE(upstream.plain_requests(), 4);
  EXPECT_EQ(upstream.auth_failures(), 0);
  for (const auto& hit : origin.hits()) EXPECT_EQ(hit.headers.count("Proxy-Authorization"), 0u);
}

TEST_F(GatewayInChromium, APageOn127001IsRefused) {
  start(/*allow_private=*/false);
  auto lease = gateway->open_lease(Route::direct());
  load(lease, "http://127.0.0.1:" + std::to_string(origin.port()) + "/page");
  expect_main_document_refused(lease);
  EXPECT_TRUE(origin.hits().empty());
}

TEST_F(GatewayInChromium, APublicLookingNameThatResolvesTo127001IsRefused) {
  start(/*allow_private=*/false);
  auto lease = gateway->open_lease(Route::direct());
  load(lease, "http://public.example:" + std::to_string(origin.port()) + "/page");
  expect_main_document_refused(lease);
  EXPECT_TRUE(origin.hits().empty());
}

TEST_F(GatewayInChromium, ARedirectToAPrivateAddressIsRefused) {
  start(/*allow_private=*/true);  // the site itself is on loopback; metadata stays refused
  for (const char* path : {"/to-metadata", "/to-metadata-name"}) {
    auto lease = gateway->open_lease(Route::direct());
    load(lease, site(path));
    expect_main_document_refused(lease);
    EXPECT_TRUE(has(origin.paths(), path)) << path;
  }
}

TEST_F(GatewayInChromium, APrivateSubResourceIsBlockedButThePageLoads) {
  start(/*allow_private=*/true);
  auto lease = gateway->open_lease(Route::direct());
  int status = 0;
  EXPECT_EQ(load(lease, site("/private-image"), &status), "");
  EXPECT_EQ(status, 200);
  EXPECT_NO_THROW(lease.check_main_document());
  EXPECT_TRUE(has(origin.paths(), "/pixel.png"));
  auto incident = lease.incident_for("http://169.254.169.254/latest/x.png");
  ASSERT_TRUE(incident);
  EXPECT_EQ(incident->kind, GatewayIncident::Kind::Refused);
}

}  // namespace
}  // namespace gleaner::proxies
