#include "jobs/polling_threads.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "core/log.h"

namespace gleaner::jobs {

int jobs_nice(const Config& config) {
  const long long nice = config.get_int("jobs_nice", 10);
  if (nice < 0 || nice > 19) Config::refuse("jobs_nice", "must be from 0 to 19");
  return static_cast<int>(nice);
}

PollingThreads::PollingThreads(std::string component, Millis poll)
    : component_(std::move(component)), poll_(poll) {}

PollingThreads::~PollingThreads() {
  stop();
}

void PollingThreads::start(int count, std::function<bool()> step, int nice) {
  std::lock_guard lock(mutex_);
  if (!threads_.empty() || stopping_) return;
  step_ = std::move(step);
  nice_ = nice;
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
  // On Linux a nice value is each thread's own; an unprivileged thread may lower its priority
  // but never raise it again, which is why it is set here, on threads that only ever do this.
  // Relative to the process's: a service started niced keeps its jobs below its requests.
  if (nice_ > 0) {
    const auto self = static_cast<id_t>(::gettid());
    const int nice = std::min(19, ::getpriority(PRIO_PROCESS, self) + nice_);
    if (::setpriority(PRIO_PROCESS, self, nice) != 0) {
      log::warn(component_) << "could not lower the threads' CPU priority to nice " << nice << ": "
                            << std::strerror(errno);
    }
  }
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
