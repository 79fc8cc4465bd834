#pragma once
// Crawl addresses: the canonical form under which a crawl fetches a page once, and the parts the
// crawler's rules look at (origin for robots.txt and per-host pacing, host for subdomain scope,
// path for includePaths/excludePaths).
#include <optional>
#include <string>
#include <string_view>

namespace gleaner::jobs {

/// An http(s) URL taken apart, canonicalised: scheme and host in lower case, the scheme's
/// default port dropped, the fragment dropped, an empty path written "/". The query is kept as
/// it was (its order can matter to the site).
struct CrawlUrl {
  std::string scheme;  ///< "http" or "https"
  std::string host;    ///< lower case, IPv6 in brackets
  std::string port;    ///< empty for the scheme's default
  std::string path;    ///< starts with '/'
  std::string query;   ///< without '?', empty when none

  /// "https://example.com:8443": robots.txt and pacing are per origin.
  std::string origin() const;
  /// path + ("?" query): what robots.txt rules match.
  std::string path_and_query() const;
  /// The whole canonical URL: the key a crawl fetches once.
  std::string str() const;
};

/// `url` canonicalised; none when it is not an absolute http(s) URL with a host.
std::optional<CrawlUrl> parse_crawl_url(std::string_view url);

/// `s` in ASCII lower case (schemes, hosts, robots.txt keys and agents).
std::string lower_ascii(std::string_view s);
/// `s` without the ASCII white space around it.
std::string_view trim_ascii(std::string_view s);

/// Whether `host` is `base` or one of its subdomains ("blog.example.com" of "example.com").
bool same_or_subdomain(std::string_view host, std::string_view base);

}  // namespace gleaner::jobs
