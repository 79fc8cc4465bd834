#include "extract/sessions.h"

#include <algorithm>
#include <future>

#include "cdp/error.h"
#include "core/error.h"
#include "core/log.h"

namespace gleaner::extract {
namespace {

// How often idle sessions are looked at (TTL, a recycled or crashed browser).
constexpr std::chrono::seconds kReapEvery{1};
// Retry-After of a 429 for a full session queue or too many sessions.
constexpr std::chrono::seconds kRetryAfter{1};

int entry_in(const Config& config, const std::string& entry, int fallback, int max) {
  const long long value = config.get_int(entry, fallback);
  if (value < 0 || value > max)
    Config::refuse(entry, "must be between 0 and " + std::to_string(max));
  return static_cast<int>(value);
}

Error too_many(std::string message) {
  return Error(ErrorCode::TooManyRequests, std::move(message)).with_retry_after(kRetryAfter);
}

std::string quoted(const std::string& id) {
  return "'" + id + "'";
}

}  // namespace

SessionLimits SessionLimits::from_config(const Config& config, int pool_pages) {
  SessionLimits limits;
  limits.per_account = entry_in(config, "sessions_per_account", limits.per_account, 100000);
  limits.per_node = entry_in(config, "sessions_per_node", std::max(1, pool_pages / 2), 100000);
  limits.paint_always = config.get_bool("sessions_paint_always", limits.paint_always);
  return limits;
}

struct SessionRegistry::Session {
  enum class State {
    Opening,  // its first request is opening its page
    Open,
    Lost,   // its browser went: the next request hears session_lost
    Ended,  // forgotten (TTL, end(), a failed opening): waiting requests hear session_lost
  };
  State state = State::Opening;
  std::shared_ptr<OpenedPage> page;
  proxies::Route route;
  std::optional<std::string> proxy_type;
  std::optional<std::string> proxy_country;
  bool busy = false;  // a request has the tab (or is opening it)
  int waiting = 0;    // requests waiting for the tab
  SteadyClock::time_point last_used = SteadyClock::now();
  std::chrono::seconds ttl{300};
  std::string lost_why;
  std::condition_variable turn;  // the tab is free, or the session is over
};

// One request's view of its session: open() is its turn at the tab.
class SessionRegistry::Tabs final : public TabSource {
 public:
  Tabs(SessionRegistry& registry, Key key, SessionTerms terms, proxies::Route route,
       SiteEgress egress)
      : registry_(registry),
        key_(std::move(key)),
        terms_(std::move(terms)),
        route_(std::move(route)),
        egress_(std::move(egress)) {}
  std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline deadline) override {
    return registry_.take(key_, terms_, route_, egress_, profile, deadline);
  }

 private:
  SessionRegistry& registry_;
  const Key key_;
  const SessionTerms terms_;
  const proxies::Route route_;
  const SiteEgress egress_;
};

SessionRegistry::SessionRegistry(browser::Pool& pool, store::SessionBook& book, std::string node,
                                 SessionLimits limits)
    : pool_(pool), book_(book), node_(std::move(node)), limits_(limits) {
  reaper_ = std::thread([this] { reap(); });
}

SessionRegistry::~SessionRegistry() {
  end_all();
  reap_cv_.notify_all();
  if (reaper_.joinable()) reaper_.join();
}

std::unique_ptr<TabSource> SessionRegistry::tabs(std::int64_t account, SessionTerms terms,
                                                 const proxies::Route& route, SiteEgress egress) {
  Key key{account, terms.id};
  return std::make_unique<Tabs>(*this, std::move(key), std::move(terms), route, std::move(egress));
}

std::optional<proxies::Route> SessionRegistry::route_of(std::int64_t account,
                                                        const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = sessions_.find({account, id});
  if (it == sessions_.end() || it->second->state != Session::State::Open) return std::nullopt;
  return it->second->route;
}

std::unique_ptr<Tab> SessionRegistry::take(const Key& key, const SessionTerms& terms,
                                           const proxies::Route& route, const SiteEgress& egress,
                                           const BrowserProfile& profile, Deadline deadline) {
  std::unique_lock lock(mutex_);
  if (stopping_) throw Error(ErrorCode::Unavailable, "the service is shutting down");
  if (auto it = sessions_.find(key); it != sessions_.end()) {
    std::shared_ptr<Session> s = it->second;
    if (s->state == Session::State::Lost) {
      lock.unlock();
      lost(key, s, s->lost_why);
    }
    if ((terms.proxy_type && terms.proxy_type != s->proxy_type) ||
        (terms.proxy_country && terms.proxy_country != s->proxy_country)) {
      throw conflicting_parameters(
          terms.proxy_type ? "proxyType" : "proxyCountry",
          "session " + quoted(key.second) + " goes through the proxy its first request chose");
    }
    if (s->busy) {
      if (s->waiting >= terms.queue) {
        throw too_many("session " + quoted(key.second) + " has " + std::to_string(s->waiting) +
                       " requests waiting already (sessionQueue " + std::to_string(terms.queue) +
                       ")");
      }
      ++s->waiting;
      const bool turn = s->turn.wait_until(lock, deadline, [&] {
        return !s->busy || s->state == Session::State::Lost || s->state == Session::State::Ended;
      });
      --s->waiting;
      if (s->state == Session::State::Ended) {
        throw Error(ErrorCode::SessionLost,
                    "session " + quoted(key.second) + " ended while this request waited for it");
      }
      if (s->state == Session::State::Lost) {
        lock.unlock();
        lost(key, s, s->lost_why);
      }
      if (!turn) {
        throw Error(ErrorCode::Timeout,
                    "the session's tab stayed busy until the request's time "
                    "budget ran out");
      }
    }
    s->busy = true;
    lock.unlock();
    return hand_out(key, s, terms, profile, deadline, /*fresh=*/false);
  }
  if (!terms.may_open) {
    throw Error(ErrorCode::SessionLost,
                "session " + quoted(key.second) +
                    " is no longer open (its browser was recycled, the node restarted, or it "
                    "ended or expired); the batch's remaining pages are not run in a fresh one");
  }

  const int open = static_cast<int>(std::count_if(sessions_.begin(), sessions_.end(), [](auto& e) {
    return e.second->state == Session::State::Open || e.second->state == Session::State::Opening;
  }));
  if (open >= limits_.per_node) {
    throw too_many("this node holds its most sessions (" + std::to_string(limits_.per_node) +
                   ") at the moment");
  }
  auto s = std::make_shared<Session>();
  s->busy = true;
  s->route = route;
  s->proxy_type = terms.proxy_type;
  s->proxy_country = terms.proxy_country;
  s->ttl = terms.ttl;
  sessions_[key] = s;
  lock.unlock();

  bool claimed = false;
  try {
    const std::optional<std::string> country =
        route.upstream ? std::optional<std::string>(route.upstream->country) : std::nullopt;
    const auto claim =
        book_.claim(key.first, key.second, node_, terms.ttl,
                    country && !country->empty() ? country : std::nullopt, limits_.per_account);
    if (claim.outcome == store::SessionBook::Claim::TooMany) {
      throw too_many("the account has its most open sessions (" +
                     std::to_string(limits_.per_account) +
                     "); end one with DELETE /scrape/sessions/{id} or let it expire");
    }
    if (claim.outcome == store::SessionBook::Claim::Held) {
      if (claim.holder == node_) {
        // Noted by this node, but not in its memory: the node restarted since.
        book_.remove(key.first, key.second, node_);
        throw Error(ErrorCode::SessionLost,
                    "session " + quoted(key.second) +
                        " is lost: the node that held it restarted; send the id again to start "
                        "a new session");
      }
      throw Error(ErrorCode::SessionLost,
                  "session " + quoted(key.second) +
                      " is held by another node; this request reached a node that does not have "
                      "it (route requests by sessionId, docs/sessions.md)",
                  "held by node " + claim.holder);
    }
    claimed = true;
    // Painted only for the requests that need it (a screenshot, a scenario): a page that is only
    // read costs much less CPU unpainted (docs/benchmarks.md), and any later request may need it.
    // Or painted from the start for every request (sessions_paint_always): a page's paint mode is
    // chosen when it opens.
    BrowserProfile kept = profile;
    if (limits_.paint_always) kept.painted = true;
    std::shared_ptr<OpenedPage> page = open_page(pool_, kept, {}, egress, deadline,
                                                 /*paint_on_demand=*/!limits_.paint_always);
    lock.lock();
    if (s->state == Session::State::Opening && !stopping_) {
      s->page = std::move(page);
      s->state = Session::State::Open;
    }
    const bool opened = s->state == Session::State::Open;
    lock.unlock();
    if (!opened) {
      page.reset();
      throw Error(ErrorCode::SessionLost,
                  "session " + quoted(key.second) + " ended while it was being opened");
    }
    log::info("sessions") << "account " << key.first << " opened session " << key.second;
  } catch (...) {
    lock.lock();
    if (auto it = sessions_.find(key); it != sessions_.end() && it->second == s)
      sessions_.erase(it);
    s->state = Session::State::Ended;
    s->busy = false;
    s->turn.notify_all();
    lock.unlock();
    if (claimed) {
      try {
        book_.remove(key.first, key.second, node_);
      } catch (const std::exception& e) {
        log::warn("sessions") << "could not remove a session's note: " << describe(e);
      }
    }
    throw;
  }
  return hand_out(key, s, terms, profile, deadline, /*fresh=*/true);
}

// One request's turn at its session's tab. The session's note in the book is brought up to date
// (a store write) while the tab loads the page, not before: the navigation waits on the browser,
// the note on the store. And the browser is not asked beforehand whether it is still there: when
// the tab's first call finds it gone, the request hears session_lost as it would have before it
// began (it has loaded nothing, and is not charged).
class SessionRegistry::SessionTab final : public Tab {
 public:
  SessionTab(SessionRegistry& registry, Key key, std::shared_ptr<Session> session,
             std::shared_ptr<OpenedPage> page, std::unique_ptr<Tab> tab, std::future<void> noted)
      : registry_(registry),
        key_(std::move(key)),
        session_(std::move(session)),
        page_(std::move(page)),
        tab_(std::move(tab)),
        noted_(std::move(noted)) {}
  ~SessionTab() override {
    if (!noted_.valid()) return;
    try {
      noted_.get();
    } catch (const std::exception& e) {
      log::warn("sessions") << "could not note a request of session " << key_.second << ": "
                            << describe(e);
    }
  }

  Navigation navigate(const std::string& url, const WaitFor& wait, Deadline deadline) override {
    Navigation navigation;
    try {
      navigation = tab_->navigate(url, wait, deadline);
    } catch (const cdp::Error&) {
      browser_gone();
      throw;
    }
    if (noted_.valid()) noted_.get();  // a note that could not be written fails the request
    return navigation;
  }
  nlohmann::json evaluate(const std::string& expression, Deadline deadline, World world) override {
    return tab_->evaluate(expression, deadline, world);
  }
  void set_cookies(const std::vector<Cookie>& cookies, const std::string& url,
                   Deadline deadline) override {
    try {
      tab_->set_cookies(cookies, url, deadline);
    } catch (const cdp::Error&) {
      browser_gone();
      throw;
    }
  }
  screenshots::Surface& surface() override { return tab_->surface(); }
  void check_documents() const override { tab_->check_documents(); }
  bool trusted_input() const override { return tab_->trusted_input(); }
  void click(double x, double y, Deadline deadline) override { tab_->click(x, y, deadline); }
  void type(const std::string& text, Deadline deadline) override { tab_->type(text, deadline); }
  void press(const std::string& key, Deadline deadline) override { tab_->press(key, deadline); }

 private:
  // After a DevTools call failed: a session whose browser is gone (killed, crashed, recycled) is
  // lost, and this request says so.
  void browser_gone() {
    if (page_->lease.lost()) registry_.lost(key_, session_, "its browser was recycled or crashed");
  }

  SessionRegistry& registry_;
  const Key key_;
  const std::shared_ptr<Session> session_;
  const std::shared_ptr<OpenedPage> page_;
  const std::unique_ptr<Tab> tab_;
  std::future<void> noted_;
};

std::unique_ptr<Tab> SessionRegistry::hand_out(const Key& key,
                                               const std::shared_ptr<Session>& session,
                                               const SessionTerms& terms,
                                               const BrowserProfile& profile, Deadline deadline,
                                               bool fresh) {
  auto free_tab = [this, session] {
    std::lock_guard lock(mutex_);
    session->busy = false;
    session->last_used = SteadyClock::now();
    session->turn.notify_one();
  };
  std::shared_ptr<OpenedPage> page;
  {
    std::lock_guard lock(mutex_);
    page = session->page;
  }
  try {
    if (!page || page->lease.lost()) {
      free_tab();
      lost(key, session, "its browser was recycled or crashed");
    }
    // The page was set up by the first request; later ones bring their own headers, viewport and
    // blocking (only what changed is sent: often nothing).
    try {
      if (!fresh) reconfigure(*page, profile, {}, deadline);
    } catch (const cdp::Error&) {
      if (!page->lease.lost()) throw;
      free_tab();
      lost(key, session, "its browser was recycled or crashed");
    }
  } catch (const Error& e) {
    if (e.code() != ErrorCode::SessionLost) free_tab();
    throw;
  } catch (...) {
    free_tab();
    throw;
  }
  {
    std::lock_guard lock(mutex_);
    session->ttl = terms.ttl;
    session->last_used = SteadyClock::now();
  }
  std::future<void> noted =
      std::async(std::launch::async, [&book = book_, key, node = node_, ttl = terms.ttl] {
        book.touch(key.first, key.second, node, ttl);
      });
  // A session whose first request ends before it loads anything (402 insufficient_credits, its
  // time budget spent waiting) holds nothing worth keeping: it ends rather than take one of the
  // account's and the node's sessions until its TTL.
  std::unique_ptr<Tab> tab =
      tab_on(page, profile.run_scripts, [this, key, session, free_tab, fresh](bool used) {
        if (fresh && !used) {
          log::info("sessions") << "session " << key.second
                                << " ended: its first request loaded nothing";
          forget(key, session);
        }
        free_tab();
      });
  return std::make_unique<SessionTab>(*this, key, session, std::move(page), std::move(tab),
                                      std::move(noted));
}

void SessionRegistry::forget(const Key& key, const std::shared_ptr<Session>& session) {
  std::shared_ptr<OpenedPage> page;
  {
    std::lock_guard lock(mutex_);
    if (auto it = sessions_.find(key); it != sessions_.end() && it->second == session)
      sessions_.erase(it);
    if (session->state != Session::State::Lost) session->state = Session::State::Ended;
    page = std::move(session->page);
    session->turn.notify_all();
  }
  page.reset();  // its lease goes back to the pool unless a request still holds the tab
  try {
    book_.remove(key.first, key.second, node_);
  } catch (const std::exception& e) {
    log::warn("sessions") << "could not remove the note of session " << key.second << ": "
                          << describe(e);
  }
}

void SessionRegistry::lost(const Key& key, const std::shared_ptr<Session>& session,
                           const std::string& why) {
  {
    std::lock_guard lock(mutex_);
    session->state = Session::State::Lost;
  }
  forget(key, session);
  log::info("sessions") << "account " << key.first << " session " << key.second << " lost: " << why;
  throw Error(ErrorCode::SessionLost, "session " + quoted(key.second) + " is lost: " + why +
                                          "; send the id again to start a new session");
}

std::vector<store::SessionRecord> SessionRegistry::list(std::int64_t account) {
  return book_.list(account);
}

void SessionRegistry::end(std::int64_t account, const std::string& id) {
  const Key key{account, id};
  std::shared_ptr<Session> session;
  {
    std::lock_guard lock(mutex_);
    if (auto it = sessions_.find(key); it != sessions_.end()) session = it->second;
  }
  if (session) {
    forget(key, session);
    log::info("sessions") << "account " << account << " ended session " << id;
    return;
  }
  const auto note = book_.find(account, id);
  if (!note) throw Error(ErrorCode::NotFound, "no session " + quoted(id));
  if (note->node != node_) {
    throw Error(ErrorCode::SessionLost,
                "session " + quoted(id) + " is held by another node; route requests by sessionId",
                "held by node " + note->node);
  }
  book_.remove(account, id, node_);  // noted by this node before a restart: over already
}

void SessionRegistry::end_all() {
  std::vector<std::shared_ptr<OpenedPage>> pages;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& [key, s] : sessions_) {
      s->state = Session::State::Ended;
      if (s->page) pages.push_back(std::move(s->page));
      s->turn.notify_all();
    }
    sessions_.clear();
  }
  reap_cv_.notify_all();
  // Their notes stay in the book until they expire: a request for one of them after this node
  // restarts hears session_lost, not a fresh context under the same name.
  if (!pages.empty()) log::info("sessions") << "ended " << pages.size() << " sessions";
}

int SessionRegistry::open_count() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::count_if(sessions_.begin(), sessions_.end(), [](const auto& e) {
    return e.second->state == Session::State::Open;
  }));
}

pid_t SessionRegistry::browser_pid(std::int64_t account, const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = sessions_.find({account, id});
  if (it == sessions_.end() || !it->second->page) return 0;
  return it->second->page->lease.browser_pid();
}

void SessionRegistry::reap() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    reap_cv_.wait_for(lock, kReapEvery, [this] { return stopping_; });
    if (stopping_) break;
    const auto now = SteadyClock::now();
    std::vector<std::pair<Key, std::shared_ptr<Session>>> over;
    std::vector<std::shared_ptr<OpenedPage>> pages;
    for (auto& [key, s] : sessions_) {
      if (s->busy || s->waiting > 0) continue;
      if (now - s->last_used >= s->ttl) {
        over.emplace_back(key, s);
      } else if (s->state == Session::State::Open && s->page && s->page->lease.lost()) {
        // Its browser is being replaced: let go of the page now (a recycled browser stops once
        // its pages are back), and keep the session to tell its next request.
        s->state = Session::State::Lost;
        s->lost_why = "its browser was recycled or crashed";
        pages.push_back(std::move(s->page));
      }
    }
    lock.unlock();
    pages.clear();
    for (auto& [key, s] : over) {
      log::info("sessions") << "account " << key.first << " session " << key.second
                            << " ended after " << s->ttl.count() << " s idle";
      forget(key, s);
    }
    lock.lock();
  }
}

}  // namespace gleaner::extract
