#pragma once
// Time behind a seam: wall-clock time for billing periods and expiries comes from a Clock, so
// tests can move it. Deadlines of in-flight work use the monotonic clock directly.
#include <atomic>
#include <chrono>

namespace gleaner {

using SteadyClock = std::chrono::steady_clock;
/// The moment by which a piece of work must be done. Passed down, never a global timeout.
using Deadline = SteadyClock::time_point;
using Millis = std::chrono::milliseconds;

inline Deadline deadline_in(Millis budget) { return SteadyClock::now() + budget; }
/// Time left until `deadline` (zero when it has passed).
inline Millis time_left(Deadline deadline) {
  auto left = std::chrono::duration_cast<Millis>(deadline - SteadyClock::now());
  return left.count() > 0 ? left : Millis(0);
}

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point now() const = 0;
};

class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point now() const override {
    return std::chrono::system_clock::now();
  }
  /// The process-wide instance.
  static const SystemClock& instance();
};

/// A clock that only moves when told to.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(std::chrono::system_clock::time_point start) : now_(start.time_since_epoch()) {}
  std::chrono::system_clock::time_point now() const override {
    return std::chrono::system_clock::time_point(now_.load());
  }
  void advance(std::chrono::system_clock::duration d) { now_ = now_.load() + d; }
  void set(std::chrono::system_clock::time_point t) { now_ = t.time_since_epoch(); }

 private:
  std::atomic<std::chrono::system_clock::duration> now_;
};

}  // namespace gleaner
