// Every site endpoint's query: the input is read as a query string (`a=1&b[]=2`, no decoding, as
// the HTTP layer hands it over), validated by each registered endpoint, and a valid one is built
// into the request the endpoint would make. Refusals are gleaner::Error; nothing else may throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "extract/endpoint.h"
#include "extract/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gleaner::extract::QueryParams query;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('&', start);
    if (end == std::string::npos) end = text.size();
    const std::string pair = text.substr(start, end - start);
    const std::size_t eq = pair.find('=');
    if (!pair.empty()) {
      query.emplace(pair.substr(0, eq), eq == std::string::npos ? "" : pair.substr(eq + 1));
    }
    start = end + 1;
  }
  for (const gleaner::extract::Endpoint* endpoint : gleaner::extract::all_endpoints()) {
    try {
      (void)endpoint->build_request(endpoint->validate(query));
    } catch (const gleaner::Error&) {
    }
  }
  return 0;
}
