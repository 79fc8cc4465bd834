#include "browser/navigation_tracker.h"

#include <algorithm>
#include <cctype>

namespace gleaner::browser {
namespace {

using Json = nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

const char* lifecycle_name(WaitSpec::Until until) {
  switch (until) {
    case WaitSpec::Until::Load: return "load";
    case WaitSpec::Until::DomContentLoaded: return "DOMContentLoaded";
    case WaitSpec::Until::NetworkIdle: return "networkIdle";
    case WaitSpec::Until::Selector:
    case WaitSpec::Until::FixedWait: return nullptr;  // committed is enough
  }
  return nullptr;
}

}  // namespace

NavigationTracker::NavigationTracker(std::string main_frame_id)
    : main_frame_id_(std::move(main_frame_id)) {}

void NavigationTracker::commit_locked(const std::string& loader_id, const std::string& url) {
  Document& doc = documents_[loader_id];
  if (doc.commit_order == 0) doc.commit_order = ++commits_;
  if (!url.empty()) {
    doc.url = url;
    current_url_ = url;
  }
}

void NavigationTracker::on_lifecycle_event(const Json& params) {
  if (params.value("frameId", std::string()) != main_frame_id_) return;
  const std::string loader = params.value("loaderId", std::string());
  const std::string name = params.value("name", std::string());
  {
    std::lock_guard lock(mutex_);
    // "init" opens a new document; "commit" is what the first about:blank reports instead.
    if (name == "init" || name == "commit") commit_locked(loader, {});
    documents_[loader].lifecycle.insert(name);
  }
  changed_.notify_all();
}

void NavigationTracker::on_frame_navigated(const Json& params) {
  const Json& frame = params.at("frame");
  if (frame.contains("parentId") || frame.value("id", std::string()) != main_frame_id_) return;
  {
    std::lock_guard lock(mutex_);
    commit_locked(frame.value("loaderId", std::string()), frame.value("url", std::string()));
  }
  changed_.notify_all();
}

void NavigationTracker::on_request_will_be_sent(const Json& params) {
  if (params.value("type", std::string()) != "Document" ||
      params.value("frameId", std::string()) != main_frame_id_ ||
      !params.contains("redirectResponse"))
    return;
  const Json& redirect = params["redirectResponse"];
  std::lock_guard lock(mutex_);
  documents_[params.value("loaderId", std::string())].redirects.push_back(
      {redirect.value("url", std::string()), redirect.value("status", 0)});
}

void NavigationTracker::on_response_received(const Json& params) {
  if (params.value("type", std::string()) != "Document" ||
      params.value("frameId", std::string()) != main_frame_id_)
    return;
  const Json& response = params.at("response");
  NavigationResult r;
  r.url = response.value("url", std::string());
  r.status = response.value("status", 0);
  if (auto headers = response.find("headers"); headers != response.end() && headers->is_object()) {
    for (const auto& [name, value] : headers->items())
      if (value.is_string()) r.headers[lower(name)] = value.get<std::string>();
  }
  {
    std::lock_guard lock(mutex_);
    documents_[params.value("loaderId", std::string())].response = std::move(r);
  }
  changed_.notify_all();
}

void NavigationTracker::on_crashed() {
  {
    std::lock_guard lock(mutex_);
    crashed_ = true;
  }
  changed_.notify_all();
}

void NavigationTracker::on_closed() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
}

void NavigationTracker::reset() {
  std::lock_guard lock(mutex_);
  documents_.clear();
}

const std::string& NavigationTracker::effective_locked(const std::string& loader_id) const {
  auto own = documents_.find(loader_id);
  if (own == documents_.end() || own->second.commit_order == 0) return loader_id;
  const std::string* latest = &loader_id;
  std::uint64_t order = own->second.commit_order;
  for (const auto& [id, doc] : documents_) {
    if (doc.commit_order > order) {
      order = doc.commit_order;
      latest = &id;
    }
  }
  return *latest;
}

std::optional<NavigationTracker::Outcome> NavigationTracker::broken_locked() const {
  if (crashed_) return Outcome::Crashed;
  if (closed_) return Outcome::Closed;
  return std::nullopt;
}

NavigationTracker::Outcome NavigationTracker::wait(const std::string& loader_id,
                                                   WaitSpec::Until until, Deadline deadline) {
  const char* event = lifecycle_name(until);
  std::unique_lock lock(mutex_);
  std::optional<Outcome> outcome;
  changed_.wait_until(lock, deadline, [&] {
    if ((outcome = broken_locked())) return true;
    auto doc = documents_.find(effective_locked(loader_id));
    if (doc == documents_.end()) return false;
    const bool ready =
        event ? doc->second.lifecycle.count(event) > 0 : doc->second.commit_order > 0;
    if (ready) outcome = Outcome::Ready;
    return ready;
  });
  return outcome.value_or(Outcome::DeadlinePassed);
}

NavigationTracker::Outcome NavigationTracker::pause(Deadline until) {
  std::unique_lock lock(mutex_);
  std::optional<Outcome> outcome;
  changed_.wait_until(lock, until, [&] { return (outcome = broken_locked()).has_value(); });
  return outcome.value_or(Outcome::Ready);
}

bool NavigationTracker::has_response(const std::string& loader_id) const {
  std::lock_guard lock(mutex_);
  auto doc = documents_.find(loader_id);
  return doc != documents_.end() && doc->second.response.has_value();
}

NavigationResult NavigationTracker::result(const std::string& loader_id) const {
  std::lock_guard lock(mutex_);
  NavigationResult result;
  auto own = documents_.find(loader_id);
  if (own != documents_.end()) result.redirects = own->second.redirects;
  const std::string& effective = effective_locked(loader_id);
  auto doc = documents_.find(effective);
  if (effective != loader_id && own != documents_.end()) {
    // A script replaced the document: record the one it left as a redirect.
    const Document& left = own->second;
    result.redirects.push_back(
        {left.response ? left.response->url : left.url, left.response ? left.response->status : 0});
  }
  if (doc != documents_.end()) {
    // The response's URL, not the committed one: an error page commits as chrome-error://.
    if (doc->second.response) {
      result.url = doc->second.response->url;
      result.status = doc->second.response->status;
      result.headers = doc->second.response->headers;
    } else {
      result.url = doc->second.url;
    }
  }
  if (result.url.empty()) result.url = current_url_;
  return result;
}

std::string NavigationTracker::current_url() const {
  std::lock_guard lock(mutex_);
  return current_url_;
}

}  // namespace gleaner::browser
