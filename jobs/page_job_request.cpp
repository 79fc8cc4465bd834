#include "jobs/page_job_request.h"

#include <algorithm>

#include "core/error.h"
#include "core/regex.h"
#include "core/json_depth.h"
#include "jobs/crawl_url.h"
#include "proxies/guard.h"

namespace gleaner::jobs {
namespace {

/// A crawl's path pattern, as RE2 with the memory budget of a user's pattern.
std::optional<Regex> compile_path_pattern(const std::string& pattern, std::string* error) {
  return Regex::compile(pattern, error, Regex::Options{.max_mem = kPathPatternMaxMem});
}

using nlohmann::json;

/// The fields a page job takes besides /scrape/web's.
const std::vector<std::string_view> kBatchFields = {"urls", "webhook", "ignoreInvalidURLs"};
const std::vector<std::string_view> kCrawlerFields = {
    "urls",           "webhook",          "limit",     "maxDepth",
    "includePaths",   "excludePaths",     "allowSubdomains", "allowExternalLinks",
    "ignoreRobotsTxt", "sitemap",         "delayMs",   "maxConcurrency"};
/// How many invalid URLs a 400 names one by one.
constexpr std::size_t kInvalidUrlsNamed = 20;

json parse_object(const std::string& body) {
  json parsed = parse_json_body(body);
  if (!parsed.is_object()) {
    throw Error(ErrorCode::InvalidJson, "the body must be a JSON object");
  }
  return parsed;
}

bool as_bool(const json& body, const std::string& name, bool fallback) {
  if (!body.contains(name) || body[name].is_null()) return fallback;
  if (!body[name].is_boolean()) throw invalid_parameter(name, "must be true or false");
  return body[name].get<bool>();
}

std::int64_t as_integer(const json& body, const std::string& name, std::int64_t min,
                        std::int64_t max, std::int64_t fallback) {
  if (!body.contains(name) || body[name].is_null()) return fallback;
  const json& v = body[name];
  if (!v.is_number_integer() || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max) {
    throw invalid_parameter(name, "must be a whole number from " + std::to_string(min) + " to " +
                                      std::to_string(max));
  }
  return v.get<std::int64_t>();
}

/// The `urls` array: 1 to `most` strings (not validated as URLs here).
std::vector<std::string> url_list(const json& body, std::size_t most) {
  if (!body.contains("urls")) throw missing_parameter("urls");
  const json& urls = body["urls"];
  if (!urls.is_array() || urls.empty() || urls.size() > most) {
    throw invalid_parameter("urls", "must be an array of 1 to " + std::to_string(most) + " URLs");
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < urls.size(); ++i) {
    if (!urls[i].is_string()) {
      throw invalid_parameter("urls[" + std::to_string(i) + "]", "must be a string");
    }
    out.push_back(urls[i].get<std::string>());
  }
  return out;
}

/// Why `url` cannot be a page of a job; empty when it can.
std::string url_problem(const std::string& url) {
  try {
    proxies::parse_http_url(url, "url");
  } catch (const Error& e) {
    return e.what();
  }
  if (!parse_crawl_url(url)) return "not an absolute http(s) URL";
  return {};
}

std::vector<std::string> patterns(const json& body, const std::string& name) {
  std::vector<std::string> out;
  if (!body.contains(name) || body[name].is_null()) return out;
  const json& list = body[name];
  if (!list.is_array() || list.size() > kMaxPathPatterns) {
    throw invalid_parameter(name, "must be an array of at most " +
                                      std::to_string(kMaxPathPatterns) + " regular expressions");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = name + "[" + std::to_string(i) + "]";
    if (!list[i].is_string() || list[i].get<std::string>().empty()) {
      throw invalid_parameter(item, "must be a non-empty regular expression");
    }
    const std::string& pattern = list[i].get_ref<const std::string&>();
    if (pattern.size() > kMaxPathPatternLength) {
      throw invalid_parameter(
          item, "must be at most " + std::to_string(kMaxPathPatternLength) + " characters long");
    }
    std::string error;
    if (!compile_path_pattern(pattern, &error)) {
      throw invalid_parameter(item, "is not a regular expression RE2 accepts (" + error +
                                        "; no backreferences or lookaround)");
    }
    out.push_back(pattern);
  }
  return out;
}

/// Splits the body into the job's own fields (left in `body`) and the /scrape/web fields of
/// every page (returned), which /scrape/web's parser then validates. `batch`: a batch's, which
/// may run in a session (docs/sessions.md "Batches"); a crawl's may not.
json page_fields(json& body, const std::vector<std::string_view>& own, bool batch) {
  if (body.contains("jsScenario")) {
    throw invalid_parameter("jsScenario",
                            "a jsScenario acts on one page; batches and crawls do not take one");
  }
  if (body.contains("url")) {
    throw invalid_parameter("url", "a batch or a crawl takes its pages in `urls`");
  }
  // A session serves one page at a time in one tab; a crawl fetches its pages in parallel, on
  // every node, in the order it finds them. A batch in a session is pinned to the node that
  // took it and runs its rows one after another (PageJobRequest::in_session).
  for (const char* field : {"sessionId", "sessionTtl", "sessionQueue"}) {
    if (!batch && body.contains(field)) {
      throw invalid_parameter(field,
                              "a crawl does not run in a session: its pages are fetched in "
                              "parallel, by every node; a session serves one page at a time on "
                              "one node. Give the session to POST /scrape/web or to a batch "
                              "(POST /scrape/batch/web) of the pages (docs/sessions.md)");
    }
  }
  json page = json::object();
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (std::find(own.begin(), own.end(), it.key()) == own.end()) page[it.key()] = it.value();
  }
  return page;
}

/// Validates the page fields as /scrape/web would, with a URL of the job: an error names the
/// field exactly as /scrape/web's would.
void check_page_fields(const PageJobRequest& request, Millis default_timeout) {
  request.page_request(request.urls.front(), default_timeout);
}

}  // namespace

PageJobRequest PageJobRequest::parse_batch(const std::string& body, Millis default_timeout,
                                           const UrlCheck& check_webhook_url) {
  json parsed = parse_object(body);
  PageJobRequest r;
  r.kind = kind::kBatch;
  r.page = page_fields(parsed, kBatchFields, true);
  r.ignore_invalid_urls = as_bool(parsed, "ignoreInvalidURLs", false);
  const std::vector<std::string> given = url_list(parsed, kMaxBatchUrls);
  std::string refused;
  std::size_t named = 0;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const std::string problem = url_problem(given[i]);
    if (problem.empty()) {
      r.urls.push_back(given[i]);
      continue;
    }
    r.invalid_urls.push_back(given[i]);
    if (named++ < kInvalidUrlsNamed) {
      refused += (refused.empty() ? "" : "; ") + std::string("urls[") + std::to_string(i) +
                 "] '" + given[i].substr(0, 200) + "': " + problem;
    }
  }
  if (!r.invalid_urls.empty() && !r.ignore_invalid_urls) {
    if (named > kInvalidUrlsNamed) {
      refused += "; and " + std::to_string(named - kInvalidUrlsNamed) + " more";
    }
    throw invalid_parameter("urls", std::to_string(r.invalid_urls.size()) + " invalid URL" +
                                        (r.invalid_urls.size() == 1 ? "" : "s") + " (" + refused +
                                        "); fix them or set ignoreInvalidURLs");
  }
  if (r.urls.empty()) throw invalid_parameter("urls", "none of the URLs is valid");
  check_page_fields(r, default_timeout);
  if (parsed.contains("webhook")) r.webhook = parse_webhook(parsed["webhook"], check_webhook_url);
  return r;
}

PageJobRequest PageJobRequest::parse_crawler(const std::string& body, Millis default_timeout,
                                             const UrlCheck& check_webhook_url) {
  json parsed = parse_object(body);
  PageJobRequest r;
  r.kind = kind::kCrawler;
  r.page = page_fields(parsed, kCrawlerFields, false);
  const std::vector<std::string> given = url_list(parsed, kMaxStartUrls);
  for (std::size_t i = 0; i < given.size(); ++i) {
    if (const std::string problem = url_problem(given[i]); !problem.empty()) {
      throw invalid_parameter("urls[" + std::to_string(i) + "]", problem);
    }
    r.urls.push_back(given[i]);
  }
  r.limit = as_integer(parsed, "limit", 1, kMaxCrawlPages, kDefaultCrawlPages);
  if (parsed.contains("maxDepth") && !parsed["maxDepth"].is_null()) {
    r.max_depth = as_integer(parsed, "maxDepth", 0, 1000, 0);
  }
  r.include_paths = patterns(parsed, "includePaths");
  r.exclude_paths = patterns(parsed, "excludePaths");
  r.allow_subdomains = as_bool(parsed, "allowSubdomains", false);
  r.allow_external_links = as_bool(parsed, "allowExternalLinks", false);
  r.ignore_robots_txt = as_bool(parsed, "ignoreRobotsTxt", false);
  if (parsed.contains("sitemap") && !parsed["sitemap"].is_null()) {
    const json& mode = parsed["sitemap"];
    if (!mode.is_string() || (mode != sitemap_mode::kInclude && mode != sitemap_mode::kSkip &&
                              mode != sitemap_mode::kOnly)) {
      throw invalid_parameter("sitemap", "must be 'include', 'skip' or 'only'");
    }
    r.sitemap = mode.get<std::string>();
  }
  r.delay_ms = as_integer(parsed, "delayMs", 0, kMaxDelayMs, 0);
  r.max_concurrency = as_integer(parsed, "maxConcurrency", 1, kMaxHostConcurrency, 2);
  check_page_fields(r, default_timeout);
  if (parsed.contains("webhook")) r.webhook = parse_webhook(parsed["webhook"], check_webhook_url);
  return r;
}

json PageJobRequest::to_json() const {
  json out = page;
  out["urls"] = urls;
  if (webhook) out["webhook"] = webhook_json(*webhook);
  if (kind == kind::kBatch) {
    out["ignoreInvalidURLs"] = ignore_invalid_urls;
    out["invalidUrls"] = invalid_urls;
    return out;
  }
  out["limit"] = limit;
  if (max_depth) out["maxDepth"] = *max_depth;
  out["includePaths"] = include_paths;
  out["excludePaths"] = exclude_paths;
  out["allowSubdomains"] = allow_subdomains;
  out["allowExternalLinks"] = allow_external_links;
  out["ignoreRobotsTxt"] = ignore_robots_txt;
  out["sitemap"] = sitemap;
  out["delayMs"] = delay_ms;
  out["maxConcurrency"] = max_concurrency;
  return out;
}

PageJobRequest PageJobRequest::from_json(const std::string& job_kind, const json& stored) {
  PageJobRequest r;
  const bool batch = job_kind == kind::kBatch;
  r.kind = batch ? kind::kBatch : kind::kCrawler;
  json rest = stored;
  r.page = page_fields(rest, batch ? kBatchFields : kCrawlerFields, batch);
  r.page.erase("invalidUrls");
  r.urls = stored.at("urls").get<std::vector<std::string>>();
  r.webhook = webhook_of(stored);
  if (batch) {
    r.ignore_invalid_urls = stored.value("ignoreInvalidURLs", false);
    r.invalid_urls = stored.at("invalidUrls").get<std::vector<std::string>>();
    return r;
  }
  r.limit = stored.value("limit", kDefaultCrawlPages);
  if (stored.contains("maxDepth")) r.max_depth = stored["maxDepth"].get<std::int64_t>();
  r.include_paths = stored.value("includePaths", std::vector<std::string>{});
  r.exclude_paths = stored.value("excludePaths", std::vector<std::string>{});
  r.allow_subdomains = stored.value("allowSubdomains", false);
  r.allow_external_links = stored.value("allowExternalLinks", false);
  r.ignore_robots_txt = stored.value("ignoreRobotsTxt", false);
  r.sitemap = stored.value("sitemap", std::string(sitemap_mode::kInclude));
  r.delay_ms = stored.value("delayMs", std::int64_t{0});
  r.max_concurrency = stored.value("maxConcurrency", std::int64_t{2});
  return r;
}

bool PageJobRequest::in_session() const {
  const auto id = page.find("sessionId");
  return id != page.end() && !id->is_null();
}

web::WebRequest PageJobRequest::page_request(const std::string& url,
                                             Millis default_timeout) const {
  json body = page;
  body["url"] = url;
  return web::parse_web_request(body.dump(), default_timeout);
}

PathRules::PathRules(const std::vector<std::string>& include,
                     const std::vector<std::string>& exclude)
    : has_rules_(!include.empty() || !exclude.empty()), has_include_(!include.empty()) {
  // Checked when the job was created; a stored pattern RE2 refuses (a job created before RE2)
  // matches nothing: an include rule lets no page in, an exclude rule leaves none out.
  for (const auto& p : include) {
    if (auto re = compile_path_pattern(p, nullptr)) include_.push_back(std::move(*re));
  }
  for (const auto& p : exclude) {
    if (auto re = compile_path_pattern(p, nullptr)) exclude_.push_back(std::move(*re));
  }
}

bool PathRules::allowed(std::string_view path) const {
  if (!has_rules_) return true;
  // Past the cap no rule is tried: such a path is left out of a crawl that has rules.
  if (path.size() > kMaxMatchedPathLength) return false;
  auto matches = [&](const Regex& r) { return r.search(path); };
  if (has_include_ && std::none_of(include_.begin(), include_.end(), matches)) return false;
  return std::none_of(exclude_.begin(), exclude_.end(), matches);
}

}  // namespace gleaner::jobs
