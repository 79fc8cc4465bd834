#include "jobs/crawl_url.h"

#include <algorithm>
#include <cctype>

namespace gleaner::jobs {
std::string lower_ascii(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim_ascii(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string CrawlUrl::origin() const {
  return scheme + "://" + host + (port.empty() ? "" : ":" + port);
}

std::string CrawlUrl::path_and_query() const {
  return query.empty() ? path : path + "?" + query;
}

std::string CrawlUrl::str() const {
  return origin() + path_and_query();
}

std::optional<CrawlUrl> parse_crawl_url(std::string_view url) {
  // Links come from the browser (resolved and serialised by it) or from callers whose URLs
  // passed parse_http_url: surrounding spaces are all the slack needed here.
  url = trim_ascii(url);
  const auto colon = url.find("://");
  if (colon == std::string_view::npos) return std::nullopt;
  CrawlUrl u;
  u.scheme = lower_ascii(url.substr(0, colon));
  if (u.scheme != "http" && u.scheme != "https") return std::nullopt;
  std::string_view rest = url.substr(colon + 3);
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  const auto authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  rest = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    authority = authority.substr(at + 1);  // credentials are no part of the page's identity
  }
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      port = authority.substr(close + 2);
    }
  } else if (const auto c = authority.rfind(':'); c != std::string_view::npos) {
    host = authority.substr(0, c);
    port = authority.substr(c + 1);
  }
  if (host.empty()) return std::nullopt;
  if (!std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return std::nullopt;
  }
  while (port.size() > 1 && port.front() == '0') port.remove_prefix(1);
  u.host = lower_ascii(host);
  if (!u.host.empty() && u.host.back() == '.') u.host.pop_back();  // "example.com." is the same
  u.port = std::string(port);
  if ((u.scheme == "http" && u.port == "80") || (u.scheme == "https" && u.port == "443")) {
    u.port.clear();
  }
  const auto q = rest.find('?');
  u.path = std::string(rest.substr(0, q));
  if (u.path.empty()) u.path = "/";
  if (q != std::string_view::npos) u.query = std::string(rest.substr(q + 1));
  return u;
}

bool same_or_subdomain(std::string_view host, std::string_view base) {
  if (host == base) return true;
  return host.size() > base.size() && host.substr(host.size() - base.size()) == base &&
         host[host.size() - base.size() - 1] == '.';
}

}  // namespace gleaner::jobs
