#include "browser/page.h"

#include <algorithm>

#include "browser/navigation_tracker.h"
#include "browser/net_error.h"
#include "browser/request_router.h"
#include "cdp/error.h"
#include "cdp/evaluate.h"
#include "core/error.h"
#include "core/log.h"

namespace gleaner::browser {
namespace {

// No request may take longer than this (spec/conventions.md: a time budget of at most 300 s).
constexpr Millis kMaxNavigation{300000};

long long elapsed_ms(SteadyClock::time_point from, SteadyClock::time_point to) {
  return std::chrono::duration_cast<Millis>(to - from).count();
}

std::string exception_text(const Json& details) {
  if (auto e = details.find("exception"); e != details.end()) {
    if (auto d = e->find("description"); d != e->end() && d->is_string())
      return d->get<std::string>();
    if (auto v = e->find("value"); v != e->end()) return v->dump();
  }
  return details.value("text", std::string("exception"));
}

// The value of a Runtime.evaluate reply; an exception in the page is an Internal error.
Json evaluation_value(Json reply) {
  if (auto details = reply.find("exceptionDetails"); details != reply.end()) {
    throw Error(ErrorCode::Internal, "the in-page script failed",
                "Runtime.evaluate threw: " + exception_text(*details));
  }
  const Json& result = reply["result"];
  if (auto value = result.find("value"); value != result.end()) return *value;
  return nullptr;  // undefined, or a value that cannot be serialized
}

// Runs `call` (a Runtime.evaluate, direct or in an isolated world); a script still running at the
// deadline is stopped where it runs. The request ends at its deadline either way, but its script
// would go on in the renderer (a loop in a jsScenario `evaluate`, a site's script over a huge
// page), holding a CPU and the tab, which a crawl thread or a session uses again: every later
// call to the page would wait behind it. Runtime.terminateExecution is taken by Chromium on its IO
// thread and interrupts V8 even while the page's main thread is busy. Native work (a selector
// Blink is matching) ends at its next return to JavaScript.
template <class Call>
Json stopped_at_deadline(cdp::Session& session, const Call& call) {
  try {
    return call();
  } catch (const cdp::Error& e) {
    if (e.kind() == cdp::ErrorKind::Timeout)
      session.notify("Runtime.terminateExecution", Json::object());
    throw;
  }
}

}  // namespace

std::string selector_waiter(const std::string& selector, std::optional<Millis> give_up_after) {
  // Checked at once, then on every DOM mutation. `document` (not documentElement) is observed
  // so it works while the document is still parsing.
  std::string expr =
      "new Promise((resolve) => {"
      "  const selector = " +
      Json(selector).dump() +
      ";"
      "  const found = () => document.querySelector(selector) !== null;"
      "  if (found()) return resolve(true);"
      "  const observer = new MutationObserver(() => {"
      "    if (found()) { observer.disconnect(); resolve(true); }"
      "  });"
      "  observer.observe(document, {childList: true, subtree: true, attributes: true});";
  if (give_up_after) {
    expr += "  setTimeout(() => { observer.disconnect(); resolve(found()); }, " +
            std::to_string(give_up_after->count()) + ");";
  }
  return expr + "})";
}

Page::Page(cdp::Connection& connection, std::string context_id, std::string target_id,
           std::string session_id, std::shared_ptr<RequestRouter> router)
    : context_id_(std::move(context_id)),
      target_id_(target_id),
      tracker_(std::make_shared<NavigationTracker>(std::move(target_id))),
      router_(std::move(router)),
      session_(std::make_unique<cdp::Session>(connection, std::move(session_id))) {
  subscribe();
}

Page::~Page() {
  router_->close();
  session_.reset();  // unsubscribes; waits for a handler running on the DevTools thread
}

void Page::subscribe() {
  // The handlers run on the DevTools thread and only record; session_ is destroyed before the
  // objects they point to.
  NavigationTracker* tracker = tracker_.get();
  RequestRouter* router = router_.get();
  session_->on("Page.lifecycleEvent", [tracker](const Json& p) { tracker->on_lifecycle_event(p); });
  session_->on("Page.frameNavigated", [tracker](const Json& p) { tracker->on_frame_navigated(p); });
  session_->on("Network.requestWillBeSent",
               [tracker](const Json& p) { tracker->on_request_will_be_sent(p); });
  session_->on("Network.responseReceived",
               [tracker](const Json& p) { tracker->on_response_received(p); });
  session_->on("Inspector.targetCrashed", [tracker](const Json&) { tracker->on_crashed(); });
  session_->on("Fetch.requestPaused", [router](const Json& p) { router->on_request_paused(p); });
  session_->on("Fetch.authRequired", [router](const Json& p) { router->on_auth_required(p); });
}

void Page::fail_timeout(const std::string& url, SteadyClock::time_point start, Deadline deadline) {
  // Stop the network activity so the page is quiet for whoever uses it next.
  session_->notify("Page.stopLoading", Json::object());
  const long long budget = std::max<long long>(0, elapsed_ms(start, deadline));
  throw Error(ErrorCode::Timeout, "the page did not load within " + std::to_string(budget) + " ms",
              "navigation to " + url + " passed its deadline");
}

NavigationResult Page::navigate(const std::string& url, const WaitSpec& wait, Deadline deadline) {
  const auto start = SteadyClock::now();
  deadline = std::min(deadline, start + kMaxNavigation);
  tracker_->reset();

  Json reply;
  try {
    reply = session_->call("Page.navigate", {{"url", url}}, deadline);
  } catch (const cdp::Error& e) {
    // Page.navigate answers once the response headers arrived: a server that never answers
    // ends here.
    if (e.kind() == cdp::ErrorKind::Timeout) fail_timeout(url, start, deadline);
    throw;
  }
  const std::string loader = reply.value("loaderId", std::string());
  const std::string error_text = reply.value("errorText", std::string());
  if (!error_text.empty()) {
    // An HTTP error without a body still has a response: report it, the status says the rest.
    if (!loader.empty() && tracker_->has_response(loader)) {
      NavigationResult result = tracker_->result(loader);
      result.error_text = error_text;
      return result;
    }
    throw Error(ErrorCode::UpstreamError, describe_net_error(error_text),
                "navigation to " + url + ": " + error_text);
  }
  if (loader.empty()) {
    // A same-document navigation (only the fragment changed): nothing to wait for.
    NavigationResult result;
    result.url = tracker_->current_url();
    return result;
  }

  auto check = [&](NavigationTracker::Outcome outcome) {
    switch (outcome) {
      case NavigationTracker::Outcome::Ready: return;
      case NavigationTracker::Outcome::DeadlinePassed: fail_timeout(url, start, deadline);
      case NavigationTracker::Outcome::Crashed:
        throw cdp::Error(cdp::ErrorKind::Crashed, "Page.navigate",
                         "the tab crashed loading " + url);
      case NavigationTracker::Outcome::Closed:
        throw cdp::Error(cdp::ErrorKind::Closed, "Page.navigate",
                         "the browser went away loading " + url);
    }
  };
  check(tracker_->wait(loader, wait.until, deadline));
  if (wait.until == WaitSpec::Until::Selector) {
    wait_for_selector(wait.selector, url, start, deadline);
  } else if (wait.until == WaitSpec::Until::FixedWait) {
    check(tracker_->pause(std::min(deadline, deadline_in(wait.fixed))));
  }
  if (wait.extra.count() > 0) check(tracker_->pause(std::min(deadline, deadline_in(wait.extra))));
  return tracker_->result(loader);
}

void Page::wait_for_selector(const std::string& selector, const std::string& url,
                             SteadyClock::time_point start, Deadline deadline) {
  const std::string waiter = selector_waiter(selector);
  for (;;) {
    Json reply;
    try {
      // In a world of our own: the page cannot see the wait (docs/stealth.md, main_world).
      reply = stopped_at_deadline(*session_, [&] {
        return cdp::evaluate_isolated(*session_, waiter, deadline, target_id_);
      });
    } catch (const cdp::Error& e) {
      if (e.kind() == cdp::ErrorKind::Timeout) fail_timeout(url, start, deadline);
      // The document was replaced while we waited (a redirect by script): wait in the new one.
      if (cdp::context_went_away(e) && SteadyClock::now() < deadline) continue;
      throw;
    }
    if (auto details = reply.find("exceptionDetails"); details != reply.end()) {
      throw Error(ErrorCode::InvalidParameter, "invalid CSS selector: " + selector,
                  exception_text(*details));
    }
    return;
  }
}

Json Page::evaluate(const std::string& expression, Deadline deadline) {
  return evaluation_value(stopped_at_deadline(*session_, [&] {
    return session_->call(
        "Runtime.evaluate",
        {{"expression", expression}, {"awaitPromise", true}, {"returnByValue", true}}, deadline);
  }));
}

Json Page::evaluate_isolated(const std::string& expression, Deadline deadline) {
  // The top frame's id is the target's.
  return evaluation_value(stopped_at_deadline(*session_, [&] {
    return cdp::evaluate_isolated(*session_, expression, deadline, target_id_);
  }));
}

std::string Page::html(Deadline deadline) {
  Json value = evaluate_isolated(
      "(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n' : '')"
      " + (document.documentElement ? document.documentElement.outerHTML : '')",
      deadline);
  return value.is_string() ? value.get<std::string>() : std::string();
}

std::string Page::url() const {
  return tracker_->current_url();
}

Json Page::viewport_params(const Viewport& viewport) {
  Json params = {{"width", viewport.width},
                 {"height", viewport.height},
                 {"deviceScaleFactor", viewport.device_scale_factor},
                 {"mobile", viewport.mobile}};
  if (!viewport.mobile) {
    // A desktop's screen holds the window (the page and the frame above it); a phone's or a
    // tablet's is its viewport, Chromium's default.
    params["screenWidth"] = std::max(kDesktopScreenWidth, viewport.width);
    params["screenHeight"] = std::max(kDesktopScreenHeight, viewport.height + kWindowFrameHeight);
  }
  return params;
}

void Page::set_scripts_enabled(bool enabled, Deadline deadline) {
  session_->call("Emulation.setScriptExecutionDisabled", {{"value", !enabled}}, deadline);
}

void Page::set_viewport(const Viewport& viewport, Deadline deadline) {
  session_->call("Emulation.setDeviceMetricsOverride", viewport_params(viewport), deadline);
  viewport_ = viewport;
}

Json Page::layout_metrics(Deadline deadline) {
  return session_->call("Page.getLayoutMetrics", Json::object(), deadline);
}

cdp::SubscriptionId Page::on_response(std::function<void(const Json& params)> handler) {
  return session_->on("Network.responseReceived", std::move(handler));
}

}  // namespace gleaner::browser
