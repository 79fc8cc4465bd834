#pragma once
// The seam between a request and the browser. The site endpoints and POST /scrape/web only ever see
// a Tab (navigate, evaluate, cookies, a screenshot surface) opened with a BrowserProfile;
// production opens tabs from browser::Pool through the egress gateway (extract/pool_tabs.cpp, the
// one page opener), unit tests from a fake that answers with recorded script output. This keeps
// every flow (status checks, block detection, fallbacks) testable without Chromium.
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/clock.h"
#include "screenshots/capture.h"

namespace gleaner::extract {

/// When a navigation counts as done (mapped onto browser::WaitSpec).
struct WaitFor {
  enum class Kind { Load, DomContentLoaded, NetworkIdle, Selector, RequiredSelector, FixedWait };
  Kind kind = Kind::Load;
  /// Kind::Selector: CSS selector that must match; a miss within the deadline is not an error
  /// (block pages lack it), the endpoint's block detection then decides.
  /// Kind::RequiredSelector: the page is not ready until it matches; a miss is a Timeout at the
  /// deadline (POST /scrape/web's waitFor), a selector Chromium refuses an InvalidParameter.
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
  static WaitFor selector_required(std::string css) {
    return {Kind::RequiredSelector, std::move(css), Millis(0), Millis::max()};
  }
  /// This wait with `pause` more after it.
  WaitFor then_wait(Millis pause) const {
    WaitFor copy = *this;
    copy.extra = pause;
    return copy;
  }
};

/// The browser a request needs (mapped onto browser::ContextOptions).
struct BrowserProfile {
  /// Desktop: Chrome on Linux. Mobile: Chrome on an Android phone (a Pixel 7's screen). Tablet:
  /// Chrome on an Android tablet (a Galaxy Tab S4's screen, in portrait).
  enum class Device { Desktop, Mobile, Tablet };
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
  /// URL substrings whose requests fail before they leave the browser (POST /scrape/web's
  /// blockUrls); the page itself is never blocked.
  std::vector<std::string> blocked_url_parts;
  /// A painted tab, for pages whose scripts draw content on scroll or in animation frames (maps'
  /// results feed). Default: a hidden tab that Chromium never paints, which reads the same DOM
  /// for about 40% less CPU (docs/browser.md).
  bool painted = false;
  /// Whether the page's own scripts run. Off for pages read from their server-rendered markup
  /// whose scripts would rewrite it while it is read (a failed hydration on a replayed page); the
  /// walls' markers are in their markup too.
  bool run_scripts = true;

  /// The viewport asked by the caller (POST /scrape/web's viewport), instead of the device's.
  std::optional<int> width;
  std::optional<int> height;

  /// The viewport and pixel ratio that go with `device` (a current Chrome on Linux / on an
  /// Android phone / on an Android tablet). Its user agent is the browser's to derive from its
  /// own version (browser/identity.h).
  int viewport_width() const;
  int viewport_height() const;
  double device_scale_factor() const;
  /// A phone or a tablet: a mobile viewport (meta viewport honoured, overlay scrollbars) and a
  /// touch screen.
  bool handheld() const { return device != Device::Desktop; }
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

/// A cookie put in a tab's jar before loading a page.
struct Cookie {
  std::string name;
  std::string value;
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
  /// Puts `cookies` in the tab's jar for `url`, so the page and its sub-resources on that site
  /// send them like the site's own (Chromium drops a Cookie header given as an extra header).
  /// Default: throws gleaner::Error(Unavailable) (a tab that keeps no jar).
  virtual void set_cookies(const std::vector<Cookie>& cookies, const std::string& url,
                           Deadline deadline);
  /// The loaded page for a screenshot (screenshots/capture.h). Default: throws
  /// gleaner::Error(Unavailable) (a tab that cannot paint).
  virtual screenshots::Surface& surface();
  /// Throws the address guard's 400 (gleaner::Error(InvalidParameter) naming `url`, the same as
  /// for a refused page URL) when the top frame went to an address the guard refuses since the
  /// last navigate(): a redirect, a navigation the page's scripts or a jsScenario step made, a
  /// meta refresh. navigate() checks its own; call it again after anything else the page may have
  /// done, before its content is used. Default: nothing (a tab that reaches no network).
  virtual void check_documents() const {}
  /// Stops the page's own scripts (a page that keeps navigating itself: a challenge reloading
  /// until it is satisfied), so that what it shows can be read; the next navigate() runs them
  /// again if the tab does. Default: nothing (a tab whose pages do not run).
  virtual void hold_still(Deadline) {}

  /// Whether click(), type() and press() below work: the browser's own input (DevTools Input
  /// domain), whose events are isTrusted as a person's are. Default: false (jsScenario then
  /// dispatches script events instead).
  virtual bool trusted_input() const { return false; }
  /// Moves the mouse to (x, y) (CSS pixels of the viewport) in a few steps from where it was, and
  /// clicks there with the left button. Default: throws gleaner::Error(Unavailable).
  virtual void click(double x, double y, Deadline deadline);
  /// Selects everything in the focused field and types `text` over it. Default: throws.
  virtual void type(const std::string& text, Deadline deadline);
  /// Presses and releases `key` (a KeyboardEvent key name: "Enter", "Tab", "a"). Default: throws.
  virtual void press(const std::string& key, Deadline deadline);
};

/// A document (a JSON API answer, or a page read without running its scripts) as a road fetched it.
struct Document {
  /// The URL finally answered (after redirects).
  std::string url;
  /// HTTP status (0 when none was received).
  int status = 0;
  /// The media type, without parameters, lower case ("application/json").
  std::string content_type;
  /// The body as text (UTF-8): a JSON document's text, an HTML document's markup (on the browser
  /// road the DOM's outerHTML, which HTML parsing makes the same as the bytes parsed again).
  std::string text;
  /// The title of what the browser showed (a store's HTML page where the JSON should be); the
  /// plain road leaves it empty.
  std::string title;
};

/// The documents of one request, on one road. The first is loaded as a person's browser loads an
/// address (a navigation); the next ones are fetched as the first document's page fetches from its
/// own origin (fetch() with its cookies): the cookies the earlier answers set go with them.
class DocumentRoad {
 public:
  enum class Load {
    Navigation,  ///< the request's document, as an address typed in
    Fetch,       ///< a call the document's page makes to its own origin
  };
  /// What the document is expected to be.
  enum class Media {
    Json,  ///< a JSON API answer (after an anti-hijacking prefix: without_json_guard())
    Html,  ///< an HTML page, decoded to UTF-8 as a browser decodes it (extract/plain/charset.h)
  };
  virtual ~DocumentRoad() = default;
  /// Fetches `url`. Throws gleaner::Error: Timeout, UpstreamError (network), InvalidParameter
  /// (an address the guard refuses), and on the plain road NotTheDocument when the answer is not
  /// the document (a wall, an error status, not `media`): the request then takes the browser road.
  virtual Document get(const std::string& url, Load load, Media media, Deadline deadline) = 0;
};

/// The plain road's answer that is not the document: why, in words (the log says it).
class NotTheDocument : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Lends tabs. Throws gleaner::Error(Unavailable) when no tab can be had before the deadline.
class TabSource {
 public:
  virtual ~TabSource() = default;
  virtual std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline deadline) = 0;
  /// The road without a browser for a request whose page is a document (Endpoint::
  /// reads_document()): its documents fetched by a plain HTTP client on the same way out as a tab
  /// of `profile` (egress gateway, proxies, address guard, or the replay archive), sending the
  /// headers that profile's browser sends. Null when the source has none (the request then takes
  /// the browser road). Default: none.
  virtual std::unique_ptr<DocumentRoad> plain_road(const BrowserProfile& profile,
                                                   Deadline deadline);
};

/// Tabs of another source, each handed over only once `ready` returned (it throws to refuse): the
/// tab opens meanwhile, and nothing is loaded before. The service gates its tabs on the request's
/// credit reservation, so a request that cannot pay loads no page (api/billing.h).
class GatedTabs final : public TabSource {
 public:
  GatedTabs(TabSource& inner, std::function<void()> ready)
      : inner_(inner), ready_(std::move(ready)) {}
  std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline deadline) override {
    std::unique_ptr<Tab> tab = inner_.open(profile, deadline);
    ready_();
    return tab;
  }
  std::unique_ptr<DocumentRoad> plain_road(const BrowserProfile& profile,
                                           Deadline deadline) override {
    std::unique_ptr<DocumentRoad> road = inner_.plain_road(profile, deadline);
    if (road) ready_();  // nothing is fetched before (ready_ may be called again: idempotent)
    return road;
  }

 private:
  TabSource& inner_;
  const std::function<void()> ready_;
};

}  // namespace gleaner::extract
