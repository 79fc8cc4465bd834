#include "api/admission.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/error.h"

namespace gleaner::api {
namespace {

long long entry_at_least(const Config& config, const std::string& entry, long long fallback,
                         long long minimum) {
  const long long value = config.get_int(entry, fallback);
  if (value < minimum) Config::refuse(entry, "must be at least " + std::to_string(minimum));
  return value;
}

}  // namespace

AdmissionOptions AdmissionOptions::from_config(const Config& config, int pool_pages) {
  AdmissionOptions o;
  o.account_limit =
      static_cast<int>(entry_at_least(config, "account_concurrency", o.account_limit, 1));
  o.max_running =
      static_cast<int>(entry_at_least(config, "max_running_requests", std::max(pool_pages, 1), 1));
  o.queue_size = static_cast<int>(entry_at_least(config, "queue_size", o.queue_size, 0));
  o.queue_wait = Millis(entry_at_least(config, "queue_wait_ms", o.queue_wait.count(), 0));
  o.retry_after =
      std::chrono::seconds(entry_at_least(config, "retry_after_seconds", o.retry_after.count(), 1));
  return o;
}

Admission::Admission(AdmissionOptions options) : options_(options) {}

Admission::Ticket::Ticket(Ticket&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), account_id_(other.account_id_) {}

Admission::Ticket::~Ticket() {
  if (owner_) owner_->leave(account_id_);
}

Admission::Ticket Admission::admit(std::int64_t account_id,
                                   std::optional<std::int64_t> account_limit, Deadline deadline) {
  const std::int64_t limit = account_limit.value_or(options_.account_limit);
  std::unique_lock lock(mutex_);
  auto refuse = [&](std::uint64_t& counter, const std::string& why) {
    ++counter;
    return Error(ErrorCode::TooManyRequests, why).with_retry_after(options_.retry_after);
  };

  int& mine = per_account_[account_id];
  if (mine >= limit) {
    if (mine == 0) per_account_.erase(account_id);
    throw refuse(counters_.refused_account_limit, "this account already has " +
                                                      std::to_string(limit) +
                                                      " requests running, its concurrency limit");
  }
  // Straight in when a slot is free and nobody waits ahead; else queue, if there is room.
  if (queue_.empty() && running_ < options_.max_running) {
    ++mine;
    ++running_;
    return Ticket(this, account_id);
  }
  if (static_cast<int>(queue_.size()) >= options_.queue_size) {
    if (mine == 0) per_account_.erase(account_id);
    throw refuse(counters_.refused_queue_full, "the service is busy: the request queue is full");
  }
  ++mine;  // queued requests count against the account's limit too
  const std::uint64_t me = next_waiter_++;
  queue_.push_back(me);

  const Deadline queue_end = SteadyClock::now() + options_.queue_wait;
  const Deadline wait_end = std::min(deadline, queue_end);
  const bool my_turn = turn_.wait_until(
      lock, wait_end, [&] { return queue_.front() == me && running_ < options_.max_running; });
  if (my_turn) {
    queue_.pop_front();
    ++running_;
    // The next in line may also fit (several slots can free at once).
    turn_.notify_all();
    return Ticket(this, account_id);
  }
  // Gave up: leave the queue (from wherever we are in it) and let the others move up.
  queue_.erase(std::find(queue_.begin(), queue_.end(), me));
  int& still_mine = per_account_[account_id];
  if (--still_mine <= 0) per_account_.erase(account_id);
  turn_.notify_all();
  if (wait_end == deadline && deadline <= queue_end) {
    ++counters_.queue_timeouts;
    throw Error(ErrorCode::Timeout,
                "the request's time budget ran out while it waited for a browser");
  }
  throw refuse(counters_.refused_queue_wait,
               "the service is busy: no browser became free within the queue wait");
}

void Admission::leave(std::int64_t account_id) {
  {
    std::lock_guard lock(mutex_);
    --running_;
    auto it = per_account_.find(account_id);
    if (it != per_account_.end() && --it->second <= 0) per_account_.erase(it);
  }
  turn_.notify_all();
}

AdmissionState Admission::state() const {
  std::lock_guard lock(mutex_);
  AdmissionState s = counters_;
  s.running = running_;
  s.queued = static_cast<int>(queue_.size());
  return s;
}

}  // namespace gleaner::api
