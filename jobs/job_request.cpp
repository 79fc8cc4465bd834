#include "jobs/job_request.h"

#include <algorithm>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "core/error.h"
#include "core/http_header.h"
#include "core/json_depth.h"
#include "jobs/webhook_outbox.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

constexpr std::string_view kLocationPrefix = "CUSTOM>";
const std::vector<std::string> kEventKinds = {event::kStarted, event::kDataScraped,
                                              event::kFinished};

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

/// Rejects fields the job request does not have: a misspelt field must not pass silently.
void only_fields(const json& object, std::initializer_list<std::string_view> known,
                 const std::string& prefix) {
  for (const auto& [name, value] : object.items()) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw invalid_parameter(prefix + name, "unknown field");
    }
  }
}

/// A non-empty array of non-blank strings, each trimmed.
std::vector<std::string> string_list(const json& body, const std::string& name) {
  if (!body.contains(name)) throw missing_parameter(name);
  const json& value = body.at(name);
  if (!value.is_array() || value.empty()) {
    throw invalid_parameter(name, "must be a non-empty array of strings");
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string item = name + "[" + std::to_string(i) + "]";
    if (!value[i].is_string()) throw invalid_parameter(item, "must be a string");
    const std::string text = trimmed(value[i].get<std::string>());
    if (text.empty()) throw invalid_parameter(item, "must not be empty");
    if (text.size() > kMaxTermLength) {
      throw invalid_parameter(item, "must be at most " + std::to_string(kMaxTermLength) + " bytes");
    }
    out.push_back(text);
  }
  return out;
}

/// A webhook URL's length: far beyond any receiver's real address, far below what a request line
/// may hold.
constexpr std::size_t kMaxWebhookUrl = 2048;

/// The headers every delivery carries of its own: its body's type and its id (a receiver's
/// de-duplication key). A second copy from the caller would make the delivery ambiguous.
bool is_reserved_for_delivery(const std::string& name) {
  return http_header::same_name(name, "Content-Type") ||
         http_header::same_name(name, kDeliveryHeader);
}

}  // namespace

Webhook parse_webhook(const json& value, const UrlCheck& check_url) {
  if (!value.is_object()) throw invalid_parameter("webhook", "must be an object");
  only_fields(value, {"url", "events", "headers"}, "webhook.");
  Webhook hook;
  if (!value.contains("url")) throw missing_parameter("webhook.url");
  if (!value["url"].is_string()) throw invalid_parameter("webhook.url", "must be a string");
  hook.url = trimmed(value["url"].get<std::string>());
  if (hook.url.size() > kMaxWebhookUrl) {
    throw invalid_parameter("webhook.url",
                            "must be at most " + std::to_string(kMaxWebhookUrl) + " characters");
  }
  // Scheme, host syntax and literal addresses now; names are resolved and checked again at
  // every delivery (jobs/webhook_sender.cpp), since DNS answers change.
  check_url(hook.url, "webhook.url");
  if (value.contains("events")) {
    const json& events = value["events"];
    if (!events.is_array() || events.empty()) {
      throw invalid_parameter("webhook.events", "must be a non-empty array of event kinds");
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
      const std::string item = "webhook.events[" + std::to_string(i) + "]";
      if (!events[i].is_string() || std::find(kEventKinds.begin(), kEventKinds.end(),
                                              events[i].get<std::string>()) == kEventKinds.end()) {
        throw invalid_parameter(item,
                                "must be one of scraper.job.started, scraper.data.scraped, "
                                "scraper.job.finished");
      }
      const std::string kind = events[i].get<std::string>();
      if (std::find(hook.events.begin(), hook.events.end(), kind) == hook.events.end()) {
        hook.events.push_back(kind);
      }
    }
  } else {
    hook.events = kEventKinds;
  }
  if (value.contains("headers")) {
    const json& headers = value["headers"];
    if (!headers.is_object()) {
      throw invalid_parameter("webhook.headers", "must be an object of strings");
    }
    if (headers.size() > http_header::kMaxCustomHeaders) {
      throw invalid_parameter("webhook.headers", "at most " +
                                                     std::to_string(http_header::kMaxCustomHeaders) +
                                                     " headers");
    }
    for (const auto& [name, header_value] : headers.items()) {
      const std::string parameter = "webhook.headers." + name;
      if (!http_header::valid_name(name)) {
        throw invalid_parameter(parameter, "is not a valid header name");
      }
      if (auto why = http_header::reserved_because(name); !why.empty()) {
        throw invalid_parameter(parameter, "may not be set: it " + std::string(why));
      }
      if (is_reserved_for_delivery(name)) {
        throw invalid_parameter(parameter, "may not be set: gleaner sets it on every delivery");
      }
      if (!header_value.is_string()) throw invalid_parameter(parameter, "must be a string");
      const std::string text = header_value.get<std::string>();
      if (std::string why = http_header::value_refused_because(text); !why.empty()) {
        throw invalid_parameter(parameter, "may not be sent: its value " + why);
      }
      hook.headers[name] = text;
    }
  }
  return hook;
}

namespace {

/// Text a spreadsheet would read as a formula (OWASP's "CSV Injection": =, +, -, @, tab, CR).
bool formula_like(const std::string& text) {
  return !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
}

std::string csv_cell(const json& value) {
  if (value.is_null()) return {};
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  // A page's text must not become a formula in the spreadsheet that opens the export: it is
  // written after a ' and quoted (OWASP). Numbers stay numbers (a latitude of -33.86).
  const bool escaped = !value.is_number() && formula_like(text);
  if (escaped) text.insert(0, 1, '\'');
  if (!escaped && text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace

bool Webhook::subscribed(const std::string& kind) const {
  return std::find(events.begin(), events.end(), kind) != events.end();
}

JobRequest JobRequest::parse(const std::string& body, const UrlCheck& check_url) {
  json parsed = parse_json_body(body);
  if (!parsed.is_object()) {
    throw Error(ErrorCode::InvalidJson, "the body must be a JSON object");
  }
  only_fields(parsed, {"keywords", "locations", "extractEmails", "webhook", "limit"}, "");
  JobRequest request;
  request.keywords = string_list(parsed, "keywords");
  const std::vector<std::string> locations = string_list(parsed, "locations");
  for (std::size_t i = 0; i < locations.size(); ++i) {
    const std::string& location = locations[i];
    if (location.rfind(kLocationPrefix, 0) != 0 || blank(location.substr(kLocationPrefix.size()))) {
      throw invalid_parameter("locations[" + std::to_string(i) + "]",
                              "must be CUSTOM> followed by the place, e.g. CUSTOM>Athens, Greece");
    }
    request.locations.push_back(trimmed(location.substr(kLocationPrefix.size())));
  }
  const std::size_t pairs = request.keywords.size() * request.locations.size();
  if (pairs > kMaxPairsPerJob) {
    throw invalid_parameter("locations", "keywords × locations make " + std::to_string(pairs) +
                                             " searches; a job makes at most " +
                                             std::to_string(kMaxPairsPerJob) +
                                             " (split it into several jobs)");
  }
  if (parsed.contains("extractEmails")) {
    if (!parsed["extractEmails"].is_boolean()) {
      throw invalid_parameter("extractEmails", "must be true or false");
    }
    request.extract_emails = parsed["extractEmails"].get<bool>();
  }
  if (parsed.contains("limit")) {
    const json& limit = parsed["limit"];
    if (!limit.is_number_integer() || limit.get<std::int64_t>() < 1 ||
        limit.get<std::int64_t>() > kMaxLimitPerPair) {
      throw invalid_parameter(
          "limit", "must be a whole number from 1 to " + std::to_string(kMaxLimitPerPair));
    }
    request.limit = limit.get<std::int64_t>();
  }
  if (parsed.contains("webhook")) request.webhook = parse_webhook(parsed["webhook"], check_url);
  return request;
}

json JobRequest::to_json() const {
  json locs = json::array();
  for (const std::string& l : locations) locs.push_back(std::string(kLocationPrefix) + l);
  json out = {{"keywords", keywords}, {"locations", locs}, {"extractEmails", extract_emails}};
  if (limit) out["limit"] = *limit;
  if (webhook) out["webhook"] = webhook_json(*webhook);
  return out;
}

JobRequest JobRequest::from_json(const json& stored) {
  JobRequest r;
  r.keywords = stored.at("keywords").get<std::vector<std::string>>();
  for (const json& l : stored.at("locations")) {
    r.locations.push_back(l.get<std::string>().substr(kLocationPrefix.size()));
  }
  r.extract_emails = stored.value("extractEmails", false);
  if (stored.contains("limit")) r.limit = stored["limit"].get<std::int64_t>();
  r.webhook = webhook_of(stored);
  return r;
}

json webhook_json(const Webhook& webhook) {
  return {{"url", webhook.url}, {"events", webhook.events}, {"headers", webhook.headers}};
}

std::optional<Webhook> webhook_of(const json& input) {
  if (!input.is_object() || !input.contains("webhook")) return std::nullopt;
  const json& w = input["webhook"];
  Webhook hook;
  hook.url = w.at("url").get<std::string>();
  hook.events = w.at("events").get<std::vector<std::string>>();
  hook.headers = w.at("headers").get<std::map<std::string, std::string>>();
  return hook;
}

std::string iso_utc(store::TimePoint t) {
  const auto seconds = static_cast<std::time_t>(store::to_unix_seconds(t));
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::ostringstream out;
  out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

std::optional<std::string> webhook_body(const store::Job& job, const char* kind,
                                        store::TimePoint now, const std::vector<json>* rows) {
  // Every kind stores its webhook alike in its input.
  const std::optional<Webhook> webhook = webhook_of(job.input);
  if (!webhook || !webhook->subscribed(kind)) return std::nullopt;
  json body = {
      {"event", kind}, {"jobId", job.id}, {"jobStatus", job.status}, {"timestamp", iso_utc(now)}};
  if (rows) body["data"] = *rows;
  return body.dump();
}

json job_json(const store::Job& job) {
  json out = {{"id", job.id},
              {"kind", job.kind},
              {"status", job.status},
              {"creditsSpent", job.credits_spent},
              {"dataRowsCount", job.rows_count},
              {"input", job.input},
              {"createdAt", iso_utc(job.created_at)},
              {"updatedAt", iso_utc(job.updated_at)}};
  if (job.stop_reason) out["reason"] = *job.stop_reason;
  if (job.stop_requested && !job.done()) out["stopRequested"] = true;
  if (job.started_at) out["startedAt"] = iso_utc(*job.started_at);
  if (job.finished_at) out["finishedAt"] = iso_utc(*job.finished_at);
  if (job.results_deleted_at) out["resultsDeletedAt"] = iso_utc(*job.results_deleted_at);
  if (job.by_frontier) {
    // A page job's progress: pages admitted to its frontier, pages with a row, the pages whose
    // row is an error, and the robots.txt files and sitemaps read for it (counted in the stored
    // progress).
    out["progress"] = {{"pagesFound", job.frontier_size}, {"pagesDone", job.rows_count}};
    for (const char* read : {"pagesFailed", "robotsTxtFetched", "sitemapsFetched"}) {
      const auto it = job.progress.is_object() ? job.progress.find(read) : job.progress.end();
      out["progress"][read] =
          it != job.progress.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
    }
    if (job.input.is_object() && job.input.contains("invalidUrls")) {
      out["invalidUrls"] = job.input["invalidUrls"];
    }
    return out;
  }
  // How far the worker got: keyword × location pairs searched of all the job's pairs.
  auto list_size = [&](const char* key) -> std::int64_t {
    const auto it = job.input.is_object() ? job.input.find(key) : job.input.end();
    return it != job.input.end() && it->is_array() ? static_cast<std::int64_t>(it->size()) : 0;
  };
  const std::int64_t done =
      job.progress.is_object() ? job.progress.value("pair", std::int64_t{0}) : 0;
  out["progress"] = {{"pairsDone", done},
                     {"pairsTotal", list_size("keywords") * list_size("locations")}};
  return out;
}

json job_details_json(const store::Job& job,
                      const std::vector<store::DeliveryWithAttempts>& deliveries) {
  json out = job_json(job);
  json list = json::array();
  for (const store::DeliveryWithAttempts& d : deliveries) {
    json attempts = json::array();
    for (const store::DeliveryAttempt& a : d.attempts) {
      json attempt = {{"attempt", a.attempt},
                      {"at", iso_utc(a.attempted_at)},
                      {"outcome", a.outcome},
                      {"detail", a.detail}};
      if (a.http_status) attempt["httpStatus"] = *a.http_status;
      attempts.push_back(std::move(attempt));
    }
    list.push_back({{"id", d.delivery.id},
                    {"event", d.delivery.event},
                    {"status", d.delivery.status},
                    {"createdAt", iso_utc(d.delivery.created_at)},
                    {"attempts", std::move(attempts)}});
  }
  out["webhookDeliveries"] = std::move(list);
  return out;
}

std::vector<std::string> row_fields(const std::string& kind) {
  if (kind == "maps") return {std::begin(kRowFields), std::end(kRowFields)};
  return {std::begin(kPageRowFields), std::end(kPageRowFields)};
}

std::string csv_header(const std::vector<std::string>& fields) {
  std::string out;
  for (const std::string& field : fields) {
    if (!out.empty()) out += ',';
    out += field;
  }
  return out + "\r\n";
}

std::string csv_lines(const std::vector<json>& rows, const std::vector<std::string>& fields) {
  std::string out;
  for (const json& row : rows) {
    bool first = true;
    for (const std::string& field : fields) {
      if (!first) out += ',';
      first = false;
      out += csv_cell(row.contains(field) ? row.at(field) : json());
    }
    out += "\r\n";
  }
  return out;
}

std::string rows_csv(const std::vector<json>& rows) {
  const std::vector<std::string> fields = row_fields("maps");
  return csv_header(fields) + csv_lines(rows, fields);
}

}  // namespace gleaner::jobs
