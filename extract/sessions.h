#pragma once
// Sessions: a browser context the page opener keeps for one account and id between requests
// (docs/sessions.md). The request path asks for "a fresh context" (PoolTabs) or "the session's
// tab" (SessionRegistry::tabs); nothing else changes.
//
// A session is one browser context in one Chromium process of this node's pool, with its own way
// out through the egress gateway (the same route, so the same proxy and exit, for its whole life)
// and one tab kept open for it: its lease counts as one of the pool's pages while the session
// lasts. It never moves: when its browser is recycled or crashes, the session is lost, and the
// next request naming it hears 409 session_lost (the id may then be used again). It ends after
// its idle TTL, on end(), or when this node stops. The nodes note their sessions in a shared
// book (store/session_store.h), so that a request reaching a node that does not hold the session
// (another node, or this one after a restart) is also told session_lost, never given a fresh
// context under the same name.
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/config.h"
#include "extract/pool_tabs.h"
#include "extract/tab.h"
#include "store/session_store.h"

namespace gleaner::extract {

/// How many sessions may be open, and how their tabs are kept.
struct SessionLimits {
  /// Entry `sessions_per_account`: open sessions one account may hold, across all nodes.
  int per_account = 5;
  /// Entry `sessions_per_node`: open sessions this node holds at most (each keeps a page of the
  /// pool); default half the pool's pages, so that requests without a session always find one.
  int per_node = 4;
  /// Entry `sessions_paint_always`: a session's tab is painted for every request, not only for
  /// those that need it (a screenshot, a scenario). Unpainted, a page reads its window as 0 by 0
  /// (docs/stealth.md, window_metrics); painted, each request costs more CPU (docs/sessions.md).
  bool paint_always = false;

  static SessionLimits from_config(const Config& config, int pool_pages);
};

/// What a request says of its session.
struct SessionTerms {
  /// 1 to 64 of [A-Za-z0-9_-] (checked by the request's parser).
  std::string id;
  /// Ends after this long without a request (given again with every request).
  std::chrono::seconds ttl{300};
  /// Requests that may wait for the session's tab while another one uses it; one more is a 429.
  int queue = 4;
  /// The proxy the request asked for (proxyType, proxyCountry): a session keeps the route of its
  /// first request, and a later one that asks for another proxy is a 400.
  std::optional<std::string> proxy_type;
  std::optional<std::string> proxy_country;
  /// Whether the request opens the session when it is not open. A batch's rows after its first
  /// may not: a session lost between two rows fails the rest with session_lost, never a fresh
  /// context under the same name (docs/sessions.md "Batches").
  bool may_open = true;
};

/// Largest sessionTtl and sessionQueue accepted.
inline constexpr std::chrono::seconds kMaxSessionTtl{1800};
inline constexpr int kMaxSessionQueue = 16;

class SessionRegistry {
 public:
  /// `pool` and `book` outlive the registry. `node` names this node in the book.
  SessionRegistry(browser::Pool& pool, store::SessionBook& book, std::string node,
                  SessionLimits limits);
  /// end_all().
  ~SessionRegistry();
  SessionRegistry(const SessionRegistry&) = delete;
  SessionRegistry& operator=(const SessionRegistry&) = delete;

  /// The tabs of the caller's session `terms.id`. Its open() gives the session's tab, opening the
  /// session (on `route`, through `egress`) when this is its first request; the tab is the
  /// request's until it goes, then the next waiting request's. open() throws gleaner::Error:
  /// SessionLost (the session's browser is gone, or the book says it is held elsewhere or was
  /// held by this node before a restart), TooManyRequests (its queue is full, or the account or
  /// this node has its most sessions open), Timeout (waited for the tab until the deadline),
  /// ConflictingParameters (the request asks for another proxy than the session's), and what
  /// opening a page throws. With `terms.may_open` false, a session not open on this node is
  /// SessionLost.
  std::unique_ptr<TabSource> tabs(std::int64_t account, SessionTerms terms,
                                  const proxies::Route& route, SiteEgress egress);

  /// The route of the caller's open session `id` on this node, if there is one: a later request
  /// of the session costs what its route costs.
  std::optional<proxies::Route> route_of(std::int64_t account, const std::string& id);

  /// The account's sessions, on every node (the book's notes).
  std::vector<store::SessionRecord> list(std::int64_t account);

  /// Ends the caller's session `id` (a request in it finishes first, on the page it has). Throws
  /// gleaner::Error(NotFound) when the account has no such session, SessionLost when another node
  /// holds it.
  void end(std::int64_t account, const std::string& id);

  /// Ends every session of this node (shutdown: their pages go back to the pool).
  void end_all();

  /// Sessions this node holds (GET /metrics, tests).
  int open_count() const;
  /// The Chromium pid of the caller's open session `id`, 0 when none (tests).
  pid_t browser_pid(std::int64_t account, const std::string& id) const;

 private:
  struct Session;
  using Key = std::pair<std::int64_t, std::string>;
  class Tabs;
  friend class Tabs;
  class SessionTab;
  friend class SessionTab;

  std::unique_ptr<Tab> take(const Key& key, const SessionTerms& terms, const proxies::Route& route,
                            const SiteEgress& egress, const BrowserProfile& profile,
                            Deadline deadline);
  // `fresh`: the page was just opened for this request, set up as it asks already.
  std::unique_ptr<Tab> hand_out(const Key& key, const std::shared_ptr<Session>& session,
                                const SessionTerms& terms, const BrowserProfile& profile,
                                Deadline deadline, bool fresh);
  // Forgets `key`'s session (if it is `session`) and its note in the book; its page goes with
  // the last tab holding it.
  void forget(const Key& key, const std::shared_ptr<Session>& session);
  [[noreturn]] void lost(const Key& key, const std::shared_ptr<Session>& session,
                         const std::string& why);
  // Ends idle sessions past their TTL and lets go of the pages of lost ones; every second.
  void reap();

  browser::Pool& pool_;
  store::SessionBook& book_;
  const std::string node_;
  const SessionLimits limits_;

  mutable std::mutex mutex_;  // guards sessions_, stopping_ and every Session's fields
  std::map<Key, std::shared_ptr<Session>> sessions_;
  bool stopping_ = false;
  std::condition_variable reap_cv_;
  // Declared last: runs reap() until the destructor stops it.
  std::thread reaper_;
};

}  // namespace gleaner::extract
