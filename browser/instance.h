#pragma once
// One running Chromium of the pool: its process, its DevTools connection, the executor that runs
// its pages' interception decisions, and the pages it opens. Shared by the pool and by the leases
// of its pages, so a lease keeps the connection alive (and failing cleanly) after a crash.
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "browser/executor.h"
#include "browser/identity.h"
#include "browser/interception.h"
#include "browser/page.h"
#include "browser/process.h"
#include "browser/request_router.h"
#include "cdp/connection.h"
#include "core/clock.h"

namespace gleaner::browser {

struct ContextOptions;
class NavigationTracker;

class BrowserInstance {
 public:
  struct Settings {
    std::string chromium_path;
    std::vector<std::string> flags;
    Millis launch_timeout{30000};
    /// Asked before a lease's interceptors, for every page.
    std::vector<std::shared_ptr<Interceptor>> head_interceptors;
    /// Asked last, for every page (the replay archive): it always decides.
    std::shared_ptr<Interceptor> terminal_interceptor;
    Viewport default_viewport;
    std::size_t executor_threads = 2;
    /// The browser's version as `chromium --version` said it (the pool's --user-agent flag was
    /// made from it); Browser.getVersion's answer at launch wins when they differ.
    std::optional<ChromeVersion> version;
    /// The device every page of this browser is (the pool's --user-agent flag and `preferences`
    /// are that device's): a page opened without a lease's options gets its identity.
    Device device = Device::Desktop;
    /// The profile's preferences file the browser starts with (JSON; none when empty).
    std::string preferences;
  };

  /// Starts Chromium and connects to it. `on_closed` runs (on any thread) once the connection
  /// closes: the browser exited, crashed or was killed. Call from the pool's supervisor thread:
  /// Chromium's parent-death signal is tied to the thread that forks it.
  static std::shared_ptr<BrowserInstance> launch(const Settings& settings,
                                                 std::function<void()> on_closed);
  ~BrowserInstance();
  BrowserInstance(const BrowserInstance&) = delete;
  BrowserInstance& operator=(const BrowserInstance&) = delete;

  /// A new tab in a new browser context (with `options`' proxy), set up for navigation; with
  /// `options` also configured for a lease. All set-up commands after the tab exists are sent
  /// together, then awaited. A warm page is opened with options that hold only a proxy without
  /// credentials: it pauses every request for the proxy's challenge, answered once a lease
  /// configures it (configure_page) with its credentials.
  std::unique_ptr<Page> open_page(const ContextOptions* options, Deadline deadline);
  /// Applies a lease's options (viewport, user agent, headers, blocking, interceptors) to a page
  /// opened without them.
  void configure_page(Page& page, const ContextOptions& options, Deadline deadline);
  /// What must be decided when a page is opened, as far as a warm page must match a lease: hidden
  /// or not, the proxy server and bypass list ("" for a visible page without a proxy).
  /// Credentials are not part of it: they are per lease.
  static std::string warm_key(const ContextOptions* options);
  /// Closes `page` and disposes of its browser context, without waiting for Chromium.
  void close_page(std::unique_ptr<Page> page);

  /// The device its pages are (Settings::device).
  Device device() const { return settings_.device; }
  /// The version the browser reported at launch (Browser.getVersion).
  const ChromeVersion& version() const { return version_; }

  /// True when Chromium answered Browser.getVersion before `deadline`.
  bool responsive(Deadline deadline);
  /// PSS of the whole process tree, in bytes.
  std::size_t memory_bytes() const { return process_->memory_bytes(); }
  /// The connection is gone (crash, kill, exit).
  bool closed() const { return connection_->closed(); }
  /// The browser process has exited. Supervisor thread only.
  bool process_exited() { return process_->exited(); }
  pid_t pid() const { return process_->pid(); }
  /// The pids of the browser's process tree (tests).
  std::vector<pid_t> process_pids() const { return process_->group_pids(); }

  /// Kills the process tree now and reaps it (crashed or hung). The supervisor's: never while
  /// another kill() or stop() of this browser runs.
  void kill();
  /// Browser.close, then SIGTERM and SIGKILL after `grace`; reaps. The supervisor's, as kill().
  void stop(Millis grace);

  // Pool bookkeeping, guarded by the pool's mutex (PoolCore::mutex).
  int busy = 0;              // leases out
  std::uint64_t served = 0;  // leases ever made
  bool draining = false;     // lends no more; replaced, stopped once busy is 0
  bool dead = false;         // crashed or hung: being replaced
  // Ready pages, not yet configured for a lease, each with the warm_key() of its context.
  std::deque<std::pair<std::string, std::unique_ptr<Page>>> warm;
  int warm_failures = 0;  // warm pages that could not be opened since the last health check
  int health_misses = 0;  // health checks missed in a row

 private:
  explicit BrowserInstance(Settings settings);
  InterceptionSettings interception_for(const ContextOptions* options) const;
  void append_configuration(Page& page, const ContextOptions& options,
                            std::vector<cdp::PendingCall>& calls, Deadline deadline);
  // Browser.setWindowBounds of `page`'s window to `state` ("normal", "minimized").
  cdp::PendingCall window_state(const Page& page, const char* state, Deadline deadline);
  void on_connection_closed();
  /// Emulation.setUserAgentOverride's parameters for a page opened or configured with `options`
  /// (none: the browser's device's identity), remembered for its context's service workers.
  Json identity_for(const ContextOptions* options) const;
  /// A service or shared worker (browser-level auto-attach) or a dedicated worker (its page's or
  /// parent worker's auto-attach) attached, paused before its first script: it gets its context's
  /// identity (and a dedicated worker attaches its own workers), then runs. On the DevTools
  /// thread.
  void on_worker_attached(const Json& params);

  const Settings settings_;
  std::unique_ptr<ChromiumProcess> process_;

  std::mutex trackers_mutex_;  // guards trackers_
  // By session id: told when their session detaches or the connection closes.
  std::map<std::string, std::weak_ptr<NavigationTracker>> trackers_;
  std::function<void()> on_closed_;
  ChromeVersion version_;

  std::mutex identities_mutex_;  // guards identities_
  // By browser context id: the user agent override its pages got, for its workers.
  std::map<std::string, Json> identities_;

  // Its thread calls back into the members above until it is destroyed.
  std::unique_ptr<cdp::Connection> connection_;
  // Declared last, stopped first: its tasks answer over connection_.
  std::unique_ptr<Executor> executor_;
};

}  // namespace gleaner::browser
