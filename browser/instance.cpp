#include "browser/instance.h"

#include <algorithm>
#include <cctype>

#include "browser/navigation_tracker.h"
#include "browser/pool.h"
#include "cdp/error.h"
#include "core/log.h"

namespace gleaner::browser {
namespace {

using Json = nlohmann::json;

// Browser.close gets this long to answer before the process is signalled.
constexpr Millis kCloseCallLimit{1000};

// The Accept-Language among a lease's extra headers, if any.
std::string accept_language_of(const std::map<std::string, std::string>& headers) {
  for (const auto& [name, value] : headers) {
    if (name.size() == 15 && std::equal(name.begin(), name.end(), "accept-language",
                                        [](char a, char b) { return std::tolower(a) == b; }))
      return value;
  }
  return {};
}

// Target.setAutoAttach of a page or a dedicated worker: its dedicated workers, each paused before
// its first script until on_worker_attached lets it run; nothing else (iframes are not attached).
Json worker_auto_attach() {
  return {{"autoAttach", true},
          {"waitForDebuggerOnStart", true},
          {"flatten", true},
          {"filter", Json::array({{{"type", "worker"}, {"exclude", false}}, {{"exclude", true}}})}};
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

}  // namespace

BrowserInstance::BrowserInstance(Settings settings) : settings_(std::move(settings)) {}

std::shared_ptr<BrowserInstance> BrowserInstance::launch(const Settings& settings,
                                                         std::function<void()> on_closed) {
  const Deadline deadline = deadline_in(settings.launch_timeout);
  std::shared_ptr<BrowserInstance> instance(new BrowserInstance(settings));
  instance->on_closed_ = std::move(on_closed);
  instance->process_ = ChromiumProcess::launch(settings.chromium_path, settings.flags, deadline,
                                              settings.preferences);
  instance->connection_ = std::make_unique<cdp::Connection>(
      cdp::connect_websocket(instance->process_->websocket_url(), deadline));
  BrowserInstance* self = instance.get();
  // Set before the first call, as the connection requires. Runs on the DevTools thread or in
  // the connection's destructor, when only the members declared before it are still there.
  instance->connection_->set_close_handler([self](const std::string& reason) {
    log::info("browser") << "DevTools connection of Chromium pid " << self->process_->pid()
                         << " closed: " << reason;
    self->on_connection_closed();
  });
  instance->connection_->on("Target.detachedFromTarget", "", [self](const Json& params) {
    std::shared_ptr<NavigationTracker> tracker;
    {
      std::lock_guard lock(self->trackers_mutex_);
      auto it = self->trackers_.find(params.value("sessionId", std::string()));
      if (it == self->trackers_.end()) return;
      tracker = it->second.lock();
      self->trackers_.erase(it);
    }
    if (tracker) tracker->on_closed();
  });
  instance->executor_ = std::make_unique<Executor>(settings.executor_threads);
  // The version pages are told (userAgentMetadata's full version list) is the one running.
  const Json about =
      instance->connection_->call("Browser.getVersion", Json::object(), "", deadline);
  if (auto v = parse_chrome_version(about.value("product", std::string()))) {
    instance->version_ = *v;
  } else if (settings.version) {
    instance->version_ = *settings.version;
  }
  // Service and shared workers run apart from any page: the page's user agent override does not
  // reach them. Chromium pauses each before its first script until we gave it its context's
  // identity (on_worker_attached). Pages, dedicated workers and iframes are not attached here
  // (a page's own session attaches its dedicated workers, open_page, and each worker its own):
  // the handler takes the attached workers of every session.
  instance->connection_->on("Target.attachedToTarget", cdp::kAnySession,
                            [self](const Json& params) { self->on_worker_attached(params); });
  instance->connection_->call(
      "Target.setAutoAttach",
      {{"autoAttach", true},
       {"waitForDebuggerOnStart", true},
       {"flatten", true},
       {"filter", Json::array({{{"type", "service_worker"}, {"exclude", false}},
                               {{"type", "shared_worker"}, {"exclude", false}},
                               {{"exclude", true}}})}},
      "", deadline);
  return instance;
}

void BrowserInstance::on_worker_attached(const Json& params) {
  const Json& info = params.value("targetInfo", Json::object());
  const std::string type = info.value("type", std::string());
  if (type != "service_worker" && type != "shared_worker" && type != "worker") return;
  const std::string session = params.value("sessionId", std::string());
  Json identity;
  {
    std::lock_guard lock(identities_mutex_);
    auto it = identities_.find(info.value("browserContextId", std::string()));
    identity = it != identities_.end() ? it->second : identity_for(nullptr);
  }
  // Sent in order on the worker's session, not awaited (this is the DevTools thread): the override
  // is in place before the worker runs its first line.
  connection_->notify("Network.setUserAgentOverride", std::move(identity), session);
  // The workers a dedicated worker starts are its children, not the page's: it attaches them.
  if (type == "worker") connection_->notify("Target.setAutoAttach", worker_auto_attach(), session);
  connection_->notify("Runtime.runIfWaitingForDebugger", Json::object(), session);
}

Json BrowserInstance::identity_for(const ContextOptions* options) const {
  if (!options) return user_agent_override(settings_.device, version_);
  const std::string languages = language_tags(accept_language_of(options->extra_headers));
  return user_agent_override(options->device, version_,
                             languages.empty() ? kDefaultLanguages : std::string_view(languages),
                             options->user_agent);
}

BrowserInstance::~BrowserInstance() {
  warm.clear();         // their sessions unsubscribe while the connection is still there
  executor_.reset();    // no decision is answered after this
  connection_.reset();  // joins the DevTools thread
  // process_ (declared first) goes last: killed and reaped unless stopped already.
}

void BrowserInstance::on_connection_closed() {
  std::vector<std::shared_ptr<NavigationTracker>> trackers;
  {
    std::lock_guard lock(trackers_mutex_);
    for (auto& [id, weak] : trackers_)
      if (auto t = weak.lock()) trackers.push_back(std::move(t));
    trackers_.clear();
  }
  for (auto& t : trackers) t->on_closed();
  if (on_closed_) on_closed_();
}

InterceptionSettings BrowserInstance::interception_for(const ContextOptions* options) const {
  InterceptionSettings s;
  s.chain = settings_.head_interceptors;
  if (options) {
    s.chain.insert(s.chain.end(), options->interceptors.begin(), options->interceptors.end());
    s.blocked_types = options->blocked_resource_types;
    s.proxy_auth = options->proxy.has_value();
    if (options->proxy && !options->proxy->username.empty())
      s.proxy_credentials.emplace(options->proxy->username, options->proxy->password);
  }
  if (settings_.terminal_interceptor) s.chain.push_back(settings_.terminal_interceptor);
  return s;
}

void BrowserInstance::append_configuration(Page& page, const ContextOptions& options,
                                           std::vector<cdp::PendingCall>& calls,
                                           Deadline deadline) {
  cdp::Session& session = page.session();
  // A desktop page's window follows its viewport (see kWindowFrameHeight); a hidden page has no
  // window.
  const bool resize = options.viewport && page.window_id_ && !options.viewport->mobile &&
                      (options.viewport->width != page.viewport_.width ||
                       options.viewport->height != page.viewport_.height);
  // A page painted on demand (ContextOptions::paint_on_demand) is, while it is not to be painted,
  // behind its blank tab in a minimized window (minimized, the browser spares itself the window's
  // work too: less CPU per page read than behind the blank tab alone, measured). Its window is
  // restored before it is resized or brought to the front.
  const bool on_demand = !page.front_target_id_.empty() && page.window_id_;
  const bool minimized = on_demand && !page.in_front_;
  const bool restore = minimized && (resize || !options.hidden);
  if (restore) calls.push_back(window_state(page, "normal", deadline));
  // What the page has already is not sent again: a session's next request, or a lease of the
  // default viewport, does not make the page lay itself out once more.
  if (options.viewport && *options.viewport != page.viewport_) {
    calls.push_back(session.send("Emulation.setDeviceMetricsOverride",
                                 Page::viewport_params(*options.viewport), deadline));
    const Viewport& v = *options.viewport;
    if (resize) {
      calls.push_back(connection_->send(
          "Browser.setWindowBounds",
          {{"windowId", *page.window_id_},
           {"bounds", {{"width", v.width}, {"height", v.height + kWindowFrameHeight}}}},
          "", deadline));
    }
    page.viewport_ = v;
  }
  if (options.touch && !page.touch_) {
    // Five points, as a phone or a tablet reports them.
    calls.push_back(session.send("Emulation.setTouchEmulationEnabled",
                                 {{"enabled", true}, {"maxTouchPoints", 5}}, deadline));
    page.touch_ = true;
  }
  // The identity, unless the page has it already (a warm page is opened as a desktop).
  if (Json identity = identity_for(&options); identity != page.identity_) {
    calls.push_back(session.send("Emulation.setUserAgentOverride", identity, deadline));
    {
      std::lock_guard lock(identities_mutex_);
      identities_[page.context_id()] = identity;
    }
    page.identity_ = std::move(identity);
  }
  // A page configured again (a session's next request) drops the headers of the last one.
  if (Json headers(options.extra_headers); headers != page.extra_headers_) {
    calls.push_back(session.send("Network.setExtraHTTPHeaders", {{"headers", headers}}, deadline));
    page.extra_headers_ = std::move(headers);
  }
  if (auto fetch = page.router_->configure(interception_for(&options))) {
    calls.push_back(
        session.send(fetch->at("method").get<std::string>(), fetch->at("params"), deadline));
  }
  // A page painted on demand comes to the front of its window while it is to be painted, and goes
  // behind its blank tab while not.
  if (on_demand && page.in_front_ == options.hidden) {
    const std::string& front = options.hidden ? page.front_target_id_ : page.target_id();
    calls.push_back(
        connection_->send("Target.activateTarget", {{"targetId", front}}, "", deadline));
    page.in_front_ = !options.hidden;
  }
  if (on_demand && options.hidden && (restore || !minimized))
    calls.push_back(window_state(page, "minimized", deadline));
}

cdp::PendingCall BrowserInstance::window_state(const Page& page, const char* state,
                                               Deadline deadline) {
  return connection_->send("Browser.setWindowBounds",
                           {{"windowId", *page.window_id_}, {"bounds", {{"windowState", state}}}},
                           "", deadline);
}

std::string BrowserInstance::warm_key(const ContextOptions* options) {
  if (!options) return "";
  std::string key = options->hidden ? "hidden" : "";
  if (options->proxy)
    key += " proxy " + options->proxy->server + " " + join(options->proxy->bypass, ",");
  return key;
}

std::unique_ptr<Page> BrowserInstance::open_page(const ContextOptions* options, Deadline deadline) {
  Json context_params = Json::object();
  if (options && options->proxy) {
    context_params["proxyServer"] = options->proxy->server;
    if (!options->proxy->bypass.empty())
      context_params["proxyBypassList"] = join(options->proxy->bypass, ",");
  }
  const std::string context_id =
      connection_->call("Target.createBrowserContext", context_params, "", deadline)
          .at("browserContextId")
          .get<std::string>();
  try {
    Json target_params = {{"url", "about:blank"}, {"browserContextId", context_id}};
    const bool on_demand = options && options->paint_on_demand;
    const bool hidden = options && options->hidden && !on_demand;
    std::string front;
    if (on_demand) {
      // A blank tab opens the context's window; the page opens behind it, in the background,
      // and comes to the front when it is to be painted (append_configuration).
      front = connection_
                  ->call("Target.createTarget",
                         {{"url", "about:blank"},
                          {"browserContextId", context_id},
                          {"width", settings_.default_viewport.width},
                          {"height", settings_.default_viewport.height + kWindowFrameHeight}},
                         "", deadline)
                  .at("targetId")
                  .get<std::string>();
      target_params["background"] = true;
    } else if (hidden) {
      // A hidden target is never painted (it must also be a background one).
      target_params["background"] = true;
      target_params["hidden"] = true;
    } else {
      // Its window: the default viewport with a browser's frame above it (kWindowFrameHeight).
      target_params["width"] = settings_.default_viewport.width;
      target_params["height"] = settings_.default_viewport.height + kWindowFrameHeight;
    }
    const std::string target_id =
        connection_->call("Target.createTarget", target_params, "", deadline)
            .at("targetId")
            .get<std::string>();
    const std::string session_id =
        connection_
            ->call("Target.attachToTarget", {{"targetId", target_id}, {"flatten", true}}, "",
                   deadline)
            .at("sessionId")
            .get<std::string>();
    auto router = std::make_shared<RequestRouter>(*connection_, session_id, target_id, *executor_);
    std::unique_ptr<Page> page(
        new Page(*connection_, context_id, target_id, session_id, std::move(router)));
    page->front_target_id_ = std::move(front);
    {
      std::lock_guard lock(trackers_mutex_);
      std::erase_if(trackers_, [](const auto& entry) { return entry.second.expired(); });
      trackers_[session_id] = page->tracker_;
    }
    // Everything else goes out at once and is awaited together: one round trip, not seven.
    cdp::Session& session = page->session();
    std::vector<cdp::PendingCall> calls;
    // A dedicated worker inherits the page's user agent, but takes its languages from its tab's
    // renderer preferences, not from the page's override: a hidden tab's worker listed only the
    // first language, any tab's the browser's --accept-lang whatever the lease's Accept-Language.
    // The page's session attaches each, paused before its first script, and gives it the
    // context's identity (on_worker_attached) before it runs. Its requests still pass the page's
    // interception.
    calls.push_back(session.send("Target.setAutoAttach", worker_auto_attach(), deadline));
    std::optional<cdp::PendingCall> window;
    if (!hidden) {
      window =
          connection_->send("Browser.getWindowForTarget", {{"targetId", target_id}}, "", deadline);
    }
    // The browser's device's identity from the start: a lease's own replaces it.
    page->identity_ = identity_for(nullptr);
    {
      std::lock_guard lock(identities_mutex_);
      identities_[context_id] = page->identity_;
    }
    calls.push_back(session.send("Emulation.setUserAgentOverride", page->identity_, deadline));
    calls.push_back(session.send("Page.enable", Json::object(), deadline));
    calls.push_back(session.send("Page.setLifecycleEventsEnabled", {{"enabled", true}}, deadline));
    calls.push_back(session.send("Network.enable", Json::object(), deadline));
    calls.push_back(session.send("Emulation.setDeviceMetricsOverride",
                                 Page::viewport_params(settings_.default_viewport), deadline));
    page->viewport_ = settings_.default_viewport;
    if (window) page->window_id_ = window->get().at("windowId").get<int>();
    // A page painted on demand starts behind its blank tab, its window minimized: the state
    // append_configuration() takes it from.
    if (on_demand) calls.push_back(window_state(*page, "minimized", deadline));
    if (options) {
      append_configuration(*page, *options, calls, deadline);
    } else if (auto fetch = page->router_->configure(interception_for(nullptr))) {
      calls.push_back(
          session.send(fetch->at("method").get<std::string>(), fetch->at("params"), deadline));
    }
    for (auto& call : calls) call.get();
    return page;
  } catch (...) {
    if (!connection_->closed())
      connection_->notify("Target.disposeBrowserContext", {{"browserContextId", context_id}}, "");
    throw;
  }
}

void BrowserInstance::configure_page(Page& page, const ContextOptions& options, Deadline deadline) {
  std::vector<cdp::PendingCall> calls;
  append_configuration(page, options, calls, deadline);
  // Nothing to change sends nothing: whoever uses the page next learns from its first call
  // whether the browser is still there (a session's next request, extract/sessions.cpp).
  for (auto& call : calls) call.get();
}

void BrowserInstance::close_page(std::unique_ptr<Page> page) {
  if (!page) return;
  const std::string context_id = page->context_id();
  const std::string target_id = page->target_id();
  page.reset();
  {
    std::lock_guard lock(identities_mutex_);
    identities_.erase(context_id);
  }
  if (connection_->closed()) return;
  // Disposing of the context drops its cookies, storage and cache, and closes its visible tab; a
  // hidden tab outlives it (measured: one renderer left per hidden page) unless closed itself.
  connection_->notify("Target.closeTarget", {{"targetId", target_id}}, "");
  connection_->notify("Target.disposeBrowserContext", {{"browserContextId", context_id}}, "");
}

bool BrowserInstance::responsive(Deadline deadline) {
  try {
    connection_->call("Browser.getVersion", Json::object(), "", deadline);
    return true;
  } catch (const cdp::Error& e) {
    log::warn("browser") << "Chromium pid " << pid() << " did not answer: " << e.detail();
    return false;
  }
}

void BrowserInstance::kill() {
  process_->stop(Millis(0));
  connection_->close();
}

void BrowserInstance::stop(Millis grace) {
  if (!connection_->closed()) {
    try {
      connection_->call("Browser.close", Json::object(), "",
                        deadline_in(std::min(grace, kCloseCallLimit)));
    } catch (const cdp::Error&) {
      // Chromium often exits before it answers; the process is stopped below either way.
    }
  }
  process_->wait_for_exit(grace);
  process_->stop(grace);
  connection_->close();
}

}  // namespace gleaner::browser
