#include "extract/sites/common/clock.h"

#include <atomic>

namespace gleaner::extract {
namespace {

std::atomic<const Clock*> current{nullptr};

}  // namespace

const Clock& site_clock() {
  const Clock* c = current.load();
  return c ? *c : SystemClock::instance();
}

ScopedSiteClock::ScopedSiteClock(const Clock& clock) : previous_(current.exchange(&clock)) {}

ScopedSiteClock::~ScopedSiteClock() {
  current.store(previous_);
}

}  // namespace gleaner::extract
