#pragma once
// Background threads that each call one step again and again until stopped: the job worker's
// and the webhook outbox's. A step that found nothing to do waits for the poll interval or for
// notify(), whichever comes first, so new work starts at once and idle threads cost nothing.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/config.h"

namespace gleaner::jobs {

/// The pause after failed attempt `attempt` (1-based) of work retried with growing pauses: `first`,
/// then four times longer each time (a job's search, a webhook delivery).
template <class Duration>
Duration growing_pause(Duration first, std::int64_t attempt) {
  for (std::int64_t i = 1; i < attempt; ++i) first *= 4;
  return first;
}

/// Entry `jobs_nice` (default 10, 0 to 19; 0: as requests): how much lower than the service's the
/// CPU priority of the threads that run jobs (scraper jobs, batches and crawls) and of what they
/// start, so that a node's jobs do not slow its requests down when the cores are busy
/// (docs/jobs.md "CPU priority").
int jobs_nice(const Config& config);

class PollingThreads {
 public:
  /// `component` names the log lines of failed steps.
  PollingThreads(std::string component, Millis poll);
  /// stop().
  ~PollingThreads();
  PollingThreads(const PollingThreads&) = delete;
  PollingThreads& operator=(const PollingThreads&) = delete;

  /// Starts `count` threads calling `step` (true: it did some work, call again at once). An
  /// exception from a step is logged and the thread waits a poll interval before trying again.
  /// With `nice` above 0 the threads run that much lower in CPU priority (setpriority on each thread;
  /// the threads they start inherit it), so that background work gives way to requests when the
  /// cores are busy and takes them all when they are not. Once only; later calls do nothing.
  void start(int count, std::function<bool()> step, int nice = 0);
  /// Wakes the waiting threads.
  void notify();
  /// Asks the threads to stop after their current step, without waiting for them.
  void request_stop();
  /// Stops and joins the threads; a step in progress finishes first. Idempotent.
  void stop();
  /// True once stop() was called.
  bool stopping() const;
  /// Waits `pause`, or less when stop() is called meanwhile; true when stopping.
  bool sleep_unless_stopped(Millis pause);

 private:
  void loop();

  const std::string component_;
  const Millis poll_;
  std::function<bool()> step_;  ///< set by start() before any thread runs
  int nice_ = 0;                ///< set by start() before any thread runs
  mutable std::mutex mutex_;    // guards stopping_, wakes_, threads_
  std::condition_variable wake_;
  bool stopping_ = false;
  /// Counts notify() calls: each waiting thread wakes when it changed since its last step (a
  /// flag was reset by the first thread to wake, so one notify woke one thread).
  std::uint64_t wakes_ = 0;
  // Declared last: run loop() until stop() joins them.
  std::vector<std::thread> threads_;
};

}  // namespace gleaner::jobs
