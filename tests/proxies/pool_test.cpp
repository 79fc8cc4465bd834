// Upstream pools without any network: configuration parsing and its errors, the proxyType /
// proxyCountry parameters, round-robin rotation and sidelining on a fake clock.
#include "proxies/pool.h"

#include "core/error.h"
#include "proxies/countries.h"

#include <gtest/gtest.h>

#include <map>

using namespace gleaner;
using namespace gleaner::proxies;
using nlohmann::json;

namespace {

json proxy(const char* type, const char* country, const char* url) {
  return {{"type", type}, {"country", country}, {"url", url}};
}

// Expects `call` to throw gleaner::Error(InvalidParameter) naming `parameter`; returns the message.
template <typename F>
std::string bad_parameter(F&& call, const std::string& parameter) {
  try {
    call();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    EXPECT_EQ(e.parameter().value_or(""), parameter);
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return {};
}

// Expects parsing `entry` to fail with a configuration error that mentions `words`.
void bad_configuration(const json& entry, const std::string& words) {
  try {
    UpstreamPools::parse(entry);
    ADD_FAILURE() << entry.dump() << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

class PoolsTest : public ::testing::Test {
 protected:
  PoolsTest()
      : clock(std::chrono::system_clock::time_point(std::chrono::hours(1000))),
        pools(UpstreamPools::parse(json::array({
                  proxy("datacenter", "US", "http://dc-us-0:3128"),
                  proxy("datacenter", "US", "http://dc-us-1:3128"),
                  proxy("datacenter", "US", "http://dc-us-2:3128"),
                  proxy("residential", "US", "http://res-us-0:8000"),
                  proxy("residential", "DE", "http://res-de-0:8000"),
                  proxy("datacenter", "GB", "http://dc-gb-0:3128"),
              })),
              Millis(30000), 2, clock) {}

  std::string pick_host(ProxyType type, std::optional<std::string> country) {
    auto chosen = pools.pick(type, country);
    return chosen ? chosen->host : "";
  }

  FakeClock clock;
  UpstreamPools pools;
};

}  // namespace

TEST(Countries, AssignedCodesOnly) {
  EXPECT_EQ(country_code("US"), "US");
  EXPECT_EQ(country_code("de"), "DE");
  EXPECT_EQ(country_code("Gb"), "GB");
  EXPECT_EQ(country_code("BR"), "BR");
  EXPECT_EQ(country_code("ZW"), "ZW");
  EXPECT_EQ(country_code("AD"), "AD");
  for (const char* bad : {"UK", "EU", "XX", "ZZ", "AA", "USA", "U", "", "1A", "U ", "ÜS"})
    EXPECT_FALSE(country_code(bad)) << bad;
}

TEST(ProxyConfiguration, ParsesEveryField) {
  auto proxies = UpstreamPools::parse(json::array(
      {{{"type", "residential"}, {"country", "fr"}, {"url", "http://proxy.example:8000/"},
        {"username", "alice"}, {"password", "s3cret"}},
       proxy("datacenter", "US", "http://10.0.0.5"), proxy("datacenter", "US", "http://[::1]:3128")}));
  ASSERT_EQ(proxies.size(), 3u);
  EXPECT_EQ(proxies[0].type, ProxyType::Residential);
  EXPECT_EQ(proxies[0].country, "FR");
  EXPECT_EQ(proxies[0].host, "proxy.example");
  EXPECT_EQ(proxies[0].port, 8000);
  EXPECT_EQ(proxies[0].username, "alice");
  EXPECT_EQ(proxies[0].password, "s3cret");
  EXPECT_EQ(proxies[1].port, 80);
  EXPECT_TRUE(proxies[1].username.empty());
  EXPECT_EQ(proxies[2].host, "::1");
  EXPECT_EQ(proxies[2].label(), "proxy #2 (datacenter, US, [::1]:3128)");
  // Labels go to logs: never the credentials.
  EXPECT_EQ(proxies[0].label().find("s3cret"), std::string::npos);
  EXPECT_TRUE(UpstreamPools::parse(json()).empty());
}

TEST(ProxyConfiguration, ErrorsNameTheItemAndTheProblem) {
  bad_configuration(json::object(), "expected a list");
  bad_configuration(json::array({"http://p:1"}), "item 0: expected an object");
  bad_configuration(json::array({proxy("mobile", "US", "http://p:1")}), "residential or datacenter");
  bad_configuration(json::array({proxy("datacenter", "UK", "http://p:1")}), "ISO 3166-1");
  bad_configuration(json::array({proxy("datacenter", "US", "p:1")}), "http://host:port");
  bad_configuration(json::array({proxy("datacenter", "US", "socks5://p:1")}), "http://host:port");
  bad_configuration(json::array({proxy("datacenter", "US", "http://p:99999")}), "valid host");
  bad_configuration(json::array({proxy("datacenter", "US", "http://u:pw@p:1")}), "'username'");
  bad_configuration(json::array({proxy("datacenter", "US", "http://p:1"),
                                 {{"type", "datacenter"}, {"country", "US"}, {"url", "http://p:1"},
                                  {"passwd", "x"}}}),
                    "item 1: unknown key 'passwd'");
  bad_configuration(json::array({{{"type", "datacenter"}, {"country", "US"}, {"url", "http://p:1"},
                                  {"password", "x"}}}),
                    "'password' without 'username'");
  bad_configuration(json::array({{{"type", "datacenter"}, {"country", 1}, {"url", "http://p:1"}}}),
                    "'country' must be a string");
}

TEST(ProxyConfiguration, FromConfigReadsTheEnvironmentToo) {
  const std::string list = json::array({proxy("datacenter", "US", "http://p:3128")}).dump();
  auto pools = UpstreamPools::from_config(Config(json::object(), {{"GLEANER_PROXIES", list}}));
  ASSERT_EQ(pools->proxies().size(), 1u);
  EXPECT_EQ(pools->proxies()[0]->host, "p");
  EXPECT_THROW(UpstreamPools::from_config(Config({{"proxy_sideline_after_failures", 0}}, {})), Error);
  EXPECT_THROW(UpstreamPools::from_config(Config({{"proxy_sideline_ms", -1}}, {})), Error);
}

TEST_F(PoolsTest, NoParametersMeansDirect) {
  EXPECT_TRUE(pools.route(std::nullopt, std::nullopt).is_direct());
}

TEST_F(PoolsTest, ParametersPickTheMatchingPool) {
  EXPECT_EQ(pools.route("residential", "DE").upstream->host, "res-de-0");
  EXPECT_EQ(pools.route("residential", "de").upstream->host, "res-de-0");
  EXPECT_EQ(pools.route("datacenter", "GB").upstream->host, "dc-gb-0");
  // The hosted service's clients offer UK for the United Kingdom.
  EXPECT_EQ(pools.route("datacenter", "UK").upstream->host, "dc-gb-0");
  EXPECT_EQ(pools.route(std::nullopt, "uk").upstream->host, "dc-gb-0");
  // A country alone prefers datacenter, and falls back to residential.
  EXPECT_EQ(pools.route(std::nullopt, "GB").upstream->type, ProxyType::Datacenter);
  EXPECT_EQ(pools.route(std::nullopt, "DE").upstream->host, "res-de-0");
  // A type alone takes any country.
  EXPECT_EQ(pools.route("residential", std::nullopt).upstream->type, ProxyType::Residential);
}

TEST_F(PoolsTest, InvalidOrUnmatchedParametersAreClear400s) {
  EXPECT_EQ(bad_parameter([&] { pools.route("mobile", "US"); }, "proxyType"),
            "proxyType must be residential or datacenter");
  EXPECT_NE(bad_parameter([&] { pools.route("datacenter", "XX"); }, "proxyCountry").find("ISO 3166-1"),
            std::string::npos);
  EXPECT_EQ(bad_parameter([&] { pools.route("residential", "GB"); }, "proxyCountry"),
            "no residential proxy is configured for country GB");
  EXPECT_EQ(bad_parameter([&] { pools.route(std::nullopt, "FR"); }, "proxyCountry"),
            "no proxy is configured for country FR");
  UpstreamPools only_datacenter(
      UpstreamPools::parse(json::array({proxy("datacenter", "US", "http://p:1")})), Millis(1), 1);
  EXPECT_EQ(bad_parameter([&] { only_datacenter.route("residential", std::nullopt); }, "proxyType"),
            "no residential proxy is configured");
  EXPECT_EQ(bad_parameter([&] { only_datacenter.route("residential", "US"); }, "proxyType"),
            "no residential proxy is configured");
  UpstreamPools none({}, Millis(1), 1);
  EXPECT_EQ(bad_parameter([&] { none.route("datacenter", std::nullopt); }, "proxyType"),
            "no datacenter proxy is configured");
}

TEST_F(PoolsTest, RoundRobinWithinAPool) {
  std::vector<std::string> hosts;
  for (int i = 0; i < 6; ++i) hosts.push_back(pick_host(ProxyType::Datacenter, "US"));
  EXPECT_EQ(hosts, (std::vector<std::string>{"dc-us-0", "dc-us-1", "dc-us-2", "dc-us-0", "dc-us-1",
                                             "dc-us-2"}));
  // Each pool keeps its own turn.
  EXPECT_EQ(pick_host(ProxyType::Residential, "US"), "res-us-0");
  EXPECT_EQ(pick_host(ProxyType::Datacenter, "US"), "dc-us-0");
}

TEST_F(PoolsTest, SidelinedAfterFailuresInARowThenBack) {
  const auto& second = *pools.proxies()[1];  // dc-us-1
  pools.report_failure(second);
  EXPECT_FALSE(pools.is_sidelined(second));  // one failure is not enough (threshold 2)
  pools.report_success(second);              // and a success ends the run
  pools.report_failure(second);
  EXPECT_FALSE(pools.is_sidelined(second));
  pools.report_failure(second);
  EXPECT_TRUE(pools.is_sidelined(second));

  std::vector<std::string> hosts;
  for (int i = 0; i < 4; ++i) hosts.push_back(pick_host(ProxyType::Datacenter, "US"));
  EXPECT_EQ(hosts, (std::vector<std::string>{"dc-us-0", "dc-us-2", "dc-us-0", "dc-us-2"}));

  clock.advance(std::chrono::seconds(29));
  EXPECT_TRUE(pools.is_sidelined(second));
  clock.advance(std::chrono::seconds(2));
  EXPECT_FALSE(pools.is_sidelined(second));
  hosts.clear();
  for (int i = 0; i < 3; ++i) hosts.push_back(pick_host(ProxyType::Datacenter, "US"));
  EXPECT_EQ(hosts, (std::vector<std::string>{"dc-us-0", "dc-us-1", "dc-us-2"}));
}

TEST_F(PoolsTest, WhenAllAreSidelinedTheFirstToReturnIsUsed) {
  const auto& only = *pools.proxies()[4];  // res-de-0
  pools.report_failure(only);
  pools.report_failure(only);
  ASSERT_TRUE(pools.is_sidelined(only));
  EXPECT_EQ(pools.route("residential", "DE").upstream->host, "res-de-0");

  for (std::size_t i : {0u, 1u, 2u}) {
    clock.advance(std::chrono::seconds(1));
    pools.report_failure(*pools.proxies()[i]);
    pools.report_failure(*pools.proxies()[i]);
  }
  EXPECT_EQ(pick_host(ProxyType::Datacenter, "US"), "dc-us-0");
}

TEST_F(PoolsTest, ReportsAboutForeignProxiesAreIgnored) {
  UpstreamProxy stranger = *pools.proxies()[0];
  pools.report_failure(stranger);
  pools.report_failure(stranger);
  EXPECT_FALSE(pools.is_sidelined(*pools.proxies()[0]));
}
