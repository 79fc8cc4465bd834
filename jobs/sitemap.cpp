#include "jobs/sitemap.h"

#include <cctype>

#include "jobs/crawl_url.h"

namespace gleaner::jobs {
namespace {

std::string decode_entities(std::string_view s) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool replaced = false;
    if (s[i] == '&') {
      for (const auto& [name, c] : kEntities) {
        if (s.substr(i, name.size()) == name) {
          out += c;
          i += name.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

}  // namespace

Sitemap parse_sitemap(std::string_view xml) {
  Sitemap map;
  map.index = xml.find("<sitemapindex") != std::string_view::npos;
  if (!map.index && xml.find("<urlset") == std::string_view::npos) return map;
  static constexpr std::string_view kOpen = "<loc>";
  static constexpr std::string_view kClose = "</loc>";
  for (auto at = xml.find(kOpen); at != std::string_view::npos; at = xml.find(kOpen, at)) {
    at += kOpen.size();
    const auto end = xml.find(kClose, at);
    if (end == std::string_view::npos) break;
    std::string_view value = trim_ascii(xml.substr(at, end - at));
    if (value.substr(0, 9) == "<![CDATA[" && value.size() >= 12 &&
        value.substr(value.size() - 3) == "]]>") {
      map.locations.emplace_back(trim_ascii(value.substr(9, value.size() - 12)));
    } else if (!value.empty()) {
      map.locations.push_back(decode_entities(value));
    }
    at = end + kClose.size();
  }
  return map;
}

}  // namespace gleaner::jobs
