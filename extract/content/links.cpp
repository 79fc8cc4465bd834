#include "extract/content/links.h"

#include "extract/content/chars.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_set>

namespace gleaner::content {
namespace {

/// The URL's scheme in lower case, or empty when it has none (RFC 3986: ALPHA *( ALPHA / DIGIT /
/// "+" / "-" / "." ) ":").
std::string scheme_of(std::string_view url) {
  std::size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0 || !chars::is_alpha(url[0])) return {};
  for (std::size_t i = 1; i < colon; ++i) {
    char c = url[i];
    if (!chars::is_alnum(c) && c != '+' && c != '-' && c != '.') return {};
  }
  return chars::lower(url.substr(0, colon));
}

bool is_dropped_scheme(const std::string& scheme) {
  static constexpr std::array<std::string_view, 9> kDropped = {
      "javascript", "vbscript", "mailto", "tel", "sms", "data", "blob", "about", "file"};
  return std::find(kDropped.begin(), kDropped.end(), scheme) != kDropped.end();
}

}  // namespace

std::vector<std::string> extract_links(const nlohmann::json& links) {
  std::vector<std::string> out;
  if (!links.is_array()) return out;
  std::unordered_set<std::string> seen;
  for (const auto& entry : links) {
    if (!entry.is_string()) continue;
    std::string_view url = chars::trim(entry.get_ref<const std::string&>());
    std::string scheme = scheme_of(url);
    if (scheme.empty() || is_dropped_scheme(scheme)) continue;
    std::size_t hash = url.find('#');
    if (hash != std::string_view::npos) {
      std::string_view fragment = url.substr(hash + 1);
      bool route = !fragment.empty() && (fragment[0] == '/' || fragment[0] == '!');
      if (!route) url = url.substr(0, hash);
    }
    std::string link(url);
    if (seen.insert(link).second) out.push_back(std::move(link));
  }
  return out;
}

}  // namespace gleaner::content
