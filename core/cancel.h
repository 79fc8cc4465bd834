#pragma once
// Cooperative cancellation of work that its caller stopped waiting for. A page job's call to its
// page source runs on a lane thread (jobs/source_lane.h) that the page-job thread can leave
// (DELETE of the job, SIGTERM); leaving it marks the lane's CancelFlag, and the long steps of that
// work that can stop early look at it through cancel_requested() on their own thread: a libcurl
// transfer (extract/plain/http_client.cpp) ends at its next progress call, within about a second,
// rather than at the page's deadline (up to 300 s), so the service stops and the job's connection
// closes in bounded time. Work outside any CancelScope is never cancelled.
#include <atomic>

namespace gleaner {

/// Set once by whoever stopped waiting; read by the work.
class CancelFlag {
 public:
  void cancel() { set_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return set_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> set_{false};
};

/// While it lives, `flag` is the calling thread's: cancel_requested() on this thread reads it.
/// `flag` must outlive the scope. Scopes nest; the innermost counts.
class CancelScope {
 public:
  explicit CancelScope(const CancelFlag& flag);
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  const CancelFlag* outer_;
};

/// True when the calling thread's work was cancelled (its CancelScope's flag is set).
bool cancel_requested();

}  // namespace gleaner
