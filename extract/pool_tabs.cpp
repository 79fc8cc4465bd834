// The page opener on browser::Pool: tabs are leased pages, a BrowserProfile becomes the lease's
// ContextOptions and a WaitFor the navigation's WaitSpec, a gateway lease the context's proxy.
// Everything else of a request's flow lives in Endpoint::fetch() and web::read_web_page() and is
// unit-tested without Chromium.
#include "extract/pool_tabs.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

#include "core/error.h"
#include "core/log.h"
#include "extract/block_detection.h"
#include "extract/endpoint.h"
#include "extract/page_reader.h"
#include "extract/script_requests.h"
#include "extract/web/ad_blocker.h"
#include "extract/web/url_blocker.h"
#include "proxies/gateway.h"
#include "proxies/lease.h"

namespace gleaner::extract {
namespace {

// Left of a deadline for reading the page once a selector wait gave up.
constexpr Millis kReadMargin{2000};
// How long a selector is waited for between two looks for a wall.
constexpr Millis kWallCheckSlice{1000};

std::string sleep_for(Millis pause) {
  return "new Promise((resolve) => setTimeout(resolve, " + std::to_string(pause.count()) + "))";
}

// The navigation's readiness. A selector (and the extra wait after it) is waited for after the
// load by LeasedTab::navigate.
browser::WaitSpec wait_spec(const WaitFor& wait) {
  browser::WaitSpec spec;
  switch (wait.kind) {
    case WaitFor::Kind::Load: spec = browser::WaitSpec::load(); break;
    case WaitFor::Kind::DomContentLoaded: spec = browser::WaitSpec::dom_content_loaded(); break;
    case WaitFor::Kind::NetworkIdle: spec = browser::WaitSpec::network_idle(); break;
    case WaitFor::Kind::Selector: return browser::WaitSpec::load();
    case WaitFor::Kind::RequiredSelector:
      spec = browser::WaitSpec::selector_of(wait.selector);
      break;
    case WaitFor::Kind::FixedWait: return browser::WaitSpec::fixed_wait(wait.extra);
  }
  return spec.then_wait(wait.extra);
}

// The ad and tracker hosts (extract/web/ad_hosts.txt): POST /scrape/web's blockAds and the site
// endpoints' load profile, one list for the whole process.
std::shared_ptr<browser::Interceptor> tracker_blocker() {
  static const auto blocker = std::make_shared<web::AdBlocker>();
  return blocker;
}

std::string join_lines(const std::vector<std::string>& hosts) {
  std::string out;
  for (const std::string& h : hosts) out += h + "\n";
  return out;
}

browser::Device device_of(BrowserProfile::Device device) {
  switch (device) {
    case BrowserProfile::Device::Mobile: return browser::Device::Phone;
    case BrowserProfile::Device::Tablet: return browser::Device::Tablet;
    case BrowserProfile::Device::Desktop: break;
  }
  return browser::Device::Desktop;
}

// The lease options of a profile: the device's identity (browser/identity.h: its user agent of the
// running Chromium's version, userAgentData, client hints), headers, viewport, the load profile.
browser::ContextOptions context_options(const BrowserProfile& profile) {
  browser::ContextOptions options;
  options.device = device_of(profile.device);
  options.extra_headers = profile.headers;
  browser::Viewport viewport;
  viewport.width = profile.viewport_width();
  viewport.height = profile.viewport_height();
  viewport.mobile = profile.handheld();
  viewport.device_scale_factor = profile.device_scale_factor();
  options.viewport = viewport;
  options.touch = profile.handheld();
  if (!profile.load_media) options.blocked_resource_types = {"Image", "Media", "Font"};
  if (!profile.load_trackers) options.interceptors.push_back(tracker_blocker());
  if (!profile.blocked_hosts.empty()) {
    options.interceptors.push_back(
        std::make_shared<web::AdBlocker>(join_lines(profile.blocked_hosts)));
  }
  if (!profile.blocked_url_parts.empty()) {
    options.interceptors.push_back(std::make_shared<web::UrlBlocker>(profile.blocked_url_parts));
  }
  options.hidden = !profile.painted;
  return options;
}

// What Input.dispatchKeyEvent needs of a key besides its name: its physical code, its Windows key
// code (which Blink's default actions read) and the text it types, if any.
struct KeyDefinition {
  std::string code;
  int key_code = 0;
  std::string text;
};

KeyDefinition key_definition(const std::string& key) {
  static const std::map<std::string, KeyDefinition> kNamed = {
      {"Enter", {"Enter", 13, "\r"}},       {"Tab", {"Tab", 9, ""}},
      {"Escape", {"Escape", 27, ""}},       {"Backspace", {"Backspace", 8, ""}},
      {"Delete", {"Delete", 46, ""}},       {" ", {"Space", 32, " "}},
      {"ArrowDown", {"ArrowDown", 40, ""}}, {"ArrowUp", {"ArrowUp", 38, ""}},
      {"ArrowLeft", {"ArrowLeft", 37, ""}}, {"ArrowRight", {"ArrowRight", 39, ""}},
      {"Home", {"Home", 36, ""}},           {"End", {"End", 35, ""}},
      {"PageDown", {"PageDown", 34, ""}},   {"PageUp", {"PageUp", 33, ""}},
  };
  if (auto it = kNamed.find(key); it != kNamed.end()) return it->second;
  if (key.size() == 1) {
    const char c = key[0];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return {std::string("Key") + upper, upper, key};
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return {std::string("Digit") + c, c, key};
    return {"", 0, key};
  }
  return {key, 0, ""};
}

// Notes the top frame's documents on a gateway lease; decides nothing (the gateway refuses).
class MainDocumentNotes final : public browser::Interceptor {
 public:
  explicit MainDocumentNotes(std::function<void(std::string)> note) : note_(std::move(note)) {}
  std::optional<browser::Decision> decide(const browser::InterceptedRequest& request) override {
    if (request.is_main_frame) note_(request.url);
    return std::nullopt;
  }
  // Only documents can be the top frame's: sub-resources need not wait for this interceptor.
  browser::InterceptScope scope() const override { return browser::InterceptScope::Documents; }

 private:
  const std::function<void(std::string)> note_;
};

class PageSurface final : public screenshots::Surface {
 public:
  explicit PageSurface(browser::Page& page) : page_(page) {}

  nlohmann::json evaluate_isolated(const std::string& expression, Deadline deadline) override {
    return page_.evaluate_isolated(expression, deadline);
  }

  screenshots::Clip content_size(Deadline deadline) override {
    const nlohmann::json size =
        page_.layout_metrics(deadline).value("cssContentSize", nlohmann::json::object());
    return {0, 0, size.value("width", 0.0), size.value("height", 0.0)};
  }

  std::string capture_base64(const screenshots::Shot& shot, Deadline deadline) override {
    nlohmann::json params = {{"format", std::string(screenshots::format_name(shot.format))},
                             {"optimizeForSpeed", shot.optimize_for_speed}};
    if (shot.quality) params["quality"] = *shot.quality;
    if (shot.clip) {
      params["captureBeyondViewport"] = true;
      params["clip"] = {{"x", shot.clip->x},
                        {"y", shot.clip->y},
                        {"width", shot.clip->width},
                        {"height", shot.clip->height},
                        {"scale", 1}};
    }
    const nlohmann::json result =
        page_.session().call("Page.captureScreenshot", std::move(params), deadline);
    const auto data = result.find("data");
    return data != result.end() && data->is_string() ? data->get<std::string>() : std::string();
  }

 private:
  browser::Page& page_;
};

// The page's XHR and fetch requests, from the DevTools events of its session (their handlers run
// on the DevTools thread).
class ScriptRequestLog {
 public:
  void started(const nlohmann::json& params) {
    const std::string type = params.value("type", std::string());
    if (type != "XHR" && type != "Fetch") return;
    std::lock_guard lock(mutex_);
    // A redirect is the same request again.
    if (open_.emplace(params.value("requestId", std::string()), counts_.started + 1).second) {
      ++counts_.started;
    }
  }
  void ended(const nlohmann::json& params) {
    std::lock_guard lock(mutex_);
    open_.erase(params.value("requestId", std::string()));
  }
  ScriptRequests counts() const {
    std::lock_guard lock(mutex_);
    ScriptRequests out{counts_.started, {}};
    for (const auto& [id, number] : open_) out.in_flight.push_back(number);
    return out;
  }

 private:
  mutable std::mutex mutex_;
  ScriptRequests counts_;
  std::map<std::string, std::int64_t> open_;  // request id → its number
};

class LeasedTab final : public Tab {
 public:
  LeasedTab(std::shared_ptr<OpenedPage> opened, bool run_scripts,
            std::function<void(bool used)> on_end)
      : opened_(std::move(opened)),
        way_out_(opened_->way_out),
        lease_(opened_->lease),
        surface_(lease_.page()),
        run_scripts_(run_scripts),
        on_end_(std::move(on_end)) {}
  ~LeasedTab() override {
    for (const cdp::SubscriptionId id : request_subscriptions_) {
      lease_.page().session().connection().off(id);
    }
    if (on_end_) on_end_(used_);
  }

  Navigation navigate(const std::string& url, const WaitFor& wait, Deadline deadline) override {
    used_ = true;
    if (scripts_off_ == run_scripts_) {  // off for a tab that runs them (hold_still), or not yet
      lease_.page().set_scripts_enabled(run_scripts_, deadline);
      scripts_off_ = !run_scripts_;
    }
    if (way_out_) way_out_->begin_navigation();
    browser::NavigationResult result;
    try {
      result = lease_.page().navigate(url, wait_spec(wait), deadline);
    } catch (const Error& e) {
      diagnose_main_document(e.code() == ErrorCode::UpstreamError);
      throw;
    }
    // An http:// page the gateway could not reach is the gateway's own 502, not the site's.
    diagnose_main_document(result.headers.count("x-gleaner-gateway") != 0);
    // A selector is waited for after the load, and a miss is not an error (tab.h): an error page
    // or a block page lacks it, and the endpoint's checks then tell what the page is.
    if (wait.kind == WaitFor::Kind::Selector && result.status < 400) {
      const bool wall = !wait_for_selector(wait, deadline);
      if (!wall && wait.extra.count() > 0) {
        lease_.page().evaluate_isolated(sleep_for(std::min(wait.extra, time_left(deadline))),
                                        deadline);
      }
    }
    return {std::move(result.url), result.status, std::move(result.headers)};
  }

  // Waits up to the selector's patience, in slices: between two, a page that turned out to be a
  // wall (wall_reason) ends the wait, so a captcha answers in about a slice, not the patience.
  // Everything runs in a world of our own, where the page cannot see it (docs/stealth.md).
  // False when a wall ended it.
  bool wait_for_selector(const WaitFor& wait, Deadline deadline) {
    const Deadline give_up = std::min(deadline_in(wait.patience), deadline - kReadMargin);
    while (true) {
      const Millis left = std::max(time_left(give_up), Millis(0));
      const Millis slice = std::min(left, kWallCheckSlice);
      if (lease_.page().evaluate_isolated(browser::selector_waiter(wait.selector, slice),
                                          deadline) == true) {
        return true;
      }
      if (slice >= left) return true;  // patience spent: the endpoint's checks tell what it is
      if (auto wall = wall_reason(lease_.page().evaluate_isolated(block_signals_expression(),
                                                                   deadline))) {
        log::debug("extract") << "stopped waiting for " << wait.selector << ": " << *wall;
        return false;
      }
    }
  }

  nlohmann::json evaluate(const std::string& expression, Deadline deadline, World world) override {
    return world == World::Page ? lease_.page().evaluate(expression, deadline)
                                : lease_.page().evaluate_isolated(expression, deadline);
  }

  void set_cookies(const std::vector<Cookie>& cookies, const std::string& url,
                   Deadline deadline) override {
    used_ = true;
    nlohmann::json jar = nlohmann::json::array();
    for (const Cookie& c : cookies)
      jar.push_back({{"name", c.name}, {"value", c.value}, {"url", url}});
    if (!jar.empty())
      lease_.page().session().call("Network.setCookies", {{"cookies", jar}}, deadline);
  }

  screenshots::Surface& surface() override { return surface_; }

  void check_documents() const override {
    if (way_out_) way_out_->check_main_document();
  }

  void hold_still(Deadline deadline) override {
    if (scripts_off_) return;
    lease_.page().set_scripts_enabled(false, deadline);
    scripts_off_ = true;
  }

  std::optional<ScriptRequests> script_requests() {
    if (!request_log_) {
      request_log_ = std::make_shared<ScriptRequestLog>();
      cdp::Session& session = lease_.page().session();
      const auto on = [&](const char* event, void (ScriptRequestLog::*note)(const nlohmann::json&)) {
        request_subscriptions_.push_back(session.connection().on(
            event, session.id(), [log = request_log_, note](const nlohmann::json& params) {
              ((*log).*note)(params);
            }));
      };
      on("Network.requestWillBeSent", &ScriptRequestLog::started);
      on("Network.loadingFinished", &ScriptRequestLog::ended);
      on("Network.loadingFailed", &ScriptRequestLog::ended);
    }
    return request_log_->counts();
  }

  bool trusted_input() const override { return true; }

  void click(double x, double y, Deadline deadline) override {
    cdp::Session& session = lease_.page().session();
    std::vector<cdp::PendingCall> calls;
    // A hand moves the pointer to the element before it presses (pages that watch mousemove see
    // it arrive), then presses and releases in place.
    constexpr int kSteps = 4;
    for (int i = 1; i <= kSteps; ++i) {
      const double t = static_cast<double>(i) / kSteps;
      calls.push_back(session.send("Input.dispatchMouseEvent",
                                   {{"type", "mouseMoved"},
                                    {"x", pointer_x_ + (x - pointer_x_) * t},
                                    {"y", pointer_y_ + (y - pointer_y_) * t}},
                                   deadline));
    }
    for (const char* type : {"mousePressed", "mouseReleased"}) {
      calls.push_back(session.send("Input.dispatchMouseEvent",
                                   {{"type", type},
                                    {"x", x},
                                    {"y", y},
                                    {"button", "left"},
                                    {"buttons", std::string(type) == "mousePressed" ? 1 : 0},
                                    {"clickCount", 1}},
                                   deadline));
    }
    for (auto& call : calls) call.get();
    pointer_x_ = x;
    pointer_y_ = y;
  }

  void type(const std::string& text, Deadline deadline) override {
    cdp::Session& session = lease_.page().session();
    std::vector<cdp::PendingCall> calls;
    // Ctrl+A (the editing command itself, whatever the platform's shortcut), then the text over
    // the selection (an empty text: Backspace).
    const nlohmann::json a = {
        {"key", "a"}, {"code", "KeyA"}, {"windowsVirtualKeyCode", 65}, {"modifiers", 2}};
    nlohmann::json down = a;
    down["type"] = "rawKeyDown";
    down["commands"] = nlohmann::json::array({"selectAll"});
    nlohmann::json up = a;
    up["type"] = "keyUp";
    calls.push_back(session.send("Input.dispatchKeyEvent", std::move(down), deadline));
    calls.push_back(session.send("Input.dispatchKeyEvent", std::move(up), deadline));
    if (text.empty()) {
      for (const char* type : {"rawKeyDown", "keyUp"}) {
        calls.push_back(session.send("Input.dispatchKeyEvent",
                                     {{"type", type},
                                      {"key", "Backspace"},
                                      {"code", "Backspace"},
                                      {"windowsVirtualKeyCode", 8}},
                                     deadline));
      }
    } else {
      calls.push_back(session.send("Input.insertText", {{"text", text}}, deadline));
    }
    for (auto& call : calls) call.get();
  }

  void press(const std::string& key, Deadline deadline) override {
    cdp::Session& session = lease_.page().session();
    const KeyDefinition k = key_definition(key);
    const nlohmann::json base = {
        {"key", key}, {"code", k.code}, {"windowsVirtualKeyCode", k.key_code}};
    nlohmann::json down = base;
    // A key that types sends its text with keyDown (keypress and input follow).
    down["type"] = k.text.empty() ? "rawKeyDown" : "keyDown";
    if (!k.text.empty()) down["text"] = k.text;
    nlohmann::json up = base;
    up["type"] = "keyUp";
    std::vector<cdp::PendingCall> calls;
    calls.push_back(session.send("Input.dispatchKeyEvent", std::move(down), deadline));
    calls.push_back(session.send("Input.dispatchKeyEvent", std::move(up), deadline));
    for (auto& call : calls) call.get();
  }

 private:
  // What the gateway knows explains a navigation better than the browser's net error: a refused
  // document (the page, a redirect of it, a navigation it made) is the caller's URL at fault; a
  // host it could not reach is said in words ("shop.invalid does not resolve") where the browser
  // only saw net::ERR_TUNNEL_CONNECTION_FAILED or the gateway's 502. `unreached`: the navigation
  // failed on the network, or answered with the gateway's own error.
  void diagnose_main_document(bool unreached) const {
    if (!way_out_) return;
    way_out_->check_main_document();
    if (unreached) way_out_->check_main_document_reached();
  }

  // The page, shared with a session that keeps it between requests (or only this tab's).
  std::shared_ptr<OpenedPage> opened_;
  std::optional<proxies::GatewayLease>& way_out_;
  browser::Lease& lease_;
  PageSurface surface_;
  const bool run_scripts_;
  // Runs when the tab goes, told whether it loaded or changed anything: a session's next request
  // may take the page.
  const std::function<void(bool used)> on_end_;
  bool used_ = false;
  bool scripts_off_ = false;
  // The page's XHR and fetch requests, once script_requests() asked for them.
  std::shared_ptr<ScriptRequestLog> request_log_;
  std::vector<cdp::SubscriptionId> request_subscriptions_;
  // Where the mouse is (CSS pixels of the viewport): it starts in the top left corner.
  double pointer_x_ = 0;
  double pointer_y_ = 0;
};

}  // namespace

std::optional<ScriptRequests> script_requests(Tab& tab) {
  if (auto* leased = dynamic_cast<LeasedTab*>(&tab)) return leased->script_requests();
  return std::nullopt;
}

void Tab::set_cookies(const std::vector<Cookie>&, const std::string&, Deadline) {
  throw Error(ErrorCode::Unavailable, "this tab keeps no cookies");
}

screenshots::Surface& Tab::surface() {
  throw Error(ErrorCode::Unavailable, "screenshots are not available on this tab");
}

void Tab::click(double, double, Deadline) {
  throw Error(ErrorCode::Unavailable, "this tab has no trusted input");
}

void Tab::type(const std::string&, Deadline) {
  throw Error(ErrorCode::Unavailable, "this tab has no trusted input");
}

void Tab::press(const std::string&, Deadline) {
  throw Error(ErrorCode::Unavailable, "this tab has no trusted input");
}

void route_through(const proxies::GatewayLease& lease, browser::ContextOptions& options) {
  browser::ProxySettings proxy;
  proxy.server = lease.proxy_server();
  proxy.bypass = proxies::GatewayLease::bypass_list();
  proxy.username = lease.username();
  proxy.password = lease.password();
  options.proxy = std::move(proxy);
  options.interceptors.push_back(std::make_shared<MainDocumentNotes>(lease.main_document_notes()));
}

std::unique_ptr<screenshots::Surface> surface_of(browser::Page& page) {
  return std::make_unique<PageSurface>(page);
}

SiteEgress SiteEgress::from_config(const Config& config, proxies::Gateway* gateway) {
  const auto type = config.get_optional_string("sites_proxy_type");
  const auto country = config.get_optional_string("sites_proxy_country");
  if (!gateway) {
    if (type || country) {
      log::warn("extract") << "sites_proxy_type/sites_proxy_country ignored: the pool replays an "
                              "archive, nothing reaches the network";
    }
    return {};
  }
  if (!type && !country) return {gateway, {}};
  try {
    gateway->pools().route(type, country);
  } catch (const Error& e) {
    throw std::invalid_argument("configuration entries sites_proxy_type/sites_proxy_country: " +
                                std::string(e.what()));
  }
  log::info("extract") << "site pages go through " << type.value_or("any") << " proxies"
                       << (country ? " of " + *country : std::string());
  return {gateway, [gateway, type, country] { return gateway->pools().route(type, country); }};
}

// The lease options of `profile` on `way_out`, with `interceptors` after the profile's own.
static browser::ContextOptions lease_options(
    const BrowserProfile& profile, const std::optional<proxies::GatewayLease>& way_out,
    const std::vector<std::shared_ptr<browser::Interceptor>>& interceptors) {
  browser::ContextOptions options = context_options(profile);
  options.interceptors.insert(options.interceptors.end(), interceptors.begin(), interceptors.end());
  if (way_out) route_through(*way_out, options);
  return options;
}

std::shared_ptr<OpenedPage> open_page(
    browser::Pool& pool, const BrowserProfile& profile,
    const std::vector<std::shared_ptr<browser::Interceptor>>& interceptors,
    const SiteEgress& egress, Deadline deadline, bool paint_on_demand) {
  std::optional<proxies::GatewayLease> way_out;
  if (egress.gateway) {
    way_out.emplace(
        egress.gateway->open_lease(egress.route ? egress.route() : proxies::Route::direct()));
  }
  browser::ContextOptions options = lease_options(profile, way_out, interceptors);
  options.paint_on_demand = paint_on_demand;
  browser::Lease lease = pool.lease(options, deadline);
  return std::make_shared<OpenedPage>(OpenedPage{std::move(way_out), std::move(lease)});
}

void reconfigure(OpenedPage& page, const BrowserProfile& profile,
                 const std::vector<std::shared_ptr<browser::Interceptor>>& interceptors,
                 Deadline deadline) {
  page.lease.reconfigure(lease_options(profile, page.way_out, interceptors), deadline);
}

std::unique_ptr<Tab> tab_on(std::shared_ptr<OpenedPage> page, bool run_scripts,
                            std::function<void(bool used)> on_end) {
  return std::make_unique<LeasedTab>(std::move(page), run_scripts, std::move(on_end));
}

std::unique_ptr<Tab> PoolTabs::open(const BrowserProfile& profile, Deadline deadline) {
  return tab_on(open_page(pool_, profile, interceptors_, egress_, deadline), profile.run_scripts,
                {});
}

}  // namespace gleaner::extract
