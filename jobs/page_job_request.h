#pragma once
// The bodies of the page jobs: POST /scrape/batch/web (kind "batch": a fixed list of URLs) and
// POST /scrapers/crawler/jobs (kind "crawler": start URLs and the rules that say which links to
// follow), spec/conventions.md "Batches and crawls". Every field that is not the job's own is a
// /scrape/web field, validated by /scrape/web's own parser (extract/web/request.h) so that both
// accept exactly what /scrape/web accepts, new fields included; only `jsScenario` is refused, and
// a crawl's session fields (a batch may run in a session, docs/sessions.md "Batches").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/regex.h"
#include "extract/web/request.h"
#include "jobs/job_request.h"

namespace gleaner::jobs {

namespace kind {
inline constexpr const char* kMaps = "maps";
inline constexpr const char* kBatch = "batch";
inline constexpr const char* kCrawler = "crawler";
}  // namespace kind

/// The most URLs one batch takes.
inline constexpr std::size_t kMaxBatchUrls = 10'000;
/// The most start URLs of a crawl.
inline constexpr std::size_t kMaxStartUrls = 100;
/// The largest crawl `limit` (pages).
inline constexpr std::int64_t kMaxCrawlPages = 100'000;
/// The crawl `limit` when none is given.
inline constexpr std::int64_t kDefaultCrawlPages = 1'000;
/// The largest `maxConcurrency` per host.
inline constexpr std::int64_t kMaxHostConcurrency = 32;
/// The largest `delayMs`.
inline constexpr std::int64_t kMaxDelayMs = 60'000;
/// The most path patterns in includePaths or excludePaths.
inline constexpr std::size_t kMaxPathPatterns = 100;
/// The longest path pattern (characters).
inline constexpr std::size_t kMaxPathPatternLength = 1'000;
/// RE2's memory budget for one path pattern: a pattern that needs more is a 400.
inline constexpr std::int64_t kPathPatternMaxMem = std::int64_t{1} << 20;
/// The longest path the patterns are matched against (bytes): a longer one is left out of a
/// crawl that has path rules.
inline constexpr std::size_t kMaxMatchedPathLength = 8'192;

/// How the crawler uses sitemaps.
namespace sitemap_mode {
inline constexpr const char* kInclude = "include";  ///< sitemap pages and links
inline constexpr const char* kSkip = "skip";        ///< links only
inline constexpr const char* kOnly = "only";        ///< sitemap pages only, no links followed
}  // namespace sitemap_mode

struct PageJobRequest {
  std::string kind;  ///< kind::kBatch or kind::kCrawler
  /// Batch: the URLs to fetch (the valid ones). Crawler: the start pages.
  std::vector<std::string> urls;
  /// Batch with ignoreInvalidURLs: the URLs skipped as invalid, as given.
  std::vector<std::string> invalid_urls;
  bool ignore_invalid_urls = false;
  /// The /scrape/web fields every page is fetched with (without `url`), as given.
  nlohmann::json page = nlohmann::json::object();
  std::optional<Webhook> webhook;

  // Crawler only.
  std::int64_t limit = kDefaultCrawlPages;
  std::optional<std::int64_t> max_depth;
  std::vector<std::string> include_paths;
  std::vector<std::string> exclude_paths;
  bool allow_subdomains = false;
  bool allow_external_links = false;
  bool ignore_robots_txt = false;
  std::string sitemap = sitemap_mode::kInclude;
  std::int64_t delay_ms = 0;
  std::int64_t max_concurrency = 2;

  /// POST /scrape/batch/web's body. Throws Error(InvalidJson) for a body that is not an object;
  /// invalid_parameter / missing_parameter naming the field otherwise; invalid URLs are one 400
  /// naming `urls` and listing them, unless ignoreInvalidURLs.
  static PageJobRequest parse_batch(const std::string& body, Millis default_timeout,
                                    const UrlCheck& check_webhook_url);
  /// POST /scrapers/crawler/jobs's body (regexes compiled now: a bad one is a 400 naming it).
  static PageJobRequest parse_crawler(const std::string& body, Millis default_timeout,
                                      const UrlCheck& check_webhook_url);
  /// Reads back what to_json() stored for a job of `job_kind`.
  static PageJobRequest from_json(const std::string& job_kind, const nlohmann::json& stored);
  /// The job's stored `input`: the body with the defaults written in.
  nlohmann::json to_json() const;

  /// A batch whose rows run in the caller's session `sessionId`: pinned to the node that took it
  /// and run one row at a time (store::Job::pinned_node).
  bool in_session() const;

  /// The /scrape/web request of one page of the job.
  web::WebRequest page_request(const std::string& url, Millis default_timeout) const;
};

/// A crawl's path rules, compiled once per use (RE2, searched anywhere in the path).
class PathRules {
 public:
  PathRules(const std::vector<std::string>& include, const std::vector<std::string>& exclude);
  /// Whether a page whose path is `path` may be crawled: it matches an include pattern (or there
  /// is none) and no exclude pattern. With any rule, a path longer than kMaxMatchedPathLength
  /// may not.
  bool allowed(std::string_view path) const;

 private:
  std::vector<Regex> include_;
  std::vector<Regex> exclude_;
  bool has_rules_;
  bool has_include_;
};

}  // namespace gleaner::jobs
