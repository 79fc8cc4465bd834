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
#include "core/http_header.h"
#include "core/log.h"
#include "extract/block_detection.h"
#include "extract/document.h"
#include "extract/endpoint.h"
#include "extract/page_reader.h"
#include "extract/plain/charset.h"
#include "extract/script_requests.h"
#include "extract/web/ad_blocker.h"
#include "extract/web/gateway_get.h"
#include "extract/web/url_blocker.h"
#include "proxies/gateway.h"
#include "proxies/guard.h"
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

namespace {

// The value of header `name` among `headers` (any case), or "".
std::string header_of(const std::map<std::string, std::string>& headers, std::string_view name) {
  for (const auto& [n, v] : headers) {
    if (http_header::same_name(n, name)) return v;
  }
  return "";
}

// Sec-CH-UA of userAgentMetadata's brands: `"Brand";v="major"`, in their order.
std::string brand_list(const nlohmann::json& brands) {
  std::string out;
  for (const nlohmann::json& b : brands) {
    if (!out.empty()) out += ", ";
    out += "\"" + b.value("brand", std::string()) + "\";v=\"" + b.value("version", std::string()) +
           "\"";
  }
  return out;
}

// Accept-Language of language tags ("en-US,en") as Chromium writes it: the first without a
// weight, then q=0.9, 0.8, ... down to 0.1 (net::HttpUtil::GenerateAcceptLanguageHeader).
std::string weighted_languages(const std::string& tags) {
  std::string out;
  int tenths = 10;
  std::size_t from = 0;
  while (from < tags.size()) {
    std::size_t comma = tags.find(',', from);
    if (comma == std::string::npos) comma = tags.size();
    const std::string tag = tags.substr(from, comma - from);
    from = comma + 1;
    if (tag.empty()) continue;
    if (!out.empty()) out += ",";
    out += tag;
    if (tenths < 10) out += ";q=0." + std::to_string(tenths);
    if (tenths > 1) --tenths;
  }
  return out;
}

// Cookies a request's answers set, sent back to the host that set them (the plain road's jar,
// for one request only).
class CookieJar {
 public:
  // Keeps the cookies of a Set-Cookie value (several joined with ", " by the HTTP client: a
  // comma starts a new cookie only where a name=value follows, not inside an Expires date).
  void keep(const std::string& host, const std::string& set_cookie) {
    std::size_t from = 0;
    while (from < set_cookie.size()) {
      std::size_t end = from;
      for (;;) {
        end = set_cookie.find(", ", end);
        if (end == std::string::npos) break;
        const std::size_t next = end + 2;
        const std::size_t eq = set_cookie.find('=', next);
        const std::size_t stop = set_cookie.find_first_of(";, ", next);
        if (eq != std::string::npos && (stop == std::string::npos || eq < stop)) break;
        end = next;
      }
      const std::string cookie =
          set_cookie.substr(from, end == std::string::npos ? std::string::npos : end - from);
      const std::string pair = cookie.substr(0, cookie.find(';'));
      const std::size_t eq = pair.find('=');
      if (eq != std::string::npos && eq > 0) {
        auto trim = [](std::string t) {
          while (!t.empty() && t.front() == ' ') t.erase(0, 1);
          while (!t.empty() && t.back() == ' ') t.pop_back();
          return t;
        };
        jar_[host][trim(pair.substr(0, eq))] = trim(pair.substr(eq + 1));
      }
      if (end == std::string::npos) break;
      from = end + 2;
    }
  }
  // The Cookie header for `host`, "" when none.
  std::string header_for(const std::string& host) const {
    std::string out;
    if (auto it = jar_.find(host); it != jar_.end()) {
      for (const auto& [name, value] : it->second) {
        out += (out.empty() ? "" : "; ") + name + "=" + value;
      }
    }
    return out;
  }

 private:
  std::map<std::string, std::map<std::string, std::string>> jar_;
};

// The host of an http(s) URL as browsers read it (proxies/guard.h), "" when it is none: the
// jar's key, as a browser keys cookies by host and not by port.
std::string host_of(const std::string& url) {
  try {
    return proxies::parse_http_url(url).host.text;
  } catch (const Error&) {
    return "";
  }
}

class PlainRoad final : public DocumentRoad {
 public:
  PlainRoad(std::vector<std::shared_ptr<browser::Interceptor>> answerers, SiteEgress egress,
            BrowserProfile profile, browser::ChromeVersion version)
      : answerers_(std::move(answerers)),
        egress_(std::move(egress)),
        profile_(std::move(profile)),
        version_(std::move(version)) {}

  Document get(const std::string& url, Load load, Media media, Deadline deadline) override {
    std::map<std::string, std::string> headers =
        plain_road_headers(profile_, version_, load, load == Load::Fetch ? first_url_ : "");
    if (std::string cookies = jar_.header_for(host_of(url)); !cookies.empty()) {
      headers["Cookie"] = cookies;
    }
    Answer answer = answer_of(url, headers, load, deadline);
    if (auto set = answer.headers.find("set-cookie"); set != answer.headers.end()) {
      jar_.keep(host_of(answer.url), set->second);
    }
    if (answer.status < 200 || answer.status >= 300) {
      std::string why = "HTTP " + std::to_string(answer.status);
      try {
        check_navigation({answer.url, answer.status, answer.headers});
      } catch (const Error& e) {
        why += ": " + std::string(e.what());
      }
      throw NotTheDocument(why + " at " + answer.url);
    }
    Document document;
    document.url = answer.url;
    document.status = answer.status;
    const std::string type =
        answer.headers.count("content-type") ? answer.headers["content-type"] : std::string();
    document.content_type = media_type(type);
    const auto not_it = [&](const char* what) {
      return NotTheDocument(std::string("not ") + what + " (" +
                            (type.empty() ? std::string("no type") : type) + ", " +
                            std::to_string(answer.body.size()) + " bytes) at " + answer.url);
    };
    if (media == Media::Html) {
      // As a browser takes a page: by its type, then its bytes decoded as it decodes them.
      if (document.content_type != "text/html" && document.content_type != "application/xhtml+xml")
        throw not_it("HTML");
      document.text = plain::to_utf8(answer.body, plain::sniff_charset(answer.body, type));
    } else {
      if (!is_json_document(answer.body)) throw not_it("JSON");
      document.text = std::move(answer.body);
    }
    if (first_url_.empty()) first_url_ = document.url;
    return document;
  }

 private:
  struct Answer {
    std::string url;
    int status = 0;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
  };

  // The answer of the first interceptor that decides, as a lease's page would get it; else the
  // network's through the egress gateway.
  Answer answer_of(const std::string& url, const std::map<std::string, std::string>& headers,
                   Load load, Deadline deadline) {
    browser::InterceptedRequest request;
    request.url = url;
    request.method = "GET";
    request.resource_type = load == Load::Navigation ? "Document" : "Fetch";
    request.headers = headers;
    request.is_navigation = load == Load::Navigation;
    request.is_main_frame = load == Load::Navigation;
    for (const auto& answerer : answerers_) {
      const std::optional<browser::Decision> decision = answerer->decide(request);
      if (!decision || std::holds_alternative<browser::Continue>(*decision)) continue;
      if (const auto* fail = std::get_if<browser::Fail>(&*decision)) {
        throw NotTheDocument("refused before it left (" + fail->reason + ")");
      }
      const auto& fulfill = std::get<browser::Fulfill>(*decision);
      Answer answer{url, fulfill.status, {}, fulfill.body};
      for (const auto& [name, value] : fulfill.headers) {
        std::string lower = name;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        answer.headers[lower] = value;
      }
      return answer;
    }
    if (!egress_.gateway) throw NotTheDocument("no way out without a browser (no egress gateway)");
    plain::HttpRequest http;
    http.url = url;
    http.headers = headers;
    try {
      plain::HttpResponse response = web::gateway_get(
          *egress_.gateway, egress_.route ? egress_.route() : proxies::Route::direct(),
          std::move(http), deadline);
      return {std::move(response.url), response.status, std::move(response.headers),
              std::move(response.body)};
    } catch (const Error& e) {
      // The browser may reach what the plain client could not (a TLS handshake a site refuses
      // for its fingerprint): it decides, and explains, as it would have alone.
      if (e.code() != ErrorCode::UpstreamError) throw;
      throw NotTheDocument(std::string(e.what()));
    }
  }

  const std::vector<std::shared_ptr<browser::Interceptor>> answerers_;
  const SiteEgress egress_;
  const BrowserProfile profile_;
  const browser::ChromeVersion version_;
  CookieJar jar_;
  std::string first_url_;  // the request's document, the referrer of what its page fetches
};

}  // namespace

std::map<std::string, std::string> plain_road_headers(const BrowserProfile& profile,
                                                      const browser::ChromeVersion& version,
                                                      DocumentRoad::Load load,
                                                      const std::string& referrer) {
  const std::string tags = browser::language_tags(header_of(profile.headers, "Accept-Language"));
  const nlohmann::json identity = browser::user_agent_override(
      device_of(profile.device), version,
      tags.empty() ? browser::kDefaultLanguages : std::string_view(tags));
  const nlohmann::json& metadata = identity["userAgentMetadata"];
  std::map<std::string, std::string> headers = {
      {"User-Agent", identity.value("userAgent", std::string())},
      {"Sec-CH-UA", brand_list(metadata["brands"])},
      {"Sec-CH-UA-Mobile", metadata.value("mobile", false) ? "?1" : "?0"},
      {"Sec-CH-UA-Platform", "\"" + metadata.value("platform", std::string()) + "\""},
      {"Accept-Language", weighted_languages(identity.value("acceptLanguage", std::string()))},
  };
  if (load == DocumentRoad::Load::Navigation) {
    headers["Accept"] =
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
        "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
    headers["Upgrade-Insecure-Requests"] = "1";
    headers["Sec-Fetch-Site"] = "none";
    headers["Sec-Fetch-Mode"] = "navigate";
    headers["Sec-Fetch-User"] = "?1";
    headers["Sec-Fetch-Dest"] = "document";
    headers["Priority"] = "u=0, i";
  } else {
    headers["Accept"] = "*/*";
    headers["Sec-Fetch-Site"] = "same-origin";
    headers["Sec-Fetch-Mode"] = "cors";
    headers["Sec-Fetch-Dest"] = "empty";
    headers["Priority"] = "u=1, i";
    if (!referrer.empty()) headers["Referer"] = referrer;
  }
  for (const auto& [name, value] : profile.headers) {
    for (auto it = headers.begin(); it != headers.end();) {
      it = http_header::same_name(it->first, name) ? headers.erase(it) : std::next(it);
    }
    headers[name] = value;
  }
  return headers;
}

std::unique_ptr<DocumentRoad> PoolTabs::plain_road(const BrowserProfile& profile, Deadline) {
  const std::optional<browser::ChromeVersion> version =
      browser::installed_chrome_version(pool_.options().chromium_path);
  if (!version) {
    log::debug("extract") << "no plain road: the version of " << pool_.options().chromium_path
                          << " is unknown, so is the identity its requests would send";
    return nullptr;
  }
  // In the order a lease's page consults them (browser/interception.h).
  std::vector<std::shared_ptr<browser::Interceptor>> answerers = pool_.options().interceptors;
  answerers.insert(answerers.end(), interceptors_.begin(), interceptors_.end());
  if (auto replay = pool_.replay()) answerers.push_back(std::move(replay));
  return std::make_unique<PlainRoad>(std::move(answerers), egress_, profile, *version);
}

}  // namespace gleaner::extract
