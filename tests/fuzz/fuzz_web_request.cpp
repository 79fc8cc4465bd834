// POST /scrape/web's body: any bytes a caller sends. A refusal is a gleaner::Error (a 400); any
// other exception, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.h"
#include "extract/web/request.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  try {
    gleaner::web::parse_web_request(body, gleaner::Millis(30'000));
  } catch (const gleaner::Error&) {
  }
  return 0;
}
