#pragma once
// The requests a page's own scripts make (XHR and fetch), as the browser sees them: for a reader
// that waits on what the page asks for after it acted on it (a scroll), not on the clock.
// Counted on the tabs the pool opens (extract/pool_tabs.h); other tabs do not report them.
#include <cstdint>
#include <optional>
#include <vector>

#include "extract/tab.h"

namespace gleaner::extract {

/// The page's XHR and fetch requests since a tab began counting them, each numbered in the order
/// it started, from 1.
struct ScriptRequests {
  std::int64_t started = 0;
  /// The numbers of those not ended yet (neither answered, failed nor refused).
  std::vector<std::int64_t> in_flight;
};

/// The page's XHR and fetch requests in `tab`, counted from the first call on it (which answers
/// none), whatever the page loads next. Nullopt for a tab the pool did not open (a session's, a
/// test's fake): a reader then waits as it would without them.
std::optional<ScriptRequests> script_requests(Tab& tab);

}  // namespace gleaner::extract
