#pragma once
// A one-shot gate: threads wait() until the test open()s it, at most kMaxWait. Lets a test hold a
// server answer or an interceptor decision exactly as long as it needs, without sleeping.
#include "tests/support/chromium.h"

#include <condition_variable>
#include <mutex>

namespace gleaner::testing {

class Gate {
 public:
  /// Blocks until open() (or kMaxWait). Records that somebody arrived.
  void wait() {
    std::unique_lock lock(mutex_);
    arrived_ = true;
    cv_.notify_all();
    cv_.wait_for(lock, kMaxWait, [&] { return open_; });
  }
  /// Blocks until a thread is waiting at the gate (or kMaxWait). True if one arrived.
  bool wait_arrival() {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, kMaxWait, [&] { return arrived_; });
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;  // guards arrived_, open_
  std::condition_variable cv_;
  bool arrived_ = false;
  bool open_ = false;
};

}  // namespace gleaner::testing
