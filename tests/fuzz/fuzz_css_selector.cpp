// `waitFor`: any string a caller sends is judged a selector or not, without a crash or an
// exception, and in time linear in its length (the reader never backtracks).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/web/css_selector.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gleaner::web::css_selector_error(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
