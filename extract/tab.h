#pragma once
// The seam between an endpoint and the browser. Endpoints only ever see a Tab (navigate, evaluate)
// opened with a BrowserProfile; production opens tabs from browser::Pool (extract/pool_tabs.cpp),
// unit tests from a fake that answers with recorded script output. This keeps every endpoint's
// flow (status checks, block detection, fallbacks) testable without Chromium.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"

namespace gleaner::extract {

/// When a navigation counts as done (mapped onto browser::WaitSpec).
struct WaitFor {
  enum class Kind { Load, DomContentLoaded, NetworkIdle, Selector, FixedWait };
  Kind kind = Kind::Load;
  /// Kind::Selector: CSS selector that must match; a miss within the deadline is not an error
  /// (block pages lack it), the endpoint's block detection then decides.
  std::string selector;
  /// Kind::FixedWait: how long to wait after the load; other kinds: extra wait after readiness.
  Millis extra{0};
  /// Kind::Selector: how long to wait for the selector once the page has loaded (never past
  /// the deadline). A page the site answered with an HTTP error is not waited on at all.
  Millis patience{Millis::max()};

  static WaitFor load() { return {}; }
  static WaitFor dom_content_loaded() { return {Kind::DomContentLoaded, {}, Millis(0), {}}; }
  static WaitFor network_idle() { return {Kind::NetworkIdle, {}, Millis(0), {}}; }
  static WaitFor selector_of(std::string css, Millis patience = Millis::max()) {
    return {Kind::Selector, std::move(css), Millis(0), patience};
  }
};

/// The browser a request needs (mapped onto browser::ContextOptions).
struct BrowserProfile {
  enum class Device { Desktop, Mobile };
  Device device = Device::Desktop;
  /// Extra HTTP headers sent with every request (e.g. Accept-Language).
  std::map<std::string, std::string> headers;
  /// The load profile: what the page may fetch and whether it is painted. Data never needs
  /// images, media, fonts or the requests of ad and tracking hosts (a residential proxy is paid
  /// per gigabyte): they are blocked unless an endpoint says it needs them.
  bool load_media = false;
  bool load_trackers = false;
  /// Hosts the page may not reach besides trackers (a site's own beacon or recommendation
  /// hosts), lower case; subdomains included.
  std::vector<std::string> blocked_hosts;
  /// A painted tab, for pages whose scripts draw content on scroll or in animation frames (maps'
  /// results feed). Default: a hidden tab that Chromium never paints, which reads the same DOM
  /// for about 40% less CPU (docs/browser.md).
  bool painted = false;
  /// Whether the page's own scripts run. Off for pages read from their server-rendered markup
  /// whose scripts would rewrite it while it is read (a failed hydration on a replayed page); the
  /// walls' markers are in their markup too.
  bool run_scripts = true;

  /// The user agent and viewport that go with `device` (a current Chrome on Linux / on Android).
  std::string user_agent() const;
  int viewport_width() const { return device == Device::Mobile ? 412 : 1366; }
  int viewport_height() const { return device == Device::Mobile ? 915 : 900; }
};

/// What a navigation ended with.
struct Navigation {
  /// The URL finally shown (after redirects).
  std::string url;
  /// HTTP status of the main document (0 when none was received).
  int status = 0;
  /// Response headers of the main document, lower-case names.
  std::map<std::string, std::string> headers;
};

/// Where an in-page script runs.
enum class World {
  /// A world of its own on the page: the same DOM, but none of the page's variables, built-ins the
  /// page cannot have replaced, and invisible to the page's scripts. For every script that only
  /// reads the DOM.
  Isolated,
  /// The page's own world: only for a script that reads the page's variables (e.g. a state object
  /// the site's scripts leave on window).
  Page,
};

/// One browser tab, lent for one request.
class Tab {
 public:
  virtual ~Tab() = default;
  /// Loads `url` and waits as told. Throws gleaner::Error: Timeout at the deadline, UpstreamError
  /// for a network error.
  virtual Navigation navigate(const std::string& url, const WaitFor& wait, Deadline deadline) = 0;
  /// Evaluates `expression` in the page, in `world` (promises awaited), and returns its value as
  /// JSON.
  virtual nlohmann::json evaluate(const std::string& expression, Deadline deadline,
                                  World world) = 0;
};

/// Lends tabs. Throws gleaner::Error(Unavailable) when no tab can be had before the deadline.
class TabSource {
 public:
  virtual ~TabSource() = default;
  virtual std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline deadline) = 0;
};

}  // namespace gleaner::extract
