#pragma once
// Loads one page in a tab and reads it with an endpoint's in-page script, in one round trip:
// navigate → check the HTTP answer → evaluate {block signals, script output} → classify.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "extract/endpoint.h"
#include "extract/tab.h"

namespace gleaner::extract {

/// Whole milliseconds since `start`, for the phases a debug line reports.
inline long long elapsed_ms(SteadyClock::time_point start) {
  return std::chrono::duration_cast<Millis>(SteadyClock::now() - start).count();
}

/// The script's output and how the page was reached.
struct PageReading {
  Navigation navigation;
  nlohmann::json data;
};

/// block_signals.js called: evaluates to the signals block_reason() and wall_reason() read.
std::string block_signals_expression();

/// Whether a script's output holds the page's data although the page shows no text yet
/// (Endpoint::data_without_text); empty: never.
using DataWithoutText = std::function<bool(const nlohmann::json& script_output)>;
/// Whether a script's output holds what tells the endpoint's page apart, so that a consent dialog
/// over a short page is no wall (Endpoint::page_recognized); empty: never.
using PageRecognized = DataWithoutText;

/// Reads `request.url` in `tab` with `script` (one function expression, see endpoint.h).
/// Throws gleaner::Error: NotFound / UpstreamBlocked / UpstreamError from check_navigation(),
/// UpstreamBlocked when block_reason() finds one (the only wall decision), ExtractionFailed when
/// the script throws (no wall, but markup it does not know: the detail carries the script's
/// error), Timeout, UpstreamError.
PageReading read_page(Tab& tab, const PageRequest& request, std::string_view script,
                      Deadline deadline, const DataWithoutText& data_without_text = {},
                      const PageRecognized& recognized = {});

/// Reads the page `tab` shows now, reached by `navigation`, with `script` called on `args` in
/// `world`: the checks of read_page() without loading anything (a second script on the same
/// page). Returns the script's output; throws as read_page() does.
nlohmann::json read_loaded_page(Tab& tab, const Navigation& navigation, std::string_view script,
                                const nlohmann::json& args, Deadline deadline, World world,
                                const DataWithoutText& data_without_text = {},
                                const PageRecognized& recognized = {});

/// The expression read_page() evaluates: the block check, then the site kit's prelude
/// (extract/sites/common/prelude.js) and `script(args, kit)` in try/catch, returning
/// {signals, data, error}. Exposed for tests that run scripts on saved pages.
std::string compose_page_expression(std::string_view script, const nlohmann::json& args);

}  // namespace gleaner::extract
