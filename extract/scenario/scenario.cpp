#include "extract/scenario/scenario.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>

#include "core/error.h"
#include "core/json_depth.h"
#include "core/log.h"
#include "core/regex.h"
#include "extract/html/css_xpath.h"
#include "extract/html/document.h"
#include "gleaner_scenario_embedded.h"

namespace gleaner::scenario {
namespace {

using nlohmann::json;
using Kind = Step::Kind;

// Left of the request's time after the scenario's last wait, for the outputs.
constexpr Millis kOutputMargin{1500};
// How long a step that may have started a navigation waits for the next document to load.
constexpr Millis kSettleLimit{10000};

const std::vector<std::pair<std::string_view, Kind>> kKinds = {
    {"click", Kind::Click},       {"wait", Kind::Wait},
    {"waitFor", Kind::WaitFor},   {"waitForAndClick", Kind::WaitForAndClick},
    {"scrollX", Kind::ScrollX},   {"scrollY", Kind::ScrollY},
    {"fill", Kind::Fill},         {"press", Kind::Press},
    {"evaluate", Kind::Evaluate}, {"infiniteScroll", Kind::InfiniteScroll},
};

std::string selector_at(const json& v, const std::string& path) {
  if (!v.is_string()) throw invalid_parameter(path, "'" + path + "' must be a selector string");
  const std::string s = v.get<std::string>();
  if (s.empty() || s.size() > 1000) {
    throw invalid_parameter(path, "'" + path + "' must be a selector of 1 to 1000 characters");
  }
  // The same checks as extractRules' selectors (in the page they run as document.evaluate or
  // querySelector, which accept at least as much).
  std::string why = html::is_xpath(s) ? html::xpath_error(s) : std::string();
  if (!html::is_xpath(s) && html::css_to_xpath(s, &why).empty()) {
    throw invalid_parameter(path, "'" + path + "' is not a valid CSS selector: " + why);
  }
  if (!why.empty()) throw invalid_parameter(path, "'" + path + "' is not a valid XPath expression: " + why);
  return s;
}

long long integer_at(const json& v, const std::string& path, long long min, long long max) {
  if (!v.is_number_integer() && !v.is_number_unsigned()) {
    throw invalid_parameter(path, "'" + path + "' must be a whole number");
  }
  const long long n = v.is_number_unsigned()
                          ? static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ULL << 62))
                          : v.get<long long>();
  if (n < min || n > max) {
    throw invalid_parameter(path, "'" + path + "' must be between " + std::to_string(min) + " and " +
                                      std::to_string(max));
  }
  return n;
}

Step parse_step(const json& item, const std::string& path) {
  if (!item.is_object() || item.size() != 1) {
    throw invalid_parameter(path, "'" + path + "' must be an object with exactly one key, the step's kind");
  }
  const std::string name = item.begin().key();
  const json& v = item.begin().value();
  const std::string where = path + "." + name;
  const auto kind = std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& k) { return k.first == name; });
  if (kind == kKinds.end()) {
    throw invalid_parameter(where, "unknown step '" + name + "'; the kinds are click, wait, waitFor, "
                                   "waitForAndClick, scrollX, scrollY, fill, press, evaluate, infiniteScroll");
  }
  Step step;
  step.kind = kind->second;
  switch (step.kind) {
    case Kind::Click:
    case Kind::WaitFor:
    case Kind::WaitForAndClick: step.selector = selector_at(v, where); break;
    case Kind::Wait: step.amount = integer_at(v, where, 0, kMaxWaits.count()); break;
    case Kind::ScrollX:
    case Kind::ScrollY: step.amount = integer_at(v, where, -1'000'000, 1'000'000); break;
    case Kind::Fill:
      if (!v.is_array() || v.size() != 2 || !v[1].is_string()) {
        throw invalid_parameter(where, "'" + where + "' must be [selector, value]");
      }
      step.selector = selector_at(v[0], where + "[0]");
      step.text = v[1].get<std::string>();
      break;
    case Kind::Press:
      if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 32) {
        throw invalid_parameter(where, "'" + where + "' must be a key name such as \"Enter\" or \"a\"");
      }
      step.text = v.get<std::string>();
      break;
    case Kind::Evaluate:
      if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > kMaxScript) {
        throw invalid_parameter(where, "'" + where + "' must be a script of 1 to " +
                                           std::to_string(kMaxScript) + " characters");
      }
      step.text = v.get<std::string>();
      break;
    case Kind::InfiniteScroll:
      if (!v.is_object()) throw invalid_parameter(where, "'" + where + "' must be {maxCount, delay, endClick?}");
      for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string field = where + "." + it.key();
        if (it.key() == "maxCount") step.max_count = static_cast<int>(integer_at(it.value(), field, 1, 1000));
        else if (it.key() == "delay") step.delay = Millis(integer_at(it.value(), field, 0, 10000));
        else if (it.key() == "endClick") step.end_click = selector_at(it.value(), field);
        else throw invalid_parameter(field, "unknown field '" + field + "'");
      }
      break;
  }
  return step;
}

struct StepResult {
  bool ok = false;
  std::string error;
  json value;
};

/// The largest JSON text an evaluate step's value may have (set_max_evaluate_bytes).
std::atomic<std::size_t> max_evaluate = kDefaultMaxEvaluateBytes;

/// The client's script as an expression whose value is {json: <its value as JSON text>}, or
/// {tooLarge: <characters>} when that text is longer than `max_chars`, or {none: true} for a value
/// JSON has no text for (undefined, a function). A body with `return` runs as an async function's,
/// any other script as it is, by an indirect eval (its last statement's value is the result);
/// promises are awaited. The value is measured in the page, so a value too large never crosses
/// the DevTools connection (500 MB closed it and restarted the browser, issue 41).
std::string evaluate_expression(const std::string& script, std::size_t max_chars) {
  static const Regex has_return(R"(\breturn\b)");
  const std::string run = has_return.search(script) ? "(async () => {\n" + script + "\n})()"
                                                    : "(0, eval)(" + json(script).dump() + ")";
  std::string expression = "(async (max) => {\n  const text = JSON.stringify(await " + run;
  expression +=
      ");\n  if (typeof text !== 'string') return {none: true};\n"
      "  return text.length > max ? {tooLarge: text.length} : {json: text};\n})(";
  return expression + std::to_string(max_chars) + ")";
}

/// The value evaluate_expression() gave, or the step's error.
StepResult evaluate_result(const json& answer, std::size_t max_bytes) {
  StepResult r;
  const std::string limit = "the script's value is larger than the " + std::to_string(max_bytes) +
                            " bytes of JSON an evaluate step may return";
  if (!answer.is_object()) {
    r.error = "the script's value could not be read (the page went away)";
  } else if (answer.contains("tooLarge")) {
    r.error = limit + " (" + answer["tooLarge"].dump() + " characters)";
  } else if (answer.contains("json") && answer["json"].is_string()) {
    const std::string& text = answer["json"].get_ref<const std::string&>();
    // Measured in the page in UTF-16 characters; what crossed is held to the bytes too.
    if (text.size() > max_bytes) {
      r.error = limit + " (" + std::to_string(text.size()) + " bytes)";
    } else if (json_text_deeper_than(text, max_json_depth())) {
      r.error = too_deep_message("the script's value");
    } else {
      r.value = json::parse(text, nullptr, /*allow_exceptions=*/false);
      r.ok = !r.value.is_discarded();
      if (!r.ok) {
        r.value = json();
        r.error = "the script's value is not JSON (the page replaced JSON.stringify)";
      }
    }
  } else {
    r.ok = true;  // undefined, a function: null, as DevTools gives them
  }
  return r;
}

bool is_wait(Kind kind) {
  return kind == Kind::Wait || kind == Kind::WaitFor || kind == Kind::WaitForAndClick ||
         kind == Kind::InfiniteScroll;
}
/// Steps after which the page may be loading another document.
bool may_navigate(Kind kind) {
  return kind == Kind::Click || kind == Kind::WaitForAndClick || kind == Kind::Press ||
         kind == Kind::Evaluate || kind == Kind::InfiniteScroll;
}

bool context_went_away(const Error& e) {
  const std::string& d = e.detail();
  return d.find("context was destroyed") != std::string::npos ||
         d.find("Cannot find context") != std::string::npos ||
         d.find("Cannot find default execution context") != std::string::npos ||
         d.find("Inspected target navigated") != std::string::npos;
}

/// Errors that end the request whatever the scenario's mode: the deadline, a browser gone.
bool fatal(const Error& e) {
  return e.code() == ErrorCode::Timeout || e.code() == ErrorCode::Unavailable ||
         e.code() == ErrorCode::UpstreamError;
}

// Marks the document when it starts to unload (a navigation has begun), so that settle() can tell a
// page about to be replaced from one that stays. Listeners from an isolated world get the page's
// events too; the mark is an attribute, which every world sees.
constexpr const char* kWatchUnload =
    "addEventListener('beforeunload', () => document.documentElement && "
    "document.documentElement.setAttribute('data-gleaner-leaving', ''), {once: true}), true";
// 'leaving' while the old document waits for the new one, else its readyState.
constexpr const char* kDocumentState =
    "document.documentElement && document.documentElement.hasAttribute('data-gleaner-leaving') "
    "? 'leaving' : document.readyState";

/// After a step that may have navigated: returns at once when it did not, else once the next
/// document has loaded (at most kSettleLimit).
void settle(extract::Tab& tab, Deadline deadline) {
  const Deadline limit = std::min(deadline, SteadyClock::now() + kSettleLimit);
  // A navigation a click or a submit starts begins in a task after the step's script returns.
  std::this_thread::sleep_for(std::min(Millis(100), std::max(Millis(0), time_left(limit))));
  while (time_left(limit).count() > 0) {
    try {
      if (tab.evaluate(kDocumentState, limit, extract::World::Isolated) == "complete") return;
    } catch (const Error& e) {
      if (e.code() == ErrorCode::Timeout) return;  // the limit: read what there is
      if (fatal(e)) throw;
      // Between two documents: no context to evaluate in yet.
    }
    std::this_thread::sleep_for(std::min(Millis(100), std::max(Millis(0), time_left(limit))));
  }
}

StepResult run_step(const Step& step, extract::Tab& tab, Millis waits_left, Deadline deadline) {
  StepResult r;
  const Millis room = std::max(Millis(0), time_left(deadline) - kOutputMargin);
  const Millis allowed = is_wait(step.kind) ? std::min(waits_left, room) : room;
  if (step.kind == Kind::Wait) {
    const Millis want(step.amount);
    std::this_thread::sleep_for(std::min(want, allowed));
    if (want > allowed) {
      if (time_left(deadline) <= kOutputMargin) throw Error(ErrorCode::Timeout, "the scenario ran out of the request's time");
      r.error = "the scenario's " + std::to_string(kMaxWaits.count() / 1000) + " s of waits are used up";
      return r;
    }
    r.ok = true;
    return r;
  }
  if (step.kind == Kind::Evaluate) {
    const std::size_t max_bytes = max_evaluate_bytes();
    return evaluate_result(
        tab.evaluate(evaluate_expression(step.text, max_bytes), deadline, extract::World::Page),
        max_bytes);
  }
  static const std::string script(scripts::scenario_js);
  json arg = {{"kind", kind_name(step.kind)},
              {"selector", step.selector},
              {"text", step.text},
              {"amount", step.amount},
              {"maxCount", step.max_count},
              {"delay", step.delay.count()},
              {"endClick", step.end_click},
              {"timeout", allowed.count()},
              {"trusted", tab.trusted_input()}};
  json answer = tab.evaluate("(" + script + ")(" + arg.dump() + ")", deadline, extract::World::Isolated);
  if (!answer.is_object()) {
    r.error = "the step's script returned nothing (the page went away)";
    return r;
  }
  r.ok = answer.value("ok", false);
  r.error = answer.value("error", "");
  if (answer.contains("value")) r.value = answer["value"];
  // A tab with trusted input: the script found the element, the browser's mouse and keyboard act
  // (scenario.js, extract/tab.h).
  if (r.ok && answer.contains("point")) {
    tab.click(answer["point"].value("x", 0.0), answer["point"].value("y", 0.0), deadline);
  }
  if (r.ok && answer.contains("keys")) {
    const std::string keys = answer["keys"].get<std::string>();
    if (step.kind == Kind::Press) {
      tab.press(keys, deadline);
    } else {
      tab.type(keys, deadline);
    }
  }
  if (!r.ok && r.error.empty()) r.error = "failed";
  return r;
}

}  // namespace

std::size_t max_evaluate_bytes() {
  return max_evaluate.load();
}

void set_max_evaluate_bytes(std::size_t bytes) {
  if (bytes < 1) throw std::invalid_argument("max_evaluate_bytes must be at least 1");
  max_evaluate = bytes;
}

std::string_view kind_name(Kind kind) {
  for (const auto& [name, k] : kKinds) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::vector<Step> parse_scenario(const json& value, const std::string& path) {
  if (!value.is_array()) throw invalid_parameter(path, "'" + path + "' must be an array of steps");
  if (value.size() > kMaxSteps) {
    throw invalid_parameter(path, "'" + path + "' has more than " + std::to_string(kMaxSteps) + " steps");
  }
  std::vector<Step> steps;
  long long waits = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string where = path + "[" + std::to_string(i) + "]";
    steps.push_back(parse_step(value[i], where));
    const Step& s = steps.back();
    if (s.kind == Kind::Wait) waits += s.amount;
    if (s.kind == Kind::InfiniteScroll) waits += static_cast<long long>(s.max_count) * s.delay.count();
    if (waits > kMaxWaits.count()) {
      throw invalid_parameter(where, "the waits of '" + path + "' add up to more than " +
                                         std::to_string(kMaxWaits.count()) + " ms by step " + std::to_string(i));
    }
  }
  return steps;
}

Outcome run_scenario(const std::vector<Step>& steps, extract::Tab& tab, bool strict, Deadline deadline) {
  Outcome out;
  Millis waits_left = kMaxWaits;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    const auto started = SteadyClock::now();
    StepResult result;
    if (may_navigate(step.kind)) {
      try {
        tab.evaluate(kWatchUnload, deadline, extract::World::Isolated);
      } catch (const Error& e) {
        if (fatal(e)) throw;  // otherwise settle() still waits for the load
      }
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        result = run_step(step, tab, waits_left, deadline);
        break;
      } catch (const Error& e) {
        if (fatal(e)) throw;
        result = {};
        result.error = e.detail().empty() ? e.what() : e.detail();
        // The page was between two documents (a previous step navigated): once more on the new one.
        if (attempt == 0 && context_went_away(e)) {
          settle(tab, deadline);
          continue;
        }
        break;
      }
    }
    const auto ms = std::chrono::duration_cast<Millis>(SteadyClock::now() - started);
    if (is_wait(step.kind)) waits_left = std::max(Millis(0), waits_left - ms);
    json entry = {{"step", i}, {"kind", kind_name(step.kind)}, {"ok", result.ok}, {"ms", ms.count()}};
    if (!result.ok) entry["error"] = result.error;
    if (step.kind == Kind::InfiniteScroll && result.ok) entry["result"] = result.value;
    out.report.push_back(std::move(entry));
    if (step.kind == Kind::Evaluate) out.evaluate_results.push_back(result.ok ? result.value : json());
    if (!result.ok && strict) {
      throw Error(ErrorCode::ScenarioFailed, "jsScenario step " + std::to_string(i) + " (" +
                                                 std::string(kind_name(step.kind)) + ") failed: " + result.error)
          .with_step(static_cast<int>(i));
    }
    if (result.ok && may_navigate(step.kind)) settle(tab, deadline);
  }
  return out;
}

}  // namespace gleaner::scenario
