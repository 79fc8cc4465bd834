#pragma once
// Sitemaps (sitemaps.org): a <urlset> lists pages, a <sitemapindex> lists further sitemaps. Read
// by their <loc> elements only; gzip sitemaps arrive here already decompressed (the fetch does it).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::jobs {

/// What sitemaps.org allows one sitemap: 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed.
/// A crawl reads no more of a file than that (a gzip file is decompressed up to the byte cap).
inline constexpr std::size_t kMaxSitemapUrls = 50'000;
inline constexpr std::size_t kMaxSitemapBytes = 52'428'800;

struct Sitemap {
  /// True for a <sitemapindex>: `locations` are sitemaps, not pages.
  bool index = false;
  /// The <loc> values in document order, entities decoded and surrounding spaces trimmed.
  std::vector<std::string> locations;
};

/// `bytes` when they are not gzip (no gzip magic); else their gzip stream decompressed, its first
/// `max_bytes` and no more (`truncated` set when there was more): a gzip bomb costs that much.
/// A stream that breaks off or is corrupt gives what decompressed before the fault.
std::string gunzip_at_most(std::string bytes, std::size_t max_bytes, bool& truncated);

/// Reads a sitemap's XML. Text that is neither a urlset nor an index (an HTML error page) gives
/// no locations; the locations past the first kMaxSitemapUrls are left out.
Sitemap parse_sitemap(std::string_view xml);

}  // namespace gleaner::jobs
