#pragma once
// A leased browser page: one tab in its own browser context (cookies, storage and cache of its
// own), attached over a flat DevTools session. Obtained from browser::Pool::lease(); used by one
// thread at a time.
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cdp/connection.h"
#include "core/clock.h"

namespace gleaner::browser {

using Json = nlohmann::json;

class NavigationTracker;
class RequestRouter;

/// When a navigation counts as done.
struct WaitSpec {
  enum class Until {
    Load,              ///< the main document's load event
    DomContentLoaded,  ///< the main document's DOMContentLoaded
    NetworkIdle,       ///< no network connection for 500 ms after the document committed
    Selector,          ///< an element matches `selector` (CSS)
    FixedWait,         ///< `fixed` after the main document committed, whatever else happens
  };
  Until until = Until::Load;
  /// Until::Selector: the CSS selector to wait for.
  std::string selector;
  /// Until::FixedWait: how long to wait after the document committed.
  Millis fixed{0};
  /// Waited after the condition above is met (e.g. for scripts that render late). Never waits
  /// past the navigation's deadline.
  Millis extra{0};

  static WaitSpec load() { return {}; }
  static WaitSpec dom_content_loaded() {
    return {Until::DomContentLoaded, {}, Millis(0), Millis(0)};
  }
  static WaitSpec network_idle() { return {Until::NetworkIdle, {}, Millis(0), Millis(0)}; }
  static WaitSpec selector_of(std::string css) {
    return {Until::Selector, std::move(css), Millis(0), Millis(0)};
  }
  static WaitSpec fixed_wait(Millis ms) { return {Until::FixedWait, {}, ms, Millis(0)}; }
  /// This spec with an extra wait after it is met.
  WaitSpec then_wait(Millis ms) const {
    WaitSpec copy = *this;
    copy.extra = ms;
    return copy;
  }
};

/// One HTTP redirect of the main document (or a script navigation that replaced it).
struct Redirect {
  std::string url;
  int status = 0;
};

/// What a navigation ended with.
struct NavigationResult {
  /// The URL finally loaded in the top frame, after redirects.
  std::string url;
  /// HTTP status of the final main document response (0 when there was none, e.g. about:blank).
  int status = 0;
  /// Its response headers, names in lower case (repeated headers joined by "\n", as Chromium does).
  std::map<std::string, std::string> headers;
  /// The URLs that redirected, in order, each with the status that redirected it.
  std::vector<Redirect> redirects;
  /// Chromium's net error when the document came with one but still had a response (e.g.
  /// net::ERR_HTTP_RESPONSE_CODE_FAILURE for an empty 404); empty otherwise.
  std::string error_text;
};

/// The page's viewport (Emulation.setDeviceMetricsOverride).
struct Viewport {
  int width = 1366;
  int height = 768;
  double device_scale_factor = 1.0;
  bool mobile = false;

  bool operator==(const Viewport&) const = default;
};

/// The tab strip and toolbar above the page in a windowed Chromium 156 on Linux (measured under
/// Xvfb: a 1366 x 900 window shows a 1366 x 813 page). A desktop page's window is its viewport
/// plus this, so outerHeight > innerHeight as in a person's browser (docs/stealth.md).
inline constexpr int kWindowFrameHeight = 87;
/// The screen a desktop page reports unless its window needs a larger one.
inline constexpr int kDesktopScreenWidth = 1920;
inline constexpr int kDesktopScreenHeight = 1080;

/// A JavaScript expression whose promise resolves true once an element matches `selector`; with
/// `give_up_after`, it resolves false when none has after that long. For Runtime.evaluate with
/// awaitPromise.
std::string selector_waiter(const std::string& selector,
                            std::optional<Millis> give_up_after = std::nullopt);

class Page {
 public:
  /// Detaches the session. The pool disposes the page's browser context afterwards.
  ~Page();
  Page(const Page&) = delete;
  Page& operator=(const Page&) = delete;

  /// Loads `url` in the top frame and waits as `wait` says, at most until `deadline` and never
  /// longer than 300 s. Throws gleaner::Error:
  /// UpstreamError when Chromium could not load it (DNS, connection, TLS: the net error in the
  /// detail), Timeout ("the page did not load within N ms") when `deadline` passes first (the
  /// page is told to stop loading and stays usable), InvalidParameter for a bad CSS selector;
  /// cdp::Error (Closed, Crashed) when the browser or the tab died.
  NavigationResult navigate(const std::string& url, const WaitSpec& wait, Deadline deadline);

  /// Evaluates `expression` in the top frame (promises awaited) and returns its value as JSON
  /// (undefined → null). An exception thrown in the page → gleaner::Error(Internal) with the
  /// exception text in the detail. At the deadline: cdp::Error(Timeout), and the script, if it
  /// still runs, is terminated (Runtime.terminateExecution), so the page answers the next call.
  Json evaluate(const std::string& expression, Deadline deadline);
  /// As evaluate(), in an isolated world of the top frame's document: the same DOM, but none of
  /// the page's scripts' globals, and built-ins (JSON, Array, String...) the page cannot have
  /// replaced; the page cannot see it either. For reading a page; a script that needs the page's
  /// own variables uses evaluate().
  Json evaluate_isolated(const std::string& expression, Deadline deadline);
  /// The current document serialized (doctype included).
  std::string html(Deadline deadline);
  /// The URL last committed in the top frame.
  std::string url() const;

  /// Turns the page's own scripts off (Emulation.setScriptExecutionDisabled) or back on, from
  /// the next document on. For pages read from their server-rendered markup, where the page's
  /// scripts would only rewrite what is read while it is read. Our evaluations still run.
  void set_scripts_enabled(bool enabled, Deadline deadline);

  /// Sets the viewport (what a screenshot of the visible area covers).
  void set_viewport(const Viewport& viewport, Deadline deadline);
  const Viewport& viewport() const { return viewport_; }
  /// Page.getLayoutMetrics: cssContentSize, cssLayoutViewport, cssVisualViewport (full-page
  /// screenshots size their capture from cssContentSize).
  Json layout_metrics(Deadline deadline);

  /// Calls `handler` with the params of every Network.responseReceived of this page (all frames,
  /// all resource types), on the DevTools thread: it must be quick and must not wait on a reply.
  cdp::SubscriptionId on_response(std::function<void(const Json& params)> handler);

  /// The DevTools session of the tab, for other domains (screenshots, input, DOM).
  cdp::Session& session() { return *session_; }
  const std::string& target_id() const { return target_id_; }
  const std::string& context_id() const { return context_id_; }

 private:
  friend class BrowserInstance;
  Page(cdp::Connection& connection, std::string context_id, std::string target_id,
       std::string session_id, std::shared_ptr<RequestRouter> router);
  void subscribe();
  /// The Emulation.setDeviceMetricsOverride parameters for `viewport`.
  static Json viewport_params(const Viewport& viewport);
  [[noreturn]] void fail_timeout(const std::string& url, SteadyClock::time_point start,
                                 Deadline deadline);
  void wait_for_selector(const std::string& selector, const std::string& url,
                         SteadyClock::time_point start, Deadline deadline);

  std::string context_id_;
  std::string target_id_;
  Viewport viewport_;
  // The window of a visible page (Browser.getWindowForTarget); a hidden page has none.
  std::optional<int> window_id_;
  // ContextOptions::paint_on_demand: the blank tab in front of the page in its window, and
  // whether the page is in front (painted) now.
  std::string front_target_id_;
  bool in_front_ = false;
  // The Emulation.setUserAgentOverride parameters the page has (browser/identity.h).
  Json identity_;
  // Network.setExtraHTTPHeaders was given headers: configuring the page again must clear them.
  Json extra_headers_ = Json::object();  // the last Network.setExtraHTTPHeaders
  bool touch_ = false;  // Emulation.setTouchEmulationEnabled sent
  std::shared_ptr<NavigationTracker> tracker_;
  std::shared_ptr<RequestRouter> router_;
  // Declared last, destroyed first: unsubscribes the event handlers that use the members above.
  std::unique_ptr<cdp::Session> session_;
};

}  // namespace gleaner::browser
