#pragma once
// A thread that makes one page-job thread's calls to its PageSource, so that the page-job thread
// can leave a call that takes too long to wait for (DELETE of its job, the worker stopping)
// without waiting for the page's own deadline: the call's result is dropped, and the page-job
// thread takes a fresh lane. Leaving the call cancels it (core/cancel.h): a plain-road transfer
// stops within about a second; what cannot be cut short (a browser navigation, a parse) goes on
// alone, bounded by the call's deadline or its own limits, and the lane ends once it returns
// (docs/jobs.md "Stopping a page job").
//
// The lane keeps one thread for all its calls, so a source that keeps state per thread (the tab
// a crawl's pages share, jobs/web_page_source.h) sees the same thread from page to page.
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "core/cancel.h"
#include "core/clock.h"

namespace gleaner::jobs {

class SourceLane {
 public:
  SourceLane();
  /// Cancels the call in progress (if any), lets it finish, then joins the thread.
  ~SourceLane();
  SourceLane(const SourceLane&) = delete;
  SourceLane& operator=(const SourceLane&) = delete;

  /// Runs `work` on the lane and waits for it, asking `abandon` every `check` meanwhile. True
  /// when the work finished (what it threw is rethrown here); false when `abandon` said so first:
  /// the work is cancelled (cancel_requested() is true on the lane from then on), goes on alone
  /// until it stops, and this lane takes no more pages.
  bool run(const std::function<void()>& work, Millis check, const std::function<bool()>& abandon);
  /// True when no work is running (an abandoned lane whose call returned can be let go).
  bool idle() const;

 private:
  void loop();

  mutable std::mutex mutex_;  // guards the fields below
  std::condition_variable changed_;
  std::function<void()> work_;  ///< the work to run (set by run(), cleared when done)
  bool busy_ = false;
  bool done_ = false;
  bool closing_ = false;
  std::exception_ptr error_;
  /// Set once the lane's call is left; read by the work on the lane's thread.
  CancelFlag cancel_;
  // Declared last: runs loop() until the destructor joins it.
  std::thread thread_;
};

}  // namespace gleaner::jobs
