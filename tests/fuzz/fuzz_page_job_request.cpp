// The bodies of POST /scrape/batch/web and POST /scrapers/crawler/jobs: any bytes a caller sends,
// read as both. A refusal is a gleaner::Error (a 400); any other exception, a crash (a body nested
// 50,000 deep once was one) or a sanitizer report is a bug. What is accepted is stored, read back
// and turned into the /scrape/web request of its first page, as the worker does.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "jobs/page_job_request.h"

namespace {

using gleaner::jobs::PageJobRequest;

void accepted(const PageJobRequest& request) {
  // What is stored must read back as the same request.
  const nlohmann::json stored = request.to_json();
  if (PageJobRequest::from_json(request.kind, stored).to_json() != stored) __builtin_trap();
  if (request.urls.empty()) __builtin_trap();
  request.page_request(request.urls.front(), gleaner::Millis(30'000));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  // The URL check stands in for the address guard (tested on its own in tests/proxies).
  const auto no_check = [](const std::string&, const std::string&) {};
  try {
    accepted(PageJobRequest::parse_batch(body, gleaner::Millis(30'000), no_check));
  } catch (const gleaner::Error&) {
  }
  try {
    accepted(PageJobRequest::parse_crawler(body, gleaner::Millis(30'000), no_check));
  } catch (const gleaner::Error&) {
  }
  return 0;
}
