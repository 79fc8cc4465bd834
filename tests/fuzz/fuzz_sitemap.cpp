// Sitemaps as a crawl reads them from any site (jobs/sitemap.h): any text parses, and never to
// more locations than the protocol's cap.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "jobs/sitemap.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  const gleaner::jobs::Sitemap map = gleaner::jobs::parse_sitemap(xml);
  if (map.locations.size() > gleaner::jobs::kMaxSitemapUrls) __builtin_trap();
  for (const auto& loc : map.locations) {
    if (loc.empty() || loc.size() > xml.size()) __builtin_trap();
  }
  return 0;
}
