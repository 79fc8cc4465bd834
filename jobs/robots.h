#pragma once
// robots.txt as RFC 9309 reads it, for the crawler: the group of our product token ("gleaner")
// or else "*", its Allow/Disallow rules (longest match wins, Allow on a tie; `*` and a final `$`
// as wildcards), its Crawl-delay (not in the RFC, but widely used), and every Sitemap line.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"

namespace gleaner::jobs {

/// The bytes of a robots.txt read, as Google reads 500 KiB (RFC 9309 §2.5 asks for at least 500
/// KiB): the rest of a longer file is ignored.
inline constexpr std::size_t kMaxRobotsBytes = 500 * 1024;

/// The product token robots.txt groups are matched against.
inline constexpr std::string_view kRobotsAgent = "gleaner";

class RobotsTxt {
 public:
  /// Parses the text of a robots.txt (unknown lines are ignored, as the RFC says).
  static RobotsTxt parse(std::string_view text);
  /// What a missing robots.txt (4xx) means: everything allowed.
  static RobotsTxt allow_all() { return {}; }

  /// Whether `path_and_query` ("/a/b?c") may be fetched.
  bool allowed(std::string_view path_and_query) const;
  /// The group's Crawl-delay, if it gives one.
  std::optional<Millis> crawl_delay() const { return crawl_delay_; }
  /// Sitemap URLs, in file order.
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }

 private:
  struct Rule {
    bool allow = false;
    std::string pattern;
  };
  std::vector<Rule> rules_;
  std::optional<Millis> crawl_delay_;
  std::vector<std::string> sitemaps_;
};

/// Whether robots.txt `pattern` (with `*` and a final `$`) matches the start of `path`.
bool robots_pattern_matches(std::string_view pattern, std::string_view path);

}  // namespace gleaner::jobs
