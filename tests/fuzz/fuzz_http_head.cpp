// The egress gateway's HTTP heads: request heads come from Chromium (and through it from any
// page), response heads from any site or upstream proxy. Both readers must refuse, not crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "proxies/http_head.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view head(reinterpret_cast<const char*>(data), size);
  if (auto request = gleaner::proxies::parse_request_head(head)) {
    request->fields.remove_hop_by_hop();
    (void)request->serialize();
  }
  if (auto response = gleaner::proxies::parse_response_head(head)) (void)response->serialize();
  (void)gleaner::proxies::parse_basic_credentials(head);
  return 0;
}
