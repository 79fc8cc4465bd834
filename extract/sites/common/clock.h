#pragma once
// The wall clock site endpoints read: dates that must lie in the future (check-in dates), and
// relative dates on pages ("3 days ago"). The system clock, unless a test sets another: validation
// and shaping take no clock argument, so the seam is here, in one place.
#include "core/clock.h"

namespace gleaner::extract {

/// The clock site endpoints use now.
const Clock& site_clock();

/// Tests: `clock` is the site clock while this object lives (not thread-safe against endpoints
/// running at the same time; tests set it before they run any).
class ScopedSiteClock {
 public:
  explicit ScopedSiteClock(const Clock& clock);
  ~ScopedSiteClock();
  ScopedSiteClock(const ScopedSiteClock&) = delete;
  ScopedSiteClock& operator=(const ScopedSiteClock&) = delete;

 private:
  const Clock* previous_;
};

}  // namespace gleaner::extract
