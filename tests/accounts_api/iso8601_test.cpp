// core/time_text.h iso8601_utc(), the one way the API writes a time (GET /account's period).
#include "core/time_text.h"

#include <gtest/gtest.h>

using namespace gleaner;

TEST(Iso8601Utc, WholeSecondsInUtc) {
  using namespace std::chrono;
  EXPECT_EQ(iso8601_utc(system_clock::time_point(seconds(0))), "1970-01-01T00:00:00Z");
  EXPECT_EQ(iso8601_utc(system_clock::time_point(seconds(1795659351))), "2026-11-26T02:15:51Z");
  // Fractions are dropped, not rounded up.
  EXPECT_EQ(iso8601_utc(system_clock::time_point(seconds(59) + milliseconds(999))),
            "1970-01-01T00:00:59Z");
}
