#include "extract/page_reader.h"

#include <thread>

#include "core/error.h"
#include "core/json_depth.h"
#include "core/log.h"
#include "extract/block_detection.h"
#include "gleaner_extract_embedded.h"

namespace gleaner::extract {
namespace {

// A script file is one function expression; tolerate a trailing semicolon and blank lines so the
// file can be wrapped in parentheses.
std::string_view trim_script(std::string_view s) {
  while (!s.empty() && (s.back() == ';' || s.back() == '\n' || s.back() == ' ' ||
                        s.back() == '\r' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

// What read_page() keeps of the request's time to judge a page that did not load in time.
constexpr Millis kJudgeMargin{1000};

// Between two looks at a page that never settled: it may be between two of its documents.
constexpr Millis kLookAgain{150};

// The wall the tab shows now, if its marks say it is one (marked_wall): the answer for a page that
// never settled or came with an error status. A page that keeps reloading itself may be between
// two documents (nothing parsed yet, or its context gone): looked at again until `deadline`.
// Nullopt when it is none or cannot be read.
std::optional<std::string> wall_at_hand(Tab& tab, Deadline deadline, bool settled) {
  for (;;) {
    try {
      if (auto wall =
              marked_wall(tab.evaluate(block_signals_expression(), deadline, World::Isolated))) {
        return wall;
      }
    } catch (const std::exception& e) {
      log::debug("extract") << "could not read the page at hand for a wall: " << e.what();
    }
    if (settled || time_left(deadline) <= kLookAgain) return std::nullopt;
    std::this_thread::sleep_for(kLookAgain);
  }
}

}  // namespace

std::string block_signals_expression() {
  return "(" + std::string(trim_script(scripts::block_signals_js)) + ")()";
}

std::string compose_page_expression(std::string_view script, const nlohmann::json& args) {
  std::string expr;
  expr.reserve(script.size() + scripts::block_signals_js.size() + scripts::prelude_js.size() + 512);
  expr += "(async () => {\n  const signals = (\n";
  expr += trim_script(scripts::block_signals_js);
  expr += "\n)();\n  let data = null, error = null;\n  try {\n    const kit = (\n";
  expr += trim_script(scripts::prelude_js);
  expr += "\n)();\n    data = await (\n";
  expr += trim_script(script);
  expr += "\n)(";
  expr += args.dump();
  expr +=
      ", kit);\n  } catch (e) {\n    error = String((e && e.stack) || e);\n  }\n"
      "  return {signals, data, error};\n})()";
  return expr;
}

PageReading read_page(Tab& tab, const PageRequest& request, std::string_view script,
                      Deadline deadline, const DataWithoutText& data_without_text,
                      const PageRecognized& recognized) {
  PageReading reading;
  const auto started = SteadyClock::now();
  try {
    // A little time kept back: a page that never settles (a challenge that reloads itself until
    // it is satisfied) is judged by what it shows when the time is up.
    reading.navigation = tab.navigate(request.url, request.wait, deadline - kJudgeMargin);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Timeout) throw;
    try {
      tab.hold_still(deadline);  // its scripts would take it away from under the look
    } catch (const std::exception& stop) {
      log::debug("extract") << "could not stop the page's scripts: " << stop.what();
    }
    if (auto wall = wall_at_hand(tab, deadline, /*settled=*/false)) {
      log::warn("extract") << "blocked at " << request.url << ": " << *wall << " (" << e.detail()
                           << ")";
      throw Error(ErrorCode::UpstreamBlocked, "the site answered with a block page",
                  *wall + "; the page did not settle: " + e.detail());
    }
    throw;
  }
  const long long navigated = elapsed_ms(started);
  try {
    check_navigation(reading.navigation);
  } catch (const Error& e) {
    // A wall served with an error status (Amazon's 503 page for a client it throttles).
    if (e.code() != ErrorCode::UpstreamError || reading.navigation.status < 400) throw;
    if (auto wall = wall_at_hand(tab, deadline, /*settled=*/true)) {
      log::warn("extract") << "blocked at " << reading.navigation.url << ": " << *wall;
      throw Error(ErrorCode::UpstreamBlocked, "the site answered with a block page",
                  *wall + " (HTTP " + std::to_string(reading.navigation.status) + ")");
    }
    throw;
  }
  reading.data = read_loaded_page(tab, reading.navigation, script, request.script_args, deadline,
                                  request.world, data_without_text, recognized);
  log::debug("extract") << "read " << reading.navigation.url << ": navigation " << navigated
                        << " ms, script " << elapsed_ms(started) - navigated << " ms";
  return reading;
}

nlohmann::json read_loaded_page(Tab& tab, const Navigation& navigation, std::string_view script,
                                const nlohmann::json& args, Deadline deadline, World world,
                                const DataWithoutText& data_without_text,
                                const PageRecognized& recognized) {
  nlohmann::json out = tab.evaluate(compose_page_expression(script, args), deadline, world);
  tab.check_documents();  // what was read is the site's only if the page stayed where it may
  if (!out.is_object()) {
    throw Error(ErrorCode::Internal, "the page could not be read",
                "page expression returned " + out.dump().substr(0, 200));
  }
  const nlohmann::json& data = out.contains("data") ? out["data"] : out;
  if (json_deeper_than(data, max_json_depth())) {
    // Held, copied and stored as it is: a page cannot make it deep enough to hurt (json_depth.h).
    throw extraction_failed("the page could not be read",
                            too_deep_message("the data read from " + navigation.url));
  }
  const bool textless = data_without_text && out.contains("data") && data_without_text(data);
  const bool known = recognized && out.contains("data") && recognized(data);
  if (auto reason = block_reason(out.value("signals", nlohmann::json()), textless, known); reason) {
    log::warn("extract") << "blocked at " << navigation.url << ": " << *reason;
    throw Error(ErrorCode::UpstreamBlocked, "the site answered with a block page", *reason);
  }
  if (out.contains("error") && out["error"].is_string()) {
    // No wall, but a page our script cannot read: a layout it does not know.
    throw extraction_failed(
        "the page could not be read",
        "in-page script failed on " + navigation.url + ": " + out["error"].get<std::string>());
  }
  return out.value("data", nlohmann::json());
}

}  // namespace gleaner::extract
