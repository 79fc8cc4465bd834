#include "browser/executor.h"

#include <exception>

#include "core/error.h"
#include "core/log.h"

namespace gleaner::browser {

Executor::Executor(std::size_t threads) {
  for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { run(); });
}

Executor::~Executor() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    tasks_.clear();
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void Executor::post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  wake_.notify_one();
}

void Executor::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (stopping_) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    try {
      task();
    } catch (const std::exception& e) {
      log::error("browser") << "interception task failed: " << describe(e);
    }
  }
}

}  // namespace gleaner::browser
