#include "tests/support/chromium.h"

#include "core/config.h"

#include <memory>
#include <mutex>

namespace gleaner::testing {
namespace {

std::mutex pool_mutex;  // guards pool
std::unique_ptr<browser::Pool> pool;

}  // namespace

browser::PoolOptions test_pool_options() {
  const Config config = Config::from_environment();
  browser::PoolOptions options = browser::PoolOptions::from_config(config);
  if (!config.has("browser_processes")) options.processes = 2;
  if (!config.has("pages_per_process")) options.pages_per_process = 4;
  if (!config.has("lease_wait_ms")) options.lease_wait = kMaxWait;
  options.extra_flags.insert(options.extra_flags.begin(), kLoopbackOnlyFlag);
  return options;
}

browser::Pool& shared_pool() {
  std::lock_guard lock(pool_mutex);
  if (!pool) pool = std::make_unique<browser::Pool>(test_pool_options());
  return *pool;
}

void stop_shared_pool() {
  std::unique_ptr<browser::Pool> stopping;
  {
    std::lock_guard lock(pool_mutex);
    stopping = std::move(pool);
  }
  stopping.reset();
}

}  // namespace gleaner::testing
