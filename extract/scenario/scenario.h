#pragma once
// jsScenario of POST /scrape/web (conventions.md "Interactions, rules, no browser, main content"):
// steps run in order in the loaded page before any output is taken. Each step is one evaluation of
// scenario.js (or of the client's script, for `evaluate`) through an extract::Tab, so the runner
// works on whatever opens the tab.
//
// Interactions are a person's: on a tab with trusted input (Tab::trusted_input(), every browser
// tab) the step's script finds the element and scrolls it into view, and the browser's own mouse
// and keyboard act (DevTools Input domain): the pointer moves to the element's centre and clicks,
// `fill` clicks into the field, selects its content and types over it, `press` presses the key
// (Enter in a field submits its form natively). Their events are isTrusted. On a tab without
// (unit tests' fakes) the script dispatches them itself: element.click(), the value setter plus
// input/change events, keyboard events; untrusted. infiniteScroll's endClick is always a
// script's click.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "extract/tab.h"

namespace gleaner::scenario {

inline constexpr std::size_t kMaxSteps = 50;
/// All waits of a scenario together (wait, waitFor, waitForAndClick, infiniteScroll).
inline constexpr Millis kMaxWaits{60000};
inline constexpr std::size_t kMaxScript = 100'000;
/// The JSON text an evaluate step's value may have, by default: 10 MB (entry `max_evaluate_bytes`).
inline constexpr std::size_t kDefaultMaxEvaluateBytes = 10'000'000;

/// The limit in force for an evaluate step's value (its JSON text, in bytes): a larger value fails
/// the step, measured in the page before it crosses the DevTools connection.
std::size_t max_evaluate_bytes();
/// Sets it for the whole process (once at start, from entry `max_evaluate_bytes`; and tests).
/// Throws std::invalid_argument below 1.
void set_max_evaluate_bytes(std::size_t bytes);

struct Step {
  enum class Kind { Click, Wait, WaitFor, WaitForAndClick, ScrollX, ScrollY, Fill, Press, Evaluate, InfiniteScroll };
  Kind kind = Kind::Click;
  /// click, waitFor, waitForAndClick, fill: CSS, or XPath when it starts with '/' or '('.
  std::string selector;
  /// fill: the value; press: the key name; evaluate: the script.
  std::string text;
  /// wait: ms; scrollX/scrollY: px.
  long long amount = 0;
  /// infiniteScroll.
  int max_count = 10;
  Millis delay{1000};
  std::string end_click;
};

std::string_view kind_name(Step::Kind kind);

/// Reads jsScenario; a fault is gleaner::Error(InvalidParameter) naming the place
/// ("jsScenario[3].click", "jsScenario[2].infiniteScroll.delay").
std::vector<Step> parse_scenario(const nlohmann::json& value, const std::string& path);

struct Outcome {
  /// jsScenarioReport: per step {step, kind, ok, ms, error?}.
  nlohmann::json report = nlohmann::json::array();
  /// evaluateResults: each evaluate step's value in step order (null when it failed).
  nlohmann::json evaluate_results = nlohmann::json::array();
};

/// Runs `steps` in `tab`. With `strict`, the first failed step throws
/// gleaner::Error(ScenarioFailed) naming its index (error.step); otherwise the failure is in the
/// report and the next step runs. Timeout when the deadline passes.
Outcome run_scenario(const std::vector<Step>& steps, extract::Tab& tab, bool strict, Deadline deadline);

}  // namespace gleaner::scenario
