#include "core/clock.h"

namespace gleaner {

const SystemClock& SystemClock::instance() {
  static const SystemClock clock;
  return clock;
}

}  // namespace gleaner
