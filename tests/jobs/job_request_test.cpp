// The job request's validation, its stored form, and the shapes the API and webhooks send: no
// store, no network. The address guard itself is proxies/' (tests/proxies); here a check that
// records its calls stands in for it.
#include "jobs/job_request.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/http_header.h"
#include "jobs/page_job_request.h"
#include "tests/jobs/job_bodies.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;
using Failure = std::pair<ErrorCode, std::string>;

json valid_body() {
  return testing::valid_job_body();
}

/// Refuses URLs containing "internal", as the guard refuses private addresses.
void check_url(const std::string& url, const std::string& parameter) {
  if (url.find("internal") != std::string::npos) throw invalid_parameter(parameter, "private");
}

Failure failure_of(const std::string& body) {
  try {
    JobRequest::parse(body, check_url);
  } catch (const Error& e) {
    return {e.code(), e.parameter().value_or("")};
  }
  ADD_FAILURE() << "accepted: " << body;
  return {ErrorCode::Internal, ""};
}

Failure with(const std::string& field, const json& value) {
  json b = valid_body();
  b[field] = value;
  return failure_of(b.dump());
}

Failure hook_with(const std::string& field, const json& value) {
  json b = valid_body();
  b["webhook"][field] = value;
  return failure_of(b.dump());
}

TEST(JobRequest, AValidBodyIsStoredWithItsDefaults) {
  JobRequest r = JobRequest::parse(valid_body().dump(), check_url);
  EXPECT_EQ(r.locations, std::vector<std::string>{"Athens, Greece"});
  EXPECT_EQ(r.limit, 20);
  EXPECT_EQ(r.to_json(), valid_body());
  EXPECT_EQ(JobRequest::from_json(r.to_json()).to_json(), valid_body());

  json minimal = {{"keywords", {" pizza "}},
                  {"locations", {"CUSTOM>Rome"}},
                  {"webhook", {{"url", "http://hooks.example.com/"}}}};
  json stored = JobRequest::parse(minimal.dump(), check_url).to_json();
  EXPECT_EQ(stored["keywords"], json({"pizza"}));
  EXPECT_EQ(stored["extractEmails"], false);
  EXPECT_FALSE(stored.contains("limit"));
  EXPECT_EQ(stored["webhook"]["events"],
            json({"scraper.job.started", "scraper.data.scraped", "scraper.job.finished"}));
  EXPECT_EQ(stored["webhook"]["headers"], json::object());
}

TEST(JobRequest, EveryFieldIsValidated) {
  EXPECT_EQ(failure_of("{not json").first, ErrorCode::InvalidJson);
  EXPECT_EQ(failure_of("[1]").first, ErrorCode::InvalidJson);
  json no_keywords = valid_body();
  no_keywords.erase("keywords");
  EXPECT_EQ(failure_of(no_keywords.dump()), Failure(ErrorCode::MissingParameter, "keywords"));
  EXPECT_EQ(with("keywords", json::array()), Failure(ErrorCode::InvalidParameter, "keywords"));
  EXPECT_EQ(with("keywords", {"a", "  "}), Failure(ErrorCode::InvalidParameter, "keywords[1]"));
  EXPECT_EQ(with("keywords", {"a", 3}), Failure(ErrorCode::InvalidParameter, "keywords[1]"));
  EXPECT_EQ(with("keywords", "coffee"), Failure(ErrorCode::InvalidParameter, "keywords"));
  EXPECT_EQ(with("locations", {"Athens"}), Failure(ErrorCode::InvalidParameter, "locations[0]"));
  EXPECT_EQ(with("locations", {"CUSTOM>Rome", "CUSTOM>  "}),
            Failure(ErrorCode::InvalidParameter, "locations[1]"));
  EXPECT_EQ(with("extractEmails", "yes"), Failure(ErrorCode::InvalidParameter, "extractEmails"));
  EXPECT_EQ(with("limit", 0), Failure(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(with("limit", 1.5), Failure(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(with("limit", kMaxLimitPerPair + 1), Failure(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(with("colour", "red"), Failure(ErrorCode::InvalidParameter, "colour"));
  EXPECT_EQ(with("webhook", "https://x.example"), Failure(ErrorCode::InvalidParameter, "webhook"));
  EXPECT_EQ(hook_with("url", 7), Failure(ErrorCode::InvalidParameter, "webhook.url"));
  EXPECT_EQ(hook_with("url", "http://internal.example/"),
            Failure(ErrorCode::InvalidParameter, "webhook.url"));
  EXPECT_EQ(hook_with("events", {"scraper.job.done"}),
            Failure(ErrorCode::InvalidParameter, "webhook.events[0]"));
  EXPECT_EQ(hook_with("events", json::array()),
            Failure(ErrorCode::InvalidParameter, "webhook.events"));
  EXPECT_EQ(hook_with("headers", {{"X-Count", 3}}),
            Failure(ErrorCode::InvalidParameter, "webhook.headers.X-Count"));
  EXPECT_EQ(hook_with("headers", {{"Bad Name", "v"}}),
            Failure(ErrorCode::InvalidParameter, "webhook.headers.Bad Name"));
  EXPECT_EQ(hook_with("headers", {{"X-A", "v\r\nX-B: w"}}),
            Failure(ErrorCode::InvalidParameter, "webhook.headers.X-A"));
  EXPECT_EQ(hook_with("secret", "x"), Failure(ErrorCode::InvalidParameter, "webhook.secret"));
  json no_url = valid_body();
  no_url["webhook"].erase("url");
  EXPECT_EQ(failure_of(no_url.dump()), Failure(ErrorCode::MissingParameter, "webhook.url"));
}

// Issue 16, item 5: framing and routing headers gave a request-smuggling shape towards the
// receiver; the delivery's own headers would be sent twice.
TEST(JobRequest, WebhookHeadersMayNotFrameRouteOrImpersonateTheDelivery) {
  for (const char* name : {"Content-Length", "transfer-encoding", "Host", "Connection", "TE",
                           "Upgrade", "Keep-Alive", "Trailer", "Expect", "Proxy-Authorization",
                           "proxy-connection", "Content-Type", "x-gleaner-delivery"}) {
    EXPECT_EQ(hook_with("headers", {{name, "1"}}),
              Failure(ErrorCode::InvalidParameter, std::string("webhook.headers.") + name))
        << name;
  }
  EXPECT_EQ(hook_with("headers", {{"X-A", std::string("v\0w", 3)}}),
            Failure(ErrorCode::InvalidParameter, "webhook.headers.X-A"));
  json b = valid_body();
  b["webhook"]["headers"] = {{"Authorization", "Bearer t"}, {"User-Agent", "mine/1"}};
  EXPECT_EQ(JobRequest::parse(b.dump(), check_url).webhook->headers.size(), 2u);
}

// Issue 23, item 5: webhook.headers took 51 entries and 100 KB values, webhook.url 100 KB. The
// page fetch's header count applies, with a bound on each value and on the URL's length.
TEST(JobRequest, WebhookHeadersAndUrlAreBounded) {
  json headers = json::object();
  for (std::size_t i = 0; i < http_header::kMaxCustomHeaders; ++i) {
    headers["X-H" + std::to_string(i)] = "v";
  }
  json b = valid_body();
  b["webhook"]["headers"] = headers;
  EXPECT_EQ(JobRequest::parse(b.dump(), check_url).webhook->headers.size(),
            http_header::kMaxCustomHeaders);
  headers["X-One-More"] = "v";
  EXPECT_EQ(hook_with("headers", headers),
            Failure(ErrorCode::InvalidParameter, "webhook.headers"));

  b["webhook"]["headers"] = {{"X-Long", std::string(http_header::kMaxCustomHeaderValue, 'v')}};
  EXPECT_NO_THROW(JobRequest::parse(b.dump(), check_url));
  EXPECT_EQ(hook_with("headers",
                      {{"X-Long", std::string(http_header::kMaxCustomHeaderValue + 1, 'v')}}),
            Failure(ErrorCode::InvalidParameter, "webhook.headers.X-Long"));
  EXPECT_EQ(hook_with("headers", {{"X-Long", std::string(100'000, 'v')}}),
            Failure(ErrorCode::InvalidParameter, "webhook.headers.X-Long"));

  const std::string base = "https://hooks.example.com/";
  b["webhook"]["headers"] = json::object();
  b["webhook"]["url"] = base + std::string(2048 - base.size(), 'p');
  EXPECT_NO_THROW(JobRequest::parse(b.dump(), check_url));
  EXPECT_EQ(hook_with("url", base + std::string(100'000, 'p')),
            Failure(ErrorCode::InvalidParameter, "webhook.url"));
}

// Issue 16, item 6: a million keyword × location pairs were accepted.
TEST(JobRequest, AJobMakesAtMostTheBoundedNumberOfSearches) {
  json keywords = json::array();
  json locations = json::array();
  for (int i = 0; i < 100; ++i) keywords.push_back("k" + std::to_string(i));
  for (int i = 0; i < 10; ++i) locations.push_back("CUSTOM>Town " + std::to_string(i));
  json b = valid_body();
  b["keywords"] = keywords;
  b["locations"] = locations;
  EXPECT_EQ(JobRequest::parse(b.dump(), check_url).keywords.size(), 100u);  // 1,000 pairs
  b["locations"].push_back("CUSTOM>Town 10");
  EXPECT_EQ(failure_of(b.dump()), Failure(ErrorCode::InvalidParameter, "locations"));
  static_assert(kMaxPairsPerJob == 1000);
  EXPECT_EQ(with("keywords", {std::string(kMaxTermLength + 1, 'a')}),
            Failure(ErrorCode::InvalidParameter, "keywords[0]"));
}

store::Job job_with(const json& input) {
  store::Job job;
  job.id = "job-1";
  job.status = store::job_status::kInProgress;
  job.input = input;
  job.created_at = job.updated_at = store::from_unix_seconds(1'800'000'000);
  return job;
}

TEST(JobRequest, WebhookBodiesAreMadeOnlyForSubscribedKinds) {
  const store::Job job = job_with(valid_body());  // subscribed to finished only
  const auto at = store::from_unix_seconds(1'800'000'060);
  EXPECT_FALSE(webhook_body(job, event::kStarted, at).has_value());
  EXPECT_FALSE(webhook_body(job, event::kDataScraped, at).has_value());
  auto finished = webhook_body(job, event::kFinished, at);
  ASSERT_TRUE(finished.has_value());
  EXPECT_EQ(json::parse(*finished), json({{"event", "scraper.job.finished"},
                                          {"jobId", "job-1"},
                                          {"jobStatus", "in_progress"},
                                          {"timestamp", "2027-01-15T08:01:00Z"}}));
  json no_hook = valid_body();
  no_hook.erase("webhook");
  EXPECT_FALSE(webhook_body(job_with(no_hook), event::kFinished, at).has_value());
}

TEST(JobRequest, TheJobIsShownWithItsCountersAndDeliveries) {
  store::Job job = job_with(valid_body());
  job.rows_count = 3;
  job.credits_spent = 15;
  store::DeliveryWithAttempts d;
  d.delivery.id = 7;
  d.delivery.event = event::kFinished;
  d.delivery.status = store::delivery_status::kFailed;
  d.delivery.created_at = job.created_at;
  d.attempts.push_back({1, job.created_at, 503, "http_error", "HTTP 503"});
  json shown = job_details_json(job, {d});
  EXPECT_EQ(shown["id"], "job-1");
  EXPECT_EQ(shown["dataRowsCount"], 3);
  EXPECT_EQ(shown["creditsSpent"], 15);
  EXPECT_EQ(shown["createdAt"], "2027-01-15T08:00:00Z");
  EXPECT_EQ(shown["input"], valid_body());
  EXPECT_EQ(shown["webhookDeliveries"][0]["status"], "failed");
  EXPECT_EQ(shown["webhookDeliveries"][0]["attempts"][0]["httpStatus"], 503);
}

TEST(JobRequest, RowsAsCsvQuoteWhatNeedsQuoting) {
  std::vector<json> rows = {{{"name", "Café \"1\", Plaka"},
                             {"placeId", "p1"},
                             {"rating", 4.5},
                             {"categories", {"Cafe", "Bakery"}}}};
  EXPECT_EQ(rows_csv(rows),
            "name,categories,address,phone,website,rating,reviewCount,latitude,longitude,placeId,"
            "openingHours,mapsUrl,emails,keyword,location\r\n"
            "\"Café \"\"1\"\", Plaka\",\"[\"\"Cafe\"\",\"\"Bakery\"\"]\",,,,4.5,,,,p1,,,,,\r\n");
}

// Issue 34, finding 5: page text became a formula in the spreadsheet that opened the export.
TEST(JobRequest, CsvCellsAFormulaCouldStartWithAreWrittenAfterAQuote) {
  const std::vector<std::string> fields = {"a", "b", "c", "d", "e", "f", "g"};
  const json row = {{"a", "=HYPERLINK(\"http://x\")"},
                    {"b", "+1"},
                    {"c", "-2+3"},
                    {"d", "@SUM(A1)"},
                    {"e", "\tx"},
                    {"f", "\rx"},
                    {"g", "a=b"}};
  EXPECT_EQ(csv_lines({row}, fields),
            "\"'=HYPERLINK(\"\"http://x\"\")\",\"'+1\",\"'-2+3\",\"'@SUM(A1)\",\"'\tx\","
            "\"'\rx\",a=b\r\n");
  // Numbers stay numbers; text that merely contains a sign is left as it is.
  const json plain = {{"a", -33.86}, {"b", "x-y"}, {"c", json::array({"=1"})}};
  EXPECT_EQ(csv_lines({plain}, {"a", "b", "c"}), "-33.86,x-y,\"[\"\"=1\"\"]\"\r\n");
}

// Issue 34, finding 2: a body nested 50,000 deep was copied and dumped recursively.
TEST(PageJobRequestDepth, DeepBodiesAreInvalidJsonBeforeAnythingCopiesThem) {
  const std::string deep = std::string(50'000, '[') + std::string(50'000, ']');
  const auto no_check = [](const std::string&, const std::string&) {};
  for (const std::string field : {"extractRules", "urls", "webhook", "somethingElse"}) {
    SCOPED_TRACE(field);
    const std::string body =
        R"({"urls": ["https://example.com/"], ")" + field + "\": " + deep + "}";
    for (int kind = 0; kind < 3; ++kind) {
      try {
        if (kind == 0) PageJobRequest::parse_batch(body, Millis(30'000), no_check);
        if (kind == 1) PageJobRequest::parse_crawler(body, Millis(30'000), no_check);
        if (kind == 2) JobRequest::parse(body, no_check);
        ADD_FAILURE() << "accepted";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidJson) << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace gleaner::jobs
