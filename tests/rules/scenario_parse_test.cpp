// jsScenario's parser: every step kind, the limits, and each fault named by its path.
#include "extract/scenario/scenario.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace gleaner::scenario {
namespace {

using nlohmann::json;

TEST(ScenarioParse, EveryKind) {
  auto steps = parse_scenario(json::parse(R"([
    {"click": "#more"}, {"wait": 500}, {"waitFor": "//li[3]"}, {"waitForAndClick": "button.ok"},
    {"scrollX": -10}, {"scrollY": 800}, {"fill": ["input[name=q]", "kettle"]}, {"press": "Enter"},
    {"evaluate": "return document.title"},
    {"infiniteScroll": {"maxCount": 5, "delay": 200, "endClick": ".load-more"}}])"), "jsScenario");
  ASSERT_EQ(steps.size(), 10u);
  EXPECT_EQ(kind_name(steps[0].kind), "click");
  EXPECT_EQ(steps[1].amount, 500);
  EXPECT_EQ(steps[2].selector, "//li[3]");
  EXPECT_EQ(steps[4].amount, -10);
  EXPECT_EQ(steps[6].selector, "input[name=q]");
  EXPECT_EQ(steps[6].text, "kettle");
  EXPECT_EQ(steps[7].text, "Enter");
  EXPECT_EQ(kind_name(steps[9].kind), "infiniteScroll");
  EXPECT_EQ(steps[9].max_count, 5);
  EXPECT_EQ(steps[9].delay.count(), 200);
  EXPECT_EQ(steps[9].end_click, ".load-more");
}

std::string fault(const std::string& text) {
  try {
    parse_scenario(json::parse(text), "jsScenario");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    return e.parameter().value_or("<none>");
  }
  return "<parsed>";
}

TEST(ScenarioParse, FaultsNameTheStep) {
  EXPECT_EQ(fault(R"({"click": "a"})"), "jsScenario");
  EXPECT_EQ(fault(R"([{"click": "a"}, {"click": "p >"}])"), "jsScenario[1].click");
  EXPECT_EQ(fault(R"([{"click": "a", "wait": 1}])"), "jsScenario[0]");
  EXPECT_EQ(fault(R"([{"hover": "a"}])"), "jsScenario[0].hover");
  EXPECT_EQ(fault(R"([{"wait": -1}])"), "jsScenario[0].wait");
  EXPECT_EQ(fault(R"([{"fill": ["a"]}])"), "jsScenario[0].fill");
  EXPECT_EQ(fault(R"([{"fill": ["//a[", "x"]}])"), "jsScenario[0].fill[0]");
  EXPECT_EQ(fault(R"([{"infiniteScroll": {"maxCount": 0}}])"), "jsScenario[0].infiniteScroll.maxCount");
  EXPECT_EQ(fault(R"([{"infiniteScroll": {"speed": 1}}])"), "jsScenario[0].infiniteScroll.speed");
  EXPECT_EQ(fault(R"([{"wait": 40000}, {"wait": 30000}])"), "jsScenario[1]") << "60 s of waits";
  EXPECT_EQ(fault(R"([{"infiniteScroll": {"maxCount": 100, "delay": 1000}}])"), "jsScenario[0]");
  json many = json::array();
  for (int i = 0; i < 51; ++i) many.push_back({{"scrollY", 1}});
  EXPECT_EQ(fault(many.dump()), "jsScenario");
}

}  // namespace
}  // namespace gleaner::scenario
