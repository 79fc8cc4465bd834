#pragma once
// Tabs from browser::Pool: what Endpoint::run() uses in production. A BrowserProfile becomes the
// lease's ContextOptions (user agent, viewport, headers) and a WaitFor the navigation's WaitSpec.
// Tests (and later proxies) add interceptors for every lease, e.g. a replay archive.
#include <memory>
#include <vector>

#include "browser/pool.h"
#include "extract/tab.h"

namespace gleaner::extract {

class PoolTabs final : public TabSource {
 public:
  /// `interceptors` are added to every lease's ContextOptions, after the pool's own.
  explicit PoolTabs(browser::Pool& pool,
                    std::vector<std::shared_ptr<browser::Interceptor>> interceptors = {})
      : pool_(pool), interceptors_(std::move(interceptors)) {}

  /// Leases a page whose context looks like `profile`. Throws what Pool::lease() throws.
  std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline deadline) override;

  /// The lease options for `profile` (exposed for tests).
  static browser::ContextOptions context_options(const BrowserProfile& profile);
  /// The navigation readiness for `wait` (exposed for tests).
  static browser::WaitSpec wait_spec(const WaitFor& wait);

 private:
  browser::Pool& pool_;
  std::vector<std::shared_ptr<browser::Interceptor>> interceptors_;
};

}  // namespace gleaner::extract
