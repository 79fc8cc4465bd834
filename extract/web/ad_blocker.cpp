#include "extract/web/ad_blocker.h"

#include "gleaner_web_embedded.h"

#include <algorithm>
#include <cctype>

namespace gleaner::web {

std::string url_host(std::string_view url) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return {};
  std::string_view rest = url.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') return {};  // IPv6 literals are never ad hosts
  rest = rest.substr(0, rest.find(':'));
  std::string host(rest);
  std::transform(host.begin(), host.end(), host.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  while (!host.empty() && host.back() == '.') host.pop_back();
  return host;
}

AdBlocker::AdBlocker() : AdBlocker(scripts::ad_hosts_txt) {}

AdBlocker::AdBlocker(std::string_view list) {
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find('\n', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view line = list.substr(start, end - start);
    start = end + 1;
    line = line.substr(0, line.find('#'));
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
    if (!line.empty()) hosts_.emplace(line);
  }
}

bool AdBlocker::blocks_host(std::string_view host) const {
  // The host itself, then each parent domain: ads.example.co.uk, example.co.uk, co.uk.
  while (!host.empty()) {
    if (hosts_.count(std::string(host)) != 0) return true;
    auto dot = host.find('.');
    if (dot == std::string_view::npos) return false;
    host.remove_prefix(dot + 1);
  }
  return false;
}

std::optional<browser::Decision> AdBlocker::decide(const browser::InterceptedRequest& request) {
  if (request.is_main_frame) return std::nullopt;  // the page asked for is never an "ad"
  if (blocks_host(url_host(request.url))) return browser::Fail{"BlockedByClient"};
  return std::nullopt;
}

}  // namespace gleaner::web
