#include "jobs/polling_threads.h"

#include "core/error.h"
#include "core/log.h"

namespace gleaner::jobs {

PollingThreads::PollingThreads(std::string component, Millis poll)
    : component_(std::move(component)), poll_(poll) {}

PollingThreads::~PollingThreads() {
  stop();
}

void PollingThreads::start(int count, std::function<bool()> step) {
  std::lock_guard lock(mutex_);
  if (!threads_.empty() || stopping_) return;
  step_ = std::move(step);
  for (int i = 0; i < count; ++i) threads_.emplace_back([this] { loop(); });
}

void PollingThreads::notify() {
  {
    std::lock_guard lock(mutex_);
    ++wakes_;
  }
  wake_.notify_all();
}

void PollingThreads::request_stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
}

void PollingThreads::stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (std::thread& t : threads) {
    if (t.joinable()) t.join();
  }
}

bool PollingThreads::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

bool PollingThreads::sleep_unless_stopped(Millis pause) {
  std::unique_lock lock(mutex_);
  return wake_.wait_for(lock, pause, [&] { return stopping_; });
}

void PollingThreads::loop() {
  while (!stopping()) {
    std::uint64_t seen = 0;
    {
      std::lock_guard lock(mutex_);
      seen = wakes_;  // before the step: a notify() during it means look again at once
    }
    bool worked = false;
    try {
      worked = step_();
    } catch (const std::exception& e) {
      // E.g. the store busy or unreachable: the work stays where it is and is tried again.
      log::warn(component_) << describe(e);
    }
    if (worked) continue;
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, poll_, [&] { return stopping_ || wakes_ != seen; });
  }
}

}  // namespace gleaner::jobs
