#pragma once
// Follows one page's top-frame documents from DevTools events (fed on the DevTools thread) so that
// Page::navigate() can wait for the readiness it was asked for and report the final response.
// Documents are told apart by Chromium's loader id; a script navigation that replaces the
// document after it committed moves the wait on to the newer document.
#include "browser/page.h"

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace gleaner::browser {

class NavigationTracker {
 public:
  explicit NavigationTracker(std::string main_frame_id);

  // Event feeds, on the DevTools thread.
  void on_lifecycle_event(const nlohmann::json& params);
  void on_frame_navigated(const nlohmann::json& params);
  void on_request_will_be_sent(const nlohmann::json& params);
  void on_response_received(const nlohmann::json& params);
  /// The tab crashed (Inspector.targetCrashed).
  void on_crashed();
  /// The session or the whole connection went away.
  void on_closed();

  /// Forgets earlier documents; called before a navigation starts.
  void reset();

  enum class Outcome { Ready, DeadlinePassed, Crashed, Closed };
  /// Waits until the document of `loader_id` (or the one that replaced it) reached `until`
  /// (Selector and FixedWait: committed).
  Outcome wait(const std::string& loader_id, WaitSpec::Until until, Deadline deadline);
  /// Waits until `until` passes, returning early only when the page crashed or closed.
  Outcome pause(Deadline until);

  /// True when the document of `loader_id` received a response (an HTTP error page does).
  bool has_response(const std::string& loader_id) const;
  /// The outcome of the navigation that started with `loader_id`.
  NavigationResult result(const std::string& loader_id) const;
  /// The URL last committed in the top frame.
  std::string current_url() const;

 private:
  struct Document {
    std::set<std::string> lifecycle;  // lifecycle event names seen (load, DOMContentLoaded, ...)
    std::uint64_t commit_order = 0;   // 0 until committed; later commits have larger numbers
    std::string url;
    std::optional<NavigationResult> response;  // url, status, headers of the document response
    std::vector<Redirect> redirects;
  };
  void commit_locked(const std::string& loader_id, const std::string& url);
  // The document that `loader_id` led to: itself, or a later committed one that replaced it.
  const std::string& effective_locked(const std::string& loader_id) const;
  std::optional<Outcome> broken_locked() const;

  const std::string main_frame_id_;
  mutable std::mutex mutex_;  // guards every field below
  std::condition_variable changed_;
  std::map<std::string, Document> documents_;  // by loader id, since the last reset()
  std::uint64_t commits_ = 0;
  std::string current_url_;
  bool crashed_ = false;
  bool closed_ = false;
};

}  // namespace gleaner::browser
