#pragma once
// The body of POST /scrapers/maps/jobs, validated (spec/api.md "Job request resource"; the
// choices api.md leaves open are in docs/jobs.md), and the JSON shapes the job API answers with.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <functional>

#include "store/jobs_store.h"

namespace gleaner::jobs {

/// The three webhook event kinds of spec/api.md "Events".
namespace event {
inline constexpr const char* kStarted = "scraper.job.started";
inline constexpr const char* kDataScraped = "scraper.data.scraped";
inline constexpr const char* kFinished = "scraper.job.finished";
}  // namespace event

struct Webhook {
  std::string url;
  std::vector<std::string> events;  ///< subscribed kinds; all three when the body names none
  std::map<std::string, std::string> headers;

  bool subscribed(const std::string& kind) const;
};

/// The largest `limit` (rows per keyword × location) a job may ask for.
inline constexpr std::int64_t kMaxLimitPerPair = 1000;
/// The most searches (keywords × locations) one job may make. A job is charged per row as it
/// runs, so an unbounded one would hold a worker for days on a balance checked only pair by pair.
inline constexpr std::size_t kMaxPairsPerJob = 1000;
/// The longest keyword or location, in bytes.
inline constexpr std::size_t kMaxTermLength = 500;

/// Checks a webhook URL; throws gleaner::Error(InvalidParameter) naming `parameter` when it is not
/// an http(s) URL the address guard allows (the service passes proxies::AddressGuard::check_url).
using UrlCheck = std::function<void(const std::string& url, const std::string& parameter)>;

/// Parses and validates a `webhook` object (the same for every kind of job); errors name
/// "webhook", "webhook.url", "webhook.events[0]", "webhook.headers.X-Token", ...
Webhook parse_webhook(const nlohmann::json& value, const UrlCheck& check_url);
/// The webhook as stored in a job's input.
nlohmann::json webhook_json(const Webhook& webhook);
/// The webhook a job's stored input names, whatever the job's kind.
std::optional<Webhook> webhook_of(const nlohmann::json& input);

struct JobRequest {
  std::vector<std::string> keywords;
  /// The place text of each location, without its `CUSTOM>` prefix.
  std::vector<std::string> locations;
  bool extract_emails = false;
  std::optional<std::int64_t> limit;  ///< rows per keyword × location; none: the list's end
  std::optional<Webhook> webhook;

  /// Parses and validates a request body. Throws Error(InvalidJson) for a body that is not a
  /// JSON object, and invalid_parameter / missing_parameter naming the field ("keywords",
  /// "locations[2]", "webhook.url", "webhook.headers.X-Token", ...). The webhook URL must be an
  /// http(s) URL that `check_url` allows.
  static JobRequest parse(const std::string& body, const UrlCheck& check_url);
  /// Reads back a request stored by to_json() (already validated).
  static JobRequest from_json(const nlohmann::json& stored);
  /// The request as stored and shown in the job's `input` (locations with their prefix).
  nlohmann::json to_json() const;
};

/// A job as the API shows it: {id, status, creditsSpent, dataRowsCount, input, createdAt,
/// updatedAt, ...}.
nlohmann::json job_json(const store::Job& job);
/// job_json plus each webhook delivery with its attempts (GET /scrapers/jobs/{id}).
nlohmann::json job_details_json(const store::Job& job,
                                const std::vector<store::DeliveryWithAttempts>& deliveries);
/// The fields of a data row (one place), in the order CSV columns follow.
inline constexpr const char* kRowFields[] = {
    "name",     "categories", "address",  "phone",     "website",      "rating",
    "reviewCount", "latitude", "longitude", "placeId", "openingHours", "mapsUrl",
    "emails",   "keyword",    "location"};

/// The fields of a page job's row (batch, crawler), in the order CSV columns follow: the page's
/// place in the job, then /scrape/web's outputs.
inline constexpr const char* kPageRowFields[] = {
    "url",     "depth",    "parentUrl",      "statusCode",      "error",      "content",
    "text",    "markdown", "json",           "extractedLinks",  "extractedEmails",
    "screenshot", "headers", "truncated"};
/// The CSV columns of a job of `kind` (a kind's row shape).
std::vector<std::string> row_fields(const std::string& kind);
/// The CSV header line (RFC 4180, CRLF) of `fields`.
std::string csv_header(const std::vector<std::string>& fields);
/// One CSV line per row, a column per field; arrays and objects are written as their JSON text.
std::string csv_lines(const std::vector<nlohmann::json>& rows, const std::vector<std::string>& fields);
/// Maps rows as CSV (RFC 4180): the header, then one column per row field in kRowFields order.
std::string rows_csv(const std::vector<nlohmann::json>& rows);
/// The body of a webhook delivery of event `kind` for `job`: {event, jobId, jobStatus,
/// timestamp, data?} (`data`: the new rows of scraper.data.scraped). None when the job has no
/// webhook or did not subscribe to `kind`, so nothing is queued.
std::optional<std::string> webhook_body(const store::Job& job, const char* kind,
                                        store::TimePoint now,
                                        const std::vector<nlohmann::json>* rows = nullptr);
/// ISO 8601 in UTC.
std::string iso_utc(store::TimePoint t);

}  // namespace gleaner::jobs
