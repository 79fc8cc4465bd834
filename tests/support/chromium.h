#pragma once
// Shared helpers for test suites that drive real Chromium (CHROMIUM suites in gleaner_add_test).
//
// Link `gleaner_test_main` (its main() stops the shared pool after the last test) and use:
//   - gleaner::testing::shared_pool(): one browser pool per test binary, started on first use;
//   - gleaner::testing::TempReplayArchive (tests/support/replay_archive.h): a replay archive built
//     from (URL → body or fixture file) pairs, as an Interceptor for a lease;
//   - gleaner::testing::LocalServer (tests/support/local_server.h): a loopback HTTP server on
//     port 0 for tests that need a real site;
//   - gleaner::testing::max_wait(): the one deadline every wait of a test uses.
//
// Example:
//   TempReplayArchive archive;
//   archive.page("https://example.com/", "<title>hi</title>");
//   browser::ContextOptions options;
//   options.interceptors.push_back(archive.load());
//   auto lease = gleaner::testing::shared_pool().lease(options, max_wait());
//   auto nav = lease->navigate("https://example.com/", browser::WaitSpec::load(), max_wait());
//
// The shared pool lets nothing outside 127.0.0.1 resolve (--host-resolver-rules), so a request the
// archive does not answer fails at once instead of reaching the network.
//
// Note: this namespace is gleaner::testing; inside `namespace gleaner { ... }` write ::testing::
// for GoogleTest's namespace.
#include "browser/pool.h"
#include "core/clock.h"

namespace gleaner::testing {

/// The longest any test waits for anything. Generous: it only matters when something is broken.
inline constexpr Millis kMaxWait{30000};
inline Deadline max_wait() {
  return deadline_in(kMaxWait);
}

/// The options of the shared pool: GLEANER_* environment entries first (so a run can point
/// chromium_path elsewhere), then test defaults: 2 processes, 4 pages each, loopback-only name
/// resolution, lease wait kMaxWait.
browser::PoolOptions test_pool_options();

/// The test binary's pool, started on first use (thread-safe).
browser::Pool& shared_pool();

/// Stops the shared pool (gleaner_test_main calls it after the last test). Safe to call twice.
void stop_shared_pool();

/// The flag that keeps Chromium off the network in tests: only 127.0.0.1 resolves.
inline constexpr const char* kLoopbackOnlyFlag =
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1";

}  // namespace gleaner::testing
