#pragma once
// A few worker threads that run request-interception decisions off the DevTools thread, so an
// interceptor that blocks briefly (a DNS lookup) never stalls the events of other pages.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gleaner::browser {

class Executor {
 public:
  explicit Executor(std::size_t threads);
  /// Stops the workers; tasks not yet started are dropped.
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  /// Queues `task`; returns at once. Dropped after the executor started stopping.
  void post(std::function<void()> task);

 private:
  void run();

  std::mutex mutex_;  // guards tasks_, stopping_
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  // Declared last: they run run() over the members above.
  std::vector<std::thread> workers_;
};

}  // namespace gleaner::browser
