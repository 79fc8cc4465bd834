#include "jobs/sitemap.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "extract/sites/common/text.h"
#include "jobs/crawl_url.h"

namespace gleaner::jobs {

std::string gunzip_at_most(std::string bytes, std::size_t max_bytes, bool& truncated) {
  truncated = false;
  if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != 0x1f ||
      static_cast<unsigned char>(bytes[1]) != 0x8b) {
    return bytes;
  }
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) return {};
  stream.next_in = reinterpret_cast<Bytef*>(bytes.data());
  stream.avail_in = static_cast<uInt>(std::min<std::size_t>(bytes.size(), UINT32_MAX));
  std::string out;
  char chunk[64 * 1024];
  for (;;) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    const int rc = inflate(&stream, Z_NO_FLUSH);
    const std::size_t got = sizeof chunk - stream.avail_out;
    if (out.size() + got > max_bytes) {
      out.append(chunk, max_bytes - out.size());
      truncated = true;
      break;
    }
    out.append(chunk, got);
    if (rc != Z_OK || (got == 0 && stream.avail_in == 0)) break;  // the end, or a fault
  }
  inflateEnd(&stream);
  return out;
}

Sitemap parse_sitemap(std::string_view xml) {
  Sitemap map;
  map.index = xml.find("<sitemapindex") != std::string_view::npos;
  if (!map.index && xml.find("<urlset") == std::string_view::npos) return map;
  static constexpr std::string_view kOpen = "<loc>";
  static constexpr std::string_view kClose = "</loc>";
  for (auto at = xml.find(kOpen);
       at != std::string_view::npos && map.locations.size() < kMaxSitemapUrls;
       at = xml.find(kOpen, at)) {
    at += kOpen.size();
    const auto end = xml.find(kClose, at);
    if (end == std::string_view::npos) break;
    std::string_view value = trim_ascii(xml.substr(at, end - at));
    if (value.substr(0, 9) == "<![CDATA[" && value.size() >= 12 &&
        value.substr(value.size() - 3) == "]]>") {
      const std::string_view inner = trim_ascii(value.substr(9, value.size() - 12));
      if (!inner.empty()) map.locations.emplace_back(inner);
    } else if (!value.empty()) {
      map.locations.push_back(extract::decode_basic_entities(value));
    }
    at = end + kClose.size();
  }
  return map;
}

}  // namespace gleaner::jobs
