#pragma once
// The managed Chromium pool. It runs a fixed number of headless Chromium processes and lends
// isolated pages from them: every lease gets a tab in a fresh browser context (no cookies,
// storage or cache shared with any other lease), disposed when the lease ends.
//
// Each browser is one device (browser/identity.h): what no page override reaches (a service
// worker's User-Agent, the PDF viewer behind navigator.plugins) is set when a browser starts, so
// a phone's or a tablet's pages come from browsers of their own. The desktop's run always; a
// phone's or a tablet's are started at the first lease that asks for one and stopped once that
// device has gone without a lease for a while.
//
// A supervisor thread owns the processes: it launches them (and relaunches after a crash), checks
// their health (a hung browser is killed and replaced), recycles a browser after N pages or past
// a memory limit (a replacement starts at once; the old one finishes its leases first), and keeps
// a few pages ready ahead of need. A crash fails only the leases on that browser, with a typed
// cdp::Error. Nothing of Chromium outlives the pool, see browser/process.h.
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "browser/identity.h"
#include "browser/interception.h"
#include "browser/page.h"
#include "browser/replay.h"
#include "core/clock.h"
#include "core/config.h"

namespace gleaner::browser {

class BrowserInstance;
class PoolCore;

/// How the pool is sized and run. from_config() documents each configuration entry.
struct PoolOptions {
  /// Entry `chromium_path`; default $CHROME_PATH, else /usr/bin/chromium.
  std::string chromium_path = "/usr/bin/chromium";
  /// Entry `browser_processes`: Chromium processes kept running for each device in use (the
  /// desktop's always).
  int processes = 2;
  /// Entry `device_browsers_idle_ms`: how long a phone's or a tablet's browsers are kept after
  /// the last lease of that device began; then those without a lease are stopped.
  Millis device_idle{300000};
  /// Entry `pages_per_process`: leases one process serves at once.
  int pages_per_process = 4;
  /// Entry `lease_wait_ms`: the longest lease() waits for a free page (also bounded by its
  /// deadline) before answering Unavailable.
  Millis lease_wait{10000};
  /// Entry `recycle_after_pages`: a process is replaced after lending this many pages (0: never).
  int recycle_after_pages = 500;
  /// Entry `browser_memory_limit_mb`: a process whose tree's PSS passes this is replaced (0: no
  /// limit). Checked with each health check.
  std::size_t memory_limit_mb = 2048;
  /// Entry `chromium_flags` (list; environment: one flag per line): added after the standard
  /// flags (browser/process.h), so they can override them.
  std::vector<std::string> extra_flags;
  /// Entry `replay_dir` (or --replay DIR): answer every request from this replay archive.
  std::string replay_dir;
  /// Entry `health_check_interval_ms`: how often each process is asked Browser.getVersion.
  Millis health_interval{5000};
  /// Entry `health_check_timeout_ms`: a process that does not answer within this is hung.
  Millis health_timeout{3000};
  /// Entry `health_check_misses`: health checks in a row a process must miss to count as hung. A
  /// browser whose main thread is busy with a heavy page (a 1.5 MB DOM and its hundreds of
  /// requests) can miss one; killing it then would fail every page it holds.
  int health_misses = 3;
  /// Entry `warm_pages`: pages kept open per process ahead of need, each in its own fresh context
  /// (never lent twice), for each of the two set-ups the latest leases used (their proxy server
  /// and bypass list, not the credentials; hidden or not: painted pages for screenshots, hidden
  /// ones for the rest), so leases through the egress gateway find them too. A lease only takes a
  /// warm page set up like its own; its credentials, headers and interceptors are applied at lease
  /// time. Refilled by the supervisor, off the request's path; a lease's context is disposed
  /// without waiting (Target.disposeBrowserContext is sent, not awaited).
  int warm_pages = 2;
  /// Entry `paint_every_page`: every page is painted in the foreground of its own window, as a
  /// person's Chrome shows a page, whatever its lease asks (ContextOptions::hidden and
  /// paint_on_demand are ignored). A hidden page has no window (window.outerWidth and
  /// outerHeight 0 while the page sees itself visible), which a wall can read; painting costs
  /// CPU per page (docs/stealth.md, "Hidden pages").
  bool paint_every_page = false;
  /// Entry `browser_launch_timeout_ms`: how long a starting process may take to come up.
  Millis launch_timeout{30000};
  /// Entry `browser_close_grace_ms`: how long a stopping process gets before SIGKILL.
  Millis close_grace{2000};
  /// Interceptors consulted for every request of every page before the lease's own (e.g. an
  /// address guard). Not from configuration.
  std::vector<std::shared_ptr<Interceptor>> interceptors;

  /// Reads the entries named above, with these defaults. Throws std::invalid_argument (as Config
  /// does) for a value of the wrong type or out of range.
  static PoolOptions from_config(const Config& config);
};

/// The proxy a lease's context goes through.
struct ProxySettings {
  /// "scheme://host:port", e.g. "http://10.0.0.5:3128" or "socks5://proxy:1080".
  std::string server;
  /// Hosts that bypass the proxy (Chromium's proxy bypass list syntax, e.g. "<-loopback>").
  std::vector<std::string> bypass;
  /// Answered to the proxy's authentication challenge (Fetch.authRequired); never visible to the
  /// page.
  std::string username;
  std::string password;
};

/// What one lease's page looks like to sites.
struct ContextOptions {
  std::optional<ProxySettings> proxy;
  /// Sent with every request of the page.
  std::map<std::string, std::string> extra_headers;
  std::optional<Viewport> viewport;
  /// A touch screen (Emulation.setTouchEmulationEnabled): navigator.maxTouchPoints, touch events
  /// and `(pointer: coarse)` as on a phone or a tablet. Off: a mouse, as on a desktop.
  bool touch = false;
  /// The browser the page is (browser/identity.h): its user agent, userAgentData, Sec-CH-UA
  /// headers and navigator.platform, all of one device. Languages: from an Accept-Language among
  /// `extra_headers`, else en-US. The page comes from a browser of this device; a lease
  /// reconfigured to another device keeps its browser, whose service workers and plugins stay
  /// the first device's.
  Device device = Device::Desktop;
  /// Replaces the device's User-Agent string when not empty (the rest of the identity stays).
  std::string user_agent;
  /// DevTools resource types failed with BlockedByClient: "Image", "Media", "Font", ...
  std::set<std::string> blocked_resource_types;
  /// Consulted after the pool's interceptors, before the pool's replay archive.
  std::vector<std::shared_ptr<Interceptor>> interceptors;
  /// Open the tab as a hidden target (Target.createTarget `hidden`): Chromium never paints it.
  /// DOM, layout, scripts, timers and network work as usual, but there are no frames: no
  /// screenshots, no requestAnimationFrame callbacks, no IntersectionObserver notifications (so no
  /// lazy loading on scroll). For requests that only read the page: measured on the benchmark
  /// pages, a page costs about 40% less CPU (browser, renderer and GPU process together).
  bool hidden = false;
  /// Painted only while a lease wants it: the page is opened as a background tab behind a blank
  /// one in its window (Chromium does not paint a tab in the background; the page sees
  /// document.visibilityState "hidden"), and brought to the front (Target.activateTarget) while
  /// the options it is configured with say `hidden` false, sent back while they say true
  /// (Lease::reconfigure). For a page kept from request to request, some of which take
  /// screenshots or run scenarios (a session's, extract/sessions.h). Never a warm page.
  bool paint_on_demand = false;
};

/// One browser of the pool, as reported by state().
struct BrowserStatus {
  pid_t pid = 0;
  /// The device its pages are.
  Device device = Device::Desktop;
  bool ready = false;
  /// No longer lent from: finishing its leases before it is replaced.
  bool draining = false;
  int busy_pages = 0;
  int warm_pages = 0;
  std::uint64_t pages_served = 0;
};

/// A snapshot for GET /health and /metrics.
struct PoolState {
  /// Processes currently up and lending.
  int processes = 0;
  int busy_pages = 0;
  /// Leases that could start now without waiting.
  int free_pages = 0;
  /// Browsers relaunched after a crash, a hang or a failed start.
  std::uint64_t restarts = 0;
  /// Browsers replaced after N pages or over the memory limit.
  std::uint64_t recycles = 0;
  std::uint64_t pages_served = 0;
  bool shutting_down = false;
  std::vector<BrowserStatus> browsers;
};

/// A page on loan. Movable; ending it (destructor or release()) closes the page's browser context
/// and frees the slot. If its browser crashed, every call on the page fails at once with a
/// cdp::Error and ending the lease is still safe.
class Lease {
 public:
  Lease(Lease&& other) noexcept;
  Lease& operator=(Lease&& other) noexcept;
  ~Lease();

  Page& page() { return *page_; }
  Page* operator->() { return page_.get(); }
  /// The pid of the Chromium process this page lives in (logs, tests).
  pid_t browser_pid() const;
  /// The page was opened ahead of need (a warm page) rather than for this lease (logs, tests).
  bool warm() const { return warm_; }
  /// Applies another request's options (viewport, identity, headers, blocking, interceptors,
  /// proxy credentials) to the page, keeping its context: what a session's next request does.
  /// The context's proxy server stays the one it was opened with. Only what changed is sent;
  /// with nothing to change, nothing (the page's next call finds a browser that is gone). Throws
  /// what configuring a page throws (cdp::Error when the browser is gone).
  void reconfigure(const ContextOptions& options, Deadline deadline);
  /// The page's browser is gone or being replaced (crashed, hung, recycled after N pages or over
  /// the memory limit): the context cannot serve another request. A session kept on this lease
  /// ends then (docs/sessions.md); its release lets a recycled browser stop.
  bool lost() const;
  /// Ends the lease now.
  void release();

 private:
  friend class PoolCore;
  Lease(std::shared_ptr<PoolCore> core, std::shared_ptr<BrowserInstance> browser,
        std::unique_ptr<Page> page, bool warm);

  std::shared_ptr<PoolCore> core_;
  std::shared_ptr<BrowserInstance> browser_;
  std::unique_ptr<Page> page_;
  bool warm_ = false;
};

class Pool {
 public:
  /// Starts the supervisor, which launches the processes in the background. Throws
  /// gleaner::Error(Internal) when the options are unusable (e.g. a broken replay archive).
  explicit Pool(PoolOptions options);
  /// shutdown(0): outstanding leases fail, every process is stopped and reaped.
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  /// A fresh page in its own browser context, on a browser of `options.device` (the first lease
  /// of a phone or a tablet waits for its browsers to start). Waits for a free page until the
  /// lease wait or `deadline`, whichever comes first. Throws gleaner::Error(Unavailable) when none can be had in
  /// time or the pool is shutting down; gleaner::Error(Timeout) when `deadline` passes while the
  /// page is being prepared.
  Lease lease(const ContextOptions& options, Deadline deadline);

  /// Waits until every process of the devices in use is up (start-up, tests, benchmarks). False
  /// at the deadline.
  bool wait_ready(Deadline deadline) const;

  PoolState state() const;

  /// Stops lending (lease() throws Unavailable from now on), waits up to `grace` for the leases
  /// out to end, then stops every process (Browser.close, SIGTERM, SIGKILL) and reaps it.
  /// Idempotent; later calls wait for the first to finish.
  void shutdown(Millis grace);

  /// The pool-wide replay archive (replay_dir), or null. Its requests() log is what tests read.
  std::shared_ptr<ReplayArchive> replay() const;
  const PoolOptions& options() const;

 private:
  std::shared_ptr<PoolCore> core_;
  std::mutex join_mutex_;  // guards joining supervisor_ (shutdown() may be called concurrently)
  // Declared last: runs the core's supervisor loop until shutdown; joined by shutdown().
  std::thread supervisor_;
};

}  // namespace gleaner::browser
