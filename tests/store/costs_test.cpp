// The costs table: the service's own keys, the endpoints' declared defaults, configuration
// overrides.
#include "store/costs.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.h"

namespace gleaner::store {
namespace {

using nlohmann::json;

TEST(Costs, TheServicesOwnKeysAndWhatEndpointsDeclare) {
  // The data endpoints' defaults are declared by each endpoint (tests/sites' contract checks
  // every registered one is in the service's table); the table adds the service's own keys.
  const Costs costs = Costs::defaults({{"search/serp", 10}, {"jobs/job", 5}});
  EXPECT_EQ(costs.of("search/serp"), 10);
  EXPECT_EQ(costs.of("jobs/job"), 5);
  EXPECT_EQ(costs.of("web"), 5);
  EXPECT_EQ(costs.of("web_residential"), 10);
  EXPECT_EQ(costs.of("maps_job_row"), 5);
  // jsRendering: false (conventions.md): a tenth of the browser's price.
  EXPECT_EQ(costs.of("web_plain"), 1);
  EXPECT_EQ(costs.of("web_plain_residential"), 2);
  EXPECT_EQ(costs.table().size(), 7u);
  EXPECT_EQ(Costs::defaults().table().size(), 5u);
}

TEST(Costs, ConfigurationOverridesSomeKeys) {
  Config config(json{{"costs", {{"search/serp", 3}, {"maps_job_row", 0}}}}, {});
  const Costs costs = Costs::from_config(config, {{"search/serp", 10}});
  EXPECT_EQ(costs.of("search/serp"), 3);
  EXPECT_EQ(costs.of("maps_job_row"), 0);
  EXPECT_EQ(costs.of("web"), 5);
}

TEST(Costs, AnOverrideOfAnEndpointNoOneDeclaredIsRefused) {
  Config config(json{{"costs", {{"search/serp", 3}}}}, {});
  EXPECT_THROW(Costs::from_config(config), std::invalid_argument);
}

TEST(Costs, TheEnvironmentOverridesWithJson) {
  Config config(json{{"costs", {{"web", 3}}}}, {{"GLEANER_COSTS", R"({"web": 7})"}});
  EXPECT_EQ(Costs::from_config(config).of("web"), 7);
}

TEST(Costs, BadOverridesNameTheKey) {
  auto message_of = [](json costs) -> std::string {
    try {
      Costs::from_config(Config(json{{"costs", costs}}, {}));
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(accepted)";
  };
  EXPECT_NE(message_of({{"search/serps", 1}}).find("search/serps"), std::string::npos);
  EXPECT_NE(message_of({{"web", -1}}).find("'web'"), std::string::npos);
  EXPECT_NE(message_of({{"web", 1.5}}).find("'web'"), std::string::npos);
  EXPECT_NE(message_of(json::array({1})).find("GLEANER_COSTS"), std::string::npos);
}

TEST(Costs, AnUnknownEndpointKeyIsABug) {
  try {
    Costs::defaults().of("nope");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
    EXPECT_NE(e.detail().find("nope"), std::string::npos);
  }
  EXPECT_FALSE(Costs::defaults().contains("nope"));
}

}  // namespace
}  // namespace gleaner::store
