// The costs table: the spec's defaults and configuration overrides.
#include "store/costs.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.h"

namespace gleaner::store {
namespace {

using nlohmann::json;

TEST(Costs, DefaultsAreThoseOfTheSpec) {
  const Costs costs = Costs::defaults();
  for (const char* key :
       {"mart/reviews", "stays/place", "stays/search", "search/serp", "video/video", "travel/place",
        "search/finance", "local/place", "search/news", "careers/listing", "web_residential"}) {
    EXPECT_EQ(costs.of(key), 10) << key;
  }
  for (const char* key : {"bizdir/search", "bizdir/place", "homes/listing", "estate/listing",
                          "homes/property", "shop/collections", "jobs/job", "rentals/property",
                          "rentals/listing", "search/events", "web", "maps_job_row"}) {
    EXPECT_EQ(costs.of(key), 5) << key;
  }
  // jsRendering: false (conventions.md): a tenth of the browser's price.
  EXPECT_EQ(costs.of("web_plain"), 1);
  EXPECT_EQ(costs.of("web_plain_residential"), 2);
  EXPECT_EQ(costs.table().size(), 25u);
}

TEST(Costs, ConfigurationOverridesSomeKeys) {
  Config config(json{{"costs", {{"search/serp", 3}, {"maps_job_row", 0}}}}, {});
  const Costs costs = Costs::from_config(config);
  EXPECT_EQ(costs.of("search/serp"), 3);
  EXPECT_EQ(costs.of("maps_job_row"), 0);
  EXPECT_EQ(costs.of("web"), 5);
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
