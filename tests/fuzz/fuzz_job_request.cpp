// POST /scrapers/maps/jobs's body. The URL check stands in for the address guard (tested on its
// own in tests/proxies).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "jobs/job_request.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  try {
    auto request = gleaner::jobs::JobRequest::parse(body, [](const std::string&, const std::string&) {});
    // What is stored must read back as the same request.
    const auto stored = request.to_json();
    if (gleaner::jobs::JobRequest::from_json(stored).to_json() != stored) __builtin_trap();
  } catch (const gleaner::Error&) {
  }
  return 0;
}
