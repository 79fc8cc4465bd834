// Site pages through the egress gateway (extract/pool_tabs.h SiteEgress): the tabs the site
// endpoints and the maps jobs read with take the gateway, and the configured upstream proxy, like
// POST /scrape/web's pages; the proxy's credentials stay with the gateway. Pages on a loopback
// origin under a test name (the shared pool itself resolves no name but 127.0.0.1).
#include <gtest/gtest.h>

#include <algorithm>

#include "extract/pool_tabs.h"
#include "proxies/gateway.h"
#include "tests/proxies/support/loopback.h"
#include "tests/support/chromium.h"

namespace gleaner::extract {
namespace {

using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using proxies::testing::CountingProxy;
using proxies::testing::Origin;

class SiteEgressInChromium : public ::testing::Test {
 protected:
  SiteEgressInChromium() : origin(/*start_later=*/true) {
    origin.server().Get("/results", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(
          "<title>results</title><p id='n'>3 results</p><script>var siteState = 7;</script>",
          "text/html");
    });
    origin.start();
    pools = std::make_shared<proxies::UpstreamPools>(
        proxies::UpstreamPools::parse(
            nlohmann::json::array({{{"type", "datacenter"},
                                    {"country", "DE"},
                                    {"url", "http://127.0.0.1:" + std::to_string(upstream.port())},
                                    {"username", "sites-user"},
                                    {"password", "sites-secret"}}})),
        Millis(60000), 3);
    proxies::GatewayOptions options;
    options.allow_private_addresses = true;  // the origin is on loopback
    gateway = std::make_unique<proxies::Gateway>(options, pools, proxies::testing::test_names());
  }

  std::string site(const std::string& path) const {
    return "http://site.example:" + std::to_string(origin.port()) + path;
  }

  Origin origin;
  CountingProxy upstream{"sites-user", "sites-secret"};
  std::shared_ptr<proxies::UpstreamPools> pools;
  std::unique_ptr<proxies::Gateway> gateway;  // declared last: stopped before the servers
};

TEST_F(SiteEgressInChromium, ConfiguredProxyCarriesEverySitePage) {
  Config config;
  config.set("sites_proxy_type", "datacenter");
  config.set("sites_proxy_country", "de");
  PoolTabs tabs(shared_pool(), {}, SiteEgress::from_config(config, gateway.get()));
  auto tab = tabs.open({}, max_wait());
  // The upstream resolves names itself (only 127.0.0.1 works for it here).
  const std::string url = "http://127.0.0.1:" + std::to_string(origin.port()) + "/results";
  const Navigation nav = tab->navigate(url, WaitFor::selector_of("#n"), max_wait());
  EXPECT_EQ(nav.status, 200);
  EXPECT_EQ(tab->evaluate("document.getElementById('n').textContent", max_wait(), World::Isolated),
            "3 results");
  // The page's variables are seen from its own world only.
  EXPECT_EQ(tab->evaluate("typeof siteState", max_wait(), World::Page), "number");
  EXPECT_EQ(tab->evaluate("typeof siteState", max_wait(), World::Isolated), "undefined");
  EXPECT_GE(upstream.plain_requests(), 1);
  EXPECT_EQ(upstream.auth_failures(), 0);
  const auto targets = upstream.targets();
  EXPECT_NE(std::find(targets.begin(), targets.end(), url), targets.end());
  for (const auto& hit : origin.hits()) EXPECT_EQ(hit.headers.count("Proxy-Authorization"), 0u);
}

TEST_F(SiteEgressInChromium, WithoutAProxyTheGatewayStillCarriesThem) {
  PoolTabs tabs(shared_pool(), {}, SiteEgress::from_config(Config(), gateway.get()));
  auto tab = tabs.open({}, max_wait());
  // site.example resolves only in the gateway: the page loads only if it went through it.
  EXPECT_EQ(tab->navigate(site("/results"), WaitFor::load(), max_wait()).status, 200);
  EXPECT_EQ(upstream.plain_requests(), 0);
}

TEST_F(SiteEgressInChromium, AProxyNobodyConfiguredStopsTheStart) {
  Config config;
  config.set("sites_proxy_type", "residential");
  EXPECT_THROW(SiteEgress::from_config(config, gateway.get()), std::invalid_argument);
  config.set("sites_proxy_type", "satellite");
  EXPECT_THROW(SiteEgress::from_config(config, gateway.get()), std::invalid_argument);
  // Replaying an archive there is no gateway: the entries are ignored.
  EXPECT_FALSE(SiteEgress::from_config(config, nullptr).gateway);
}

}  // namespace
}  // namespace gleaner::extract
