// The site kit's readers of what pages write: numbers, money, durations and dates in any
// language. Page text is untrusted; a reader answers or says nullopt.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/sites/common/text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gleaner::extract;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'000'000));
  for (DecimalMark mark : {DecimalMark::Unknown, DecimalMark::Dot, DecimalMark::Comma}) {
    (void)parse_number(text, mark);
    (void)parse_numbers(text, mark);
    (void)parse_count(text, mark);
    (void)parse_money(text, mark, "EUR");
  }
  (void)parse_duration_seconds(text);
  for (DateOrder order : {DateOrder::Unknown, DateOrder::MonthFirst, DateOrder::DayFirst}) {
    (void)parse_date(text, now, order);
  }
  return 0;
}
