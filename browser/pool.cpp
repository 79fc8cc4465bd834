#include "browser/pool.h"

#include <algorithm>
#include <condition_variable>
#include <iterator>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "browser/instance.h"
#include "cdp/error.h"
#include "core/error.h"
#include "core/log.h"

namespace gleaner::browser {
namespace {

constexpr Millis kFirstRetry{500};
constexpr Millis kMaxRetry{30000};
// How many set-ups of warm pages are kept at once (PoolCore::warm_kinds_).
constexpr std::size_t kWarmKinds = 2;
// A warm page that cannot be opened within this is given up (the health check looks deeper).
constexpr Millis kWarmPageLimit{10000};
// The devices a browser can be, in the order of the pool's slots: options.processes of each.
constexpr Device kDevices[] = {Device::Desktop, Device::Phone, Device::Tablet};
constexpr std::size_t kDeviceCount = std::size(kDevices);

std::size_t index_of(Device device) {
  return static_cast<std::size_t>(std::find(std::begin(kDevices), std::end(kDevices), device) -
                                  std::begin(kDevices));
}

long long ranged(const Config& config, const std::string& entry, long long fallback, long long min,
                 long long max) {
  long long value = config.get_int(entry, fallback);
  if (value < min || value > max)
    Config::refuse(entry, "must be between " + std::to_string(min) + " and " + std::to_string(max));
  return value;
}

bool has_flag(const std::vector<std::string>& flags, const std::string& name) {
  return std::any_of(flags.begin(), flags.end(),
                     [&](const std::string& f) { return f.rfind(name, 0) == 0; });
}

}  // namespace

PoolOptions PoolOptions::from_config(const Config& config) {
  PoolOptions o;
  const char* chrome_path = std::getenv("CHROME_PATH");
  o.chromium_path = config.get_string(
      "chromium_path", chrome_path && *chrome_path ? chrome_path : "/usr/bin/chromium");
  o.processes = static_cast<int>(ranged(config, "browser_processes", o.processes, 1, 256));
  o.device_idle =
      Millis(ranged(config, "device_browsers_idle_ms", o.device_idle.count(), 0, 86400000));
  o.pages_per_process =
      static_cast<int>(ranged(config, "pages_per_process", o.pages_per_process, 1, 1000));
  o.lease_wait = Millis(ranged(config, "lease_wait_ms", o.lease_wait.count(), 0, 3600000));
  o.recycle_after_pages =
      static_cast<int>(ranged(config, "recycle_after_pages", o.recycle_after_pages, 0, 100000000));
  o.memory_limit_mb = static_cast<std::size_t>(ranged(
      config, "browser_memory_limit_mb", static_cast<long long>(o.memory_limit_mb), 0, 1 << 24));
  o.extra_flags = config.get_string_list("chromium_flags");
  o.replay_dir = config.get_string("replay_dir", "");
  o.health_interval =
      Millis(ranged(config, "health_check_interval_ms", o.health_interval.count(), 10, 3600000));
  o.health_timeout =
      Millis(ranged(config, "health_check_timeout_ms", o.health_timeout.count(), 10, 600000));
  o.health_misses =
      static_cast<int>(ranged(config, "health_check_misses", o.health_misses, 1, 100));
  o.warm_pages = static_cast<int>(ranged(config, "warm_pages", o.warm_pages, 0, 1000));
  o.paint_every_page = config.get_bool("paint_every_page", o.paint_every_page);
  o.launch_timeout =
      Millis(ranged(config, "browser_launch_timeout_ms", o.launch_timeout.count(), 100, 600000));
  o.close_grace =
      Millis(ranged(config, "browser_close_grace_ms", o.close_grace.count(), 0, 600000));
  return o;
}

// Everything the pool's threads share. Leases hold it too, so ending a lease after the Pool is
// gone is safe.
class PoolCore : public std::enable_shared_from_this<PoolCore> {
 public:
  explicit PoolCore(PoolOptions o);

  Lease lease(const ContextOptions& options, Deadline deadline);
  /// The options a page is set up with: a lease's own, painted in the foreground whatever they
  /// say when the pool paints every page (PoolOptions::paint_every_page).
  ContextOptions effective(const ContextOptions& asked) const;
  void release(const std::shared_ptr<BrowserInstance>& browser, std::unique_ptr<Page> page);
  bool lost(const BrowserInstance& browser) const;
  void supervise();
  PoolState state() const;
  bool wait_ready(Deadline deadline) const;
  void begin_shutdown(Millis grace);

  const PoolOptions options;
  const std::shared_ptr<ReplayArchive> replay;

 private:
  using Instance = std::shared_ptr<BrowserInstance>;
  using Pages = std::vector<std::unique_ptr<Page>>;

  BrowserInstance::Settings browser_settings(Device device) const;
  // The device of the browsers in slot `slot`.
  Device slot_device(std::size_t slot) const {
    return kDevices[slot / static_cast<std::size_t>(options.processes)];
  }
  // Under mutex_:
  // Whether browsers of `device` are kept: the desktop's always, another's while a lease of it
  // waits for one or began within the idle time.
  bool in_use_locked(Device device) const {
    return device == Device::Desktop || waiting_[index_of(device)] > 0 ||
           SteadyClock::now() < in_use_until_[index_of(device)];
  }
  Instance choose_locked(const std::string& warm_key, Device device) const;
  static bool has_warm_locked(const BrowserInstance& instance, const std::string& key);
  void retire_locked(std::size_t slot, Pages& pages_to_close);
  void take_warm_locked(BrowserInstance& instance, Pages& into);
  void wake_locked();
  int busy_locked() const;
  // Supervisor steps; each takes the lock itself and does slow work without it.
  void retire_unused();
  void handle_dead();
  void stop_idle_retired();
  void launch_missing();
  void fill_warm_pages();
  void check_health();
  void stop_everything();
  Deadline next_wakeup_locked() const;
  bool other_steps_due_locked() const;

  const std::vector<BrowserInstance::Settings> settings_;  // by device, as kDevices

  mutable std::mutex mutex_;  // guards every field below, and BrowserInstance's pool fields
  mutable std::condition_variable lease_cv_;       // a page may be free; a browser came up; stop
  mutable std::condition_variable supervisor_cv_;  // work for the supervisor
  bool work_ = false;                              // supervisor_cv_'s predicate
  // options.processes per device, as kDevices; null while (re)starting or not in use.
  std::vector<Instance> slots_;
  Deadline in_use_until_[kDeviceCount];  // by device: when the last lease of it began + idle
  // By device: leases waiting for one of its browsers. A browser that took longer to start than
  // the idle time is still wanted by the lease that made it start (it was stopped unused before).
  int waiting_[kDeviceCount] = {};
  std::vector<Deadline> next_launch_;  // per slot: not before (backs off after failures)
  std::vector<int> launch_failures_;   // per slot: failed starts in a row
  std::vector<Instance> retiring_;     // replaced, finishing their leases
  Deadline next_health_;
  std::uint64_t restarts_ = 0;
  std::uint64_t recycles_ = 0;
  std::uint64_t pages_served_ = 0;
  // What the latest leases decided at opening (hidden or not, their proxy without credentials),
  // most recent first, at most kWarmKinds: warm pages are opened like each, so that leases through
  // the egress gateway find a page ready, painted ones (screenshots) and hidden ones (everything
  // else) alike, even when the two alternate.
  struct WarmKind {
    std::string key;  // BrowserInstance::warm_key() of options
    ContextOptions options;
  };
  std::vector<WarmKind> warm_kinds_;
  // Whether warm pages set up as `key` are wanted: plain ones ("") until the first lease.
  bool wanted_warm_locked(const std::string& key) const {
    if (warm_kinds_.empty()) return key.empty();
    return std::any_of(warm_kinds_.begin(), warm_kinds_.end(),
                       [&](const WarmKind& k) { return k.key == key; });
  }
  bool shutting_down_ = false;
  Deadline shutdown_deadline_;
};

PoolCore::PoolCore(PoolOptions o)
    : options(std::move(o)),
      replay(options.replay_dir.empty() ? nullptr
                                        : std::make_shared<ReplayArchive>(options.replay_dir)),
      settings_{browser_settings(Device::Desktop), browser_settings(Device::Phone),
                browser_settings(Device::Tablet)},
      slots_(static_cast<std::size_t>(options.processes) * kDeviceCount),
      next_launch_(slots_.size(), SteadyClock::now()),
      launch_failures_(slots_.size(), 0),
      next_health_(deadline_in(options.health_interval)) {}

BrowserInstance::Settings PoolCore::browser_settings(Device device) const {
  BrowserInstance::Settings s;
  s.chromium_path = options.chromium_path;
  s.flags = standard_chromium_flags();
  s.device = device;
  // The browser-wide user agent, which service workers and anything else no page override
  // reaches use: the device's Chrome of the installed version, never "HeadlessChrome"
  // (browser/identity.h; pages get their lease's identity on top).
  s.version = installed_chrome_version(options.chromium_path);
  for (std::string& flag : browser_flags(device, s.version)) s.flags.push_back(std::move(flag));
  if (const nlohmann::json preferences = browser_preferences(device); !preferences.is_null())
    s.preferences = preferences.dump();
  if (replay && !has_flag(options.extra_flags, "--host-resolver-rules")) {
    // Belt and braces: every request is answered from the archive, and should anything bypass
    // interception (a preconnect, a browser-initiated fetch) no host name resolves.
    s.flags.push_back("--host-resolver-rules=MAP * ~NOTFOUND");
  }
  s.flags.insert(s.flags.end(), options.extra_flags.begin(), options.extra_flags.end());
  s.flags = merge_feature_flags(s.flags);
  s.launch_timeout = options.launch_timeout;
  s.head_interceptors = options.interceptors;
  s.terminal_interceptor = replay;
  s.executor_threads = static_cast<std::size_t>(std::clamp(options.pages_per_process, 2, 8));
  return s;
}

void PoolCore::wake_locked() {
  work_ = true;
  supervisor_cv_.notify_one();
}

int PoolCore::busy_locked() const {
  int busy = 0;
  for (const auto& b : slots_)
    if (b) busy += b->busy;
  for (const auto& b : retiring_) busy += b->busy;
  return busy;
}

bool PoolCore::has_warm_locked(const BrowserInstance& instance, const std::string& key) {
  return std::any_of(instance.warm.begin(), instance.warm.end(),
                     [&](const auto& w) { return w.first == key; });
}

PoolCore::Instance PoolCore::choose_locked(const std::string& warm_key, Device device) const {
  Instance best;
  for (const auto& b : slots_) {
    if (!b || b->device() != device || b->dead || b->draining || b->closed() ||
        b->busy >= options.pages_per_process)
      continue;
    // Fewest leases first; among equals, one with a page ready.
    if (!best || b->busy < best->busy ||
        (b->busy == best->busy && has_warm_locked(*b, warm_key) &&
         !has_warm_locked(*best, warm_key)))
      best = b;
  }
  return best;
}

void PoolCore::take_warm_locked(BrowserInstance& instance, Pages& into) {
  while (!instance.warm.empty()) {
    into.push_back(std::move(instance.warm.front().second));
    instance.warm.pop_front();
  }
}

// The browser in `slot` lends no more and is stopped once its leases end; a replacement starts at
// once. Its warm pages are handed back to be destroyed outside the lock.
void PoolCore::retire_locked(std::size_t slot, Pages& pages_to_close) {
  Instance b = std::move(slots_[slot]);
  b->draining = true;
  take_warm_locked(*b, pages_to_close);
  retiring_.push_back(std::move(b));
  next_launch_[slot] = SteadyClock::now();
  ++recycles_;
  wake_locked();
}

ContextOptions PoolCore::effective(const ContextOptions& asked) const {
  ContextOptions o = asked;
  if (options.paint_every_page) o.hidden = o.paint_on_demand = false;
  return o;
}

Lease PoolCore::lease(const ContextOptions& asked, Deadline deadline) {
  const ContextOptions options_for_lease = effective(asked);
  Deadline wait_until = std::min(deadline, deadline_in(options.lease_wait));
  const std::string warm_key = BrowserInstance::warm_key(&options_for_lease);
  // A page painted on demand is opened for its lease: no warm page is one, nor made like one.
  const bool warm_kind = !options_for_lease.paint_on_demand;
  for (;;) {
    Instance browser;
    std::unique_ptr<Page> page;
    Pages to_close;
    {
      std::unique_lock lock(mutex_);
      if (options_for_lease.device != Device::Desktop) {
        // Its browsers stay (or start: the supervisor launches them) for the idle time from now.
        const std::size_t device = index_of(options_for_lease.device);
        in_use_until_[device] = deadline_in(options.device_idle);
        const auto first = slots_.begin() + static_cast<std::ptrdiff_t>(device) * options.processes;
        if (std::none_of(first, first + options.processes, [](const Instance& b) { return b; })) {
          // None of them runs: the lease may wait for one to start.
          wait_until = std::max(wait_until, std::min(deadline, deadline_in(options.launch_timeout)));
        }
        wake_locked();
      }
      const bool other_device = options_for_lease.device != Device::Desktop;
      if (other_device) ++waiting_[index_of(options_for_lease.device)];
      lease_cv_.wait_until(lock, wait_until, [&] {
        return shutting_down_ ||
               (browser = choose_locked(warm_key, options_for_lease.device)) != nullptr;
      });
      if (other_device) {
        --waiting_[index_of(options_for_lease.device)];
        // The idle time counts from when the lease is served, not from when it began to wait.
        if (browser) in_use_until_[index_of(options_for_lease.device)] =
            deadline_in(options.device_idle);
      }
      if (shutting_down_) throw Error(ErrorCode::Unavailable, "the service is shutting down");
      if (!browser) {
        throw Error(
            ErrorCode::Unavailable, "no browser is free at the moment, try again",
            "no page free within the lease wait; " + std::to_string(busy_locked()) + " pages busy");
      }
      ++browser->busy;
      ++browser->served;
      ++pages_served_;
      if (warm_kind && (warm_kinds_.empty() || warm_kinds_.front().key != warm_key)) {
        // Leases now come set up like this too: warm pages follow from now on, and the kind
        // used longest ago goes.
        std::erase_if(warm_kinds_, [&](const WarmKind& k) { return k.key == warm_key; });
        WarmKind kind{warm_key, ContextOptions{}};
        kind.options.hidden = options_for_lease.hidden;
        kind.options.proxy = options_for_lease.proxy;
        if (kind.options.proxy) kind.options.proxy->username = kind.options.proxy->password = "";
        warm_kinds_.insert(warm_kinds_.begin(), std::move(kind));
        if (warm_kinds_.size() > kWarmKinds) warm_kinds_.resize(kWarmKinds);
        wake_locked();
      }
      auto warm = std::find_if(browser->warm.begin(), browser->warm.end(),
                               [&](const auto& w) { return warm_kind && w.first == warm_key; });
      if (warm != browser->warm.end()) {
        page = std::move(warm->second);
        browser->warm.erase(warm);
        wake_locked();  // top the warm pages up again
      }
      if (options.recycle_after_pages > 0 &&
          browser->served >= static_cast<std::uint64_t>(options.recycle_after_pages)) {
        auto slot = std::find(slots_.begin(), slots_.end(), browser);
        log::info("pool") << "recycling Chromium pid " << browser->pid() << " after "
                          << browser->served << " pages";
        retire_locked(static_cast<std::size_t>(slot - slots_.begin()), to_close);
      }
    }
    to_close.clear();  // warm pages of a browser being retired: they go when it stops
    const bool warm = page != nullptr;
    try {
      if (warm)
        browser->configure_page(*page, options_for_lease, deadline);
      else
        page = browser->open_page(&options_for_lease, deadline);
      // A warm page needs no command when the lease asks for nothing: make sure its browser did
      // not die meanwhile rather than hand out a page that fails on first use.
      if (browser->closed())
        throw cdp::Error(cdp::ErrorKind::Closed, "Target.createTarget", "the browser went away");
      return Lease(shared_from_this(), browser, std::move(page), warm);
    } catch (const cdp::Error& e) {
      release(browser, std::move(page));
      // The browser died under us: another one (or its replacement) may still make it in time.
      if (browser->closed() && SteadyClock::now() < wait_until) {
        log::warn("pool") << "page set-up failed on a browser that went away, retrying: "
                          << e.detail();
        continue;
      }
      if (e.kind() == cdp::ErrorKind::Timeout)
        throw Error(ErrorCode::Timeout, "no browser page could be prepared in time", e.detail());
      throw;
    } catch (...) {
      release(browser, std::move(page));
      throw;
    }
  }
}

void PoolCore::release(const std::shared_ptr<BrowserInstance>& browser,
                       std::unique_ptr<Page> page) {
  browser->close_page(std::move(page));  // outside the lock: it unsubscribes from the connection
  std::lock_guard lock(mutex_);
  --browser->busy;
  if (browser->draining || shutting_down_ || !in_use_locked(browser->device())) wake_locked();
  lease_cv_.notify_all();
}

bool PoolCore::lost(const BrowserInstance& browser) const {
  if (browser.closed()) return true;
  std::lock_guard lock(mutex_);
  return browser.dead || browser.draining || shutting_down_;
}

bool PoolCore::wait_ready(Deadline deadline) const {
  std::unique_lock lock(mutex_);
  return lease_cv_.wait_until(lock, deadline, [&] {
    if (shutting_down_) return true;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const Instance& b = slots_[i];
      if (in_use_locked(slot_device(i)) && !(b && !b->dead && !b->closed())) return false;
    }
    return true;
  }) && !shutting_down_;
}

PoolState PoolCore::state() const {
  std::lock_guard lock(mutex_);
  PoolState s;
  s.restarts = restarts_;
  s.recycles = recycles_;
  s.pages_served = pages_served_;
  s.shutting_down = shutting_down_;
  auto add = [&](const Instance& b) {
    BrowserStatus status;
    status.pid = b->pid();
    status.device = b->device();
    status.ready = !b->dead && !b->closed();
    status.draining = b->draining;
    status.busy_pages = b->busy;
    status.warm_pages = static_cast<int>(b->warm.size());
    status.pages_served = b->served;
    s.busy_pages += b->busy;
    if (status.ready && !b->draining) {
      ++s.processes;
      if (!shutting_down_) s.free_pages += std::max(0, options.pages_per_process - b->busy);
    }
    s.browsers.push_back(status);
  };
  for (const auto& b : slots_)
    if (b) add(b);
  for (const auto& b : retiring_) add(b);
  return s;
}

void PoolCore::begin_shutdown(Millis grace) {
  std::lock_guard lock(mutex_);
  if (!shutting_down_) {
    shutting_down_ = true;
    shutdown_deadline_ = deadline_in(grace);
    log::info("pool") << "shutting down: " << busy_locked() << " leases out, grace "
                      << grace.count() << " ms";
  }
  wake_locked();
  lease_cv_.notify_all();
}

// ---- The supervisor ------------------------------------------------------------------------

Deadline PoolCore::next_wakeup_locked() const {
  Deadline next = next_health_;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Device device = slot_device(i);
    if (!in_use_locked(device)) continue;  // a release wakes the supervisor to stop it
    if (!slots_[i])
      next = std::min(next, next_launch_[i]);
    else if (device != Device::Desktop)
      next = std::min(next, in_use_until_[index_of(device)]);
  }
  if (shutting_down_) next = std::min(next, shutdown_deadline_);
  return next;
}

// Whether a supervisor step other than topping up warm pages has work now: a browser to start
// (a recycled or dead one's replacement), a retired one to stop, or the health check. Topping up
// goes on as long as leases take warm pages, so under steady load it must give way to them.
bool PoolCore::other_steps_due_locked() const {
  return SteadyClock::now() >= next_wakeup_locked() ||
         std::any_of(retiring_.begin(), retiring_.end(),
                     [](const Instance& b) { return b->busy == 0; });
}

void PoolCore::supervise() {
  auto locked = [this](auto&& f) {
    std::lock_guard lock(mutex_);
    return f();
  };
  for (;;) {
    const bool done = locked([&] {
      return shutting_down_ && (busy_locked() == 0 || SteadyClock::now() >= shutdown_deadline_);
    });
    if (done) break;
    handle_dead();
    retire_unused();
    stop_idle_retired();
    if (!locked([&] { return shutting_down_; })) {  // nothing new starts while shutting down
      launch_missing();
      handle_dead();  // a browser may have died while we were launching
      fill_warm_pages();
      if (locked([&] { return SteadyClock::now() >= next_health_; })) check_health();
    }
    std::unique_lock lock(mutex_);
    supervisor_cv_.wait_until(lock, next_wakeup_locked(), [&] { return work_; });
    work_ = false;
  }
  stop_everything();
}

void PoolCore::handle_dead() {
  std::vector<std::pair<Instance, int>> dead;  // with the leases still on it
  Pages pages;
  {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      Instance& b = slots_[i];
      if (!b || !(b->dead || b->closed())) continue;
      b->dead = true;
      take_warm_locked(*b, pages);
      const int busy = b->busy;
      dead.emplace_back(std::move(b), busy);
      next_launch_[i] = SteadyClock::now();
      ++restarts_;
    }
    for (auto it = retiring_.begin(); it != retiring_.end();) {
      if ((*it)->dead || (*it)->closed()) {
        (*it)->dead = true;
        const int busy = (*it)->busy;
        dead.emplace_back(std::move(*it), busy);
        it = retiring_.erase(it);
      } else {
        ++it;
      }
    }
    if (!dead.empty()) lease_cv_.notify_all();
  }
  pages.clear();
  for (auto& [b, busy] : dead) {
    log::warn("pool") << "Chromium pid " << b->pid() << " crashed or hung; " << busy
                      << " leases on it fail";
    b->kill();  // reaps it; leases still holding it fail at once on their closed connection
  }
}

// A phone's or a tablet's browsers without a lease, once that device is no longer in use: they go
// (stop_idle_retired() stops them) and start again with its next lease. One with a lease (a
// session's page) stays until it ends.
void PoolCore::retire_unused() {
  Pages pages;
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Instance& b = slots_[i];
    if (!b || in_use_locked(slot_device(i)) || b->busy > 0) continue;
    log::info("pool") << "stopping Chromium pid " << b->pid() << " (" << device_name(b->device())
                      << "): no lease of its device for "
                      << options.device_idle.count() << " ms";
    b->draining = true;
    take_warm_locked(*b, pages);
    retiring_.push_back(std::move(b));
  }
}

void PoolCore::stop_idle_retired() {
  std::vector<Instance> idle;
  {
    std::lock_guard lock(mutex_);
    for (auto it = retiring_.begin(); it != retiring_.end();) {
      if ((*it)->busy == 0) {
        idle.push_back(std::move(*it));
        it = retiring_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& b : idle) {
    log::info("pool") << "stopping retired Chromium pid " << b->pid() << " after " << b->served
                      << " pages";
    b->stop(options.close_grace);
  }
}

void PoolCore::launch_missing() {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    {
      std::lock_guard lock(mutex_);
      if (shutting_down_ || slots_[i] || !in_use_locked(slot_device(i)) ||
          SteadyClock::now() < next_launch_[i])
        continue;
    }
    std::weak_ptr<PoolCore> weak = weak_from_this();
    try {
      Instance b = BrowserInstance::launch(settings_[index_of(slot_device(i))], [weak] {
        if (auto core = weak.lock()) {
          std::lock_guard lock(core->mutex_);
          core->wake_locked();
          core->lease_cv_.notify_all();
        }
      });
      std::lock_guard lock(mutex_);
      slots_[i] = std::move(b);
      launch_failures_[i] = 0;
      lease_cv_.notify_all();
    } catch (const Error& e) {
      std::lock_guard lock(mutex_);
      int failures = ++launch_failures_[i];
      Millis backoff = std::min(kMaxRetry, kFirstRetry * (1 << std::min(failures, 6)));
      next_launch_[i] = deadline_in(backoff);
      log::error("pool") << "could not start Chromium (attempt " << failures << "), retrying in "
                         << backoff.count() << " ms: " << e.what() << " — " << e.detail();
    }
  }
}

void PoolCore::fill_warm_pages() {
  if (options.warm_pages <= 0) return;
  for (;;) {
    Instance target;
    WarmKind kind;
    // Warm pages of a set-up leases no longer use: closed (their contexts disposed).
    std::vector<std::pair<Instance, std::unique_ptr<Page>>> stale;
    {
      std::lock_guard lock(mutex_);
      if (shutting_down_) return;
      if (other_steps_due_locked()) {
        work_ = true;  // the supervisor's next round does them, then comes back here
        return;
      }
      for (const auto& b : slots_) {
        if (!b) continue;
        for (auto it = b->warm.begin(); it != b->warm.end();) {
          if (wanted_warm_locked(it->first)) {
            ++it;
          } else {
            stale.emplace_back(b, std::move(it->second));
            it = b->warm.erase(it);
          }
        }
      }
      // The most recent kind first: the browser short of it with the fewest warm pages.
      for (const WarmKind& k : warm_kinds_) {
        for (const auto& b : slots_) {
          if (!b || b->dead || b->draining || b->closed() || b->warm_failures != 0) continue;
          const auto have = std::count_if(b->warm.begin(), b->warm.end(),
                                          [&](const auto& w) { return w.first == k.key; });
          if (have < options.warm_pages && (!target || b->warm.size() < target->warm.size())) {
            target = b;
          }
        }
        if (target) {
          kind = k;
          break;
        }
      }
      // No lease yet: plain warm pages, ready for the first.
      if (warm_kinds_.empty()) {
        for (const auto& b : slots_) {
          if (b && !b->dead && !b->draining && !b->closed() && b->warm_failures == 0 &&
              static_cast<int>(b->warm.size()) < options.warm_pages) {
            target = b;
            break;
          }
        }
      }
    }
    for (auto& [b, stale_page] : stale) b->close_page(std::move(stale_page));
    if (!target) return;
    std::unique_ptr<Page> page;
    try {
      page = target->open_page(kind.key.empty() ? nullptr : &kind.options,
                               deadline_in(kWarmPageLimit));
    } catch (const Error& e) {
      log::warn("pool") << "could not open a warm page on Chromium pid " << target->pid() << ": "
                        << e.detail();
      std::lock_guard lock(mutex_);
      ++target->warm_failures;  // cleared by the next health check
      continue;
    }
    {
      std::lock_guard lock(mutex_);
      if (!target->dead && !target->draining && !shutting_down_ && wanted_warm_locked(kind.key)) {
        target->warm.emplace_back(kind.key, std::move(page));
        lease_cv_.notify_all();
        continue;
      }
    }
    target->close_page(std::move(page));
  }
}

void PoolCore::check_health() {
  std::vector<Instance> browsers;
  {
    std::lock_guard lock(mutex_);
    next_health_ = deadline_in(options.health_interval);
    for (const auto& b : slots_)
      if (b && !b->dead) browsers.push_back(b);
    for (const auto& b : retiring_) browsers.push_back(b);
  }
  Pages to_close;  // warm pages of a retired browser: they go when it stops
  for (auto& b : browsers) {
    const bool exited = b->process_exited();
    if (!exited && !b->responsive(deadline_in(options.health_timeout))) {
      std::lock_guard lock(mutex_);
      if (++b->health_misses < options.health_misses) {
        log::warn("pool") << "Chromium pid " << b->pid() << " missed a health check ("
                          << b->health_misses << " of " << options.health_misses
                          << " in a row make it hung)";
        continue;
      }
    }
    if (exited || b->health_misses >= options.health_misses) {
      log::warn("pool") << "Chromium pid " << b->pid() << " is hung or gone; killing it";
      b->kill();  // its connection closes; handle_dead() replaces it
      std::lock_guard lock(mutex_);
      b->dead = true;
      wake_locked();
      continue;
    }
    const std::size_t limit = options.memory_limit_mb * 1024 * 1024;
    const std::size_t used = limit > 0 ? b->memory_bytes() : 0;
    std::lock_guard lock(mutex_);
    b->warm_failures = 0;
    b->health_misses = 0;
    if (limit > 0 && used > limit && !b->draining) {
      auto slot = std::find(slots_.begin(), slots_.end(), b);
      if (slot != slots_.end()) {
        log::info("pool") << "recycling Chromium pid " << b->pid() << ": " << used / (1024 * 1024)
                          << " MB over the limit of " << options.memory_limit_mb << " MB";
        retire_locked(static_cast<std::size_t>(slot - slots_.begin()), to_close);
      }
    }
  }
}

void PoolCore::stop_everything() {
  std::vector<Instance> all;
  Pages pages;
  {
    std::lock_guard lock(mutex_);
    for (auto& b : slots_) {
      if (!b) continue;
      take_warm_locked(*b, pages);
      all.push_back(std::move(b));
    }
    for (auto& b : retiring_) all.push_back(std::move(b));
    retiring_.clear();
    if (busy_locked() > 0 ||
        std::any_of(all.begin(), all.end(), [](const Instance& b) { return b->busy > 0; }))
      log::warn("pool") << "grace period over: leases still out fail now";
  }
  pages.clear();
  // All at once: shutdown takes one grace period, not one per browser.
  std::vector<std::thread> stoppers;
  for (auto& b : all) stoppers.emplace_back([&b, grace = options.close_grace] { b->stop(grace); });
  for (auto& t : stoppers) t.join();
  log::info("pool") << "stopped " << all.size() << " Chromium processes";
}

// ---- Lease and Pool --------------------------------------------------------------------------

Lease::Lease(std::shared_ptr<PoolCore> core, std::shared_ptr<BrowserInstance> browser,
             std::unique_ptr<Page> page, bool warm)
    : core_(std::move(core)), browser_(std::move(browser)), page_(std::move(page)), warm_(warm) {}

Lease::Lease(Lease&& other) noexcept = default;

Lease& Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    release();
    core_ = std::move(other.core_);
    browser_ = std::move(other.browser_);
    page_ = std::move(other.page_);
    warm_ = other.warm_;
  }
  return *this;
}

Lease::~Lease() {
  release();
}

pid_t Lease::browser_pid() const {
  return browser_ ? browser_->pid() : 0;
}

void Lease::reconfigure(const ContextOptions& options, Deadline deadline) {
  browser_->configure_page(*page_, core_->effective(options), deadline);
}

bool Lease::lost() const {
  return !core_ || core_->lost(*browser_);
}

void Lease::release() {
  if (!core_) return;
  core_->release(browser_, std::move(page_));
  browser_.reset();
  core_.reset();
}

Pool::Pool(PoolOptions options) : core_(std::make_shared<PoolCore>(std::move(options))) {
  remove_stale_profiles();
  log::info("pool") << "starting " << core_->options.processes << " Chromium processes, "
                    << core_->options.pages_per_process << " pages each"
                    << (core_->replay ? ", replaying " + core_->options.replay_dir : "");
  supervisor_ = std::thread([core = core_] { core->supervise(); });
}

Pool::~Pool() {
  shutdown(Millis(0));
}

Lease Pool::lease(const ContextOptions& options, Deadline deadline) {
  std::shared_ptr<PoolCore> core = core_;  // a lease() woken by shutdown returns safely
  return core->lease(options, deadline);
}

bool Pool::wait_ready(Deadline deadline) const {
  return core_->wait_ready(deadline);
}

PoolState Pool::state() const {
  return core_->state();
}

void Pool::shutdown(Millis grace) {
  core_->begin_shutdown(grace);
  std::lock_guard lock(join_mutex_);
  if (supervisor_.joinable()) supervisor_.join();
}

std::shared_ptr<ReplayArchive> Pool::replay() const {
  return core_->replay;
}

const PoolOptions& Pool::options() const {
  return core_->options;
}

}  // namespace gleaner::browser
