#include "jobs/source_lane.h"

namespace gleaner::jobs {

SourceLane::SourceLane() : thread_([this] { loop(); }) {}

SourceLane::~SourceLane() {
  // Whatever still runs here is no one's any more (the worker stops): it ends at its next check.
  cancel_.cancel();
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

bool SourceLane::run(const std::function<void()>& work, Millis check,
                     const std::function<bool()>& abandon) {
  std::unique_lock lock(mutex_);
  work_ = work;
  busy_ = true;
  done_ = false;
  error_ = nullptr;
  changed_.notify_all();
  while (!changed_.wait_for(lock, check, [&] { return done_; })) {
    lock.unlock();
    const bool leave = abandon();  // may read the store: not under the lock
    lock.lock();
    if (leave && !done_) {
      cancel_.cancel();  // the work stops where it can (core/cancel.h), its result unread
      return false;
    }
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return true;
}

bool SourceLane::idle() const {
  std::lock_guard lock(mutex_);
  return !busy_;
}

void SourceLane::loop() {
  const CancelScope scope(cancel_);  // every call this lane makes
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return closing_ || (busy_ && !done_); });
    if (busy_ && !done_) {
      const std::function<void()> work = work_;
      lock.unlock();
      std::exception_ptr error;
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      error_ = error;
      done_ = true;
      busy_ = false;
      work_ = nullptr;
      changed_.notify_all();
      continue;
    }
    if (closing_) return;
  }
}

}  // namespace gleaner::jobs
