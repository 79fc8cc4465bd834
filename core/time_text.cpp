#include "core/time_text.h"

#include <ctime>
#include <iomanip>
#include <sstream>

namespace gleaner {

std::string iso8601_utc(std::chrono::system_clock::time_point t) {
  const std::time_t seconds =
      std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(t));
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::ostringstream out;
  out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

}  // namespace gleaner
