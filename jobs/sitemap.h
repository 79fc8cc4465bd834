#pragma once
// Sitemaps (sitemaps.org): a <urlset> lists pages, a <sitemapindex> lists further sitemaps. Read
// by their <loc> elements only; gzip sitemaps arrive here already decompressed (the fetch does it).
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::jobs {

struct Sitemap {
  /// True for a <sitemapindex>: `locations` are sitemaps, not pages.
  bool index = false;
  /// The <loc> values in document order, entities decoded and surrounding spaces trimmed.
  std::vector<std::string> locations;
};

/// Reads a sitemap's XML. Text that is neither a urlset nor an index (an HTML error page) gives
/// no locations.
Sitemap parse_sitemap(std::string_view xml);

}  // namespace gleaner::jobs
