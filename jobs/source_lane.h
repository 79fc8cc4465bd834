#pragma once
// A thread that makes one page-job thread's calls to its PageSource, so that the page-job thread
// can leave a call that takes too long to wait for (DELETE of its job, the worker stopping)
// without waiting for the page's own deadline: the call goes on alone on the lane, its result is
// dropped, and the page-job thread takes a fresh lane. A page cannot be cut short from outside
// (a browser navigation, a libcurl transfer), but it can be abandoned; the lane ends once the
// call returns, bounded by the call's deadline (docs/jobs.md "Stopping a page job").
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

#include "core/clock.h"

namespace gleaner::jobs {

class SourceLane {
 public:
  SourceLane();
  /// Lets the call in progress (if any) finish, then joins the thread.
  ~SourceLane();
  SourceLane(const SourceLane&) = delete;
  SourceLane& operator=(const SourceLane&) = delete;

  /// Runs `work` on the lane and waits for it, asking `abandon` every `check` meanwhile. True
  /// when the work finished (what it threw is rethrown here); false when `abandon` said so first:
  /// the work goes on alone and this lane takes no more work.
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
  // Declared last: runs loop() until the destructor joins it.
  std::thread thread_;
};

}  // namespace gleaner::jobs
