// The job API's routes over a real SQLite store, called through the Router as the server does
// (the server's error mapping turns the thrown gleaner::Error into the status; api/ tests it).
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "api/admission.h"
#include "api/metrics.h"
#include "api/routes/routes.h"
#include "api/server.h"
#include "browser/pool.h"
#include "core/error.h"
#include "jobs/job_export.h"
#include "jobs/job_request.h"
#include "jobs/job_store_of.h"
#include "proxies/gateway.h"
#include "proxies/resolver.h"
#include "screenshots/serve.h"
#include "store/store.h"
#include "tests/jobs/job_bodies.h"
#include "tests/support/answer_log.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

/// A resolver for which no name exists.
class NoNames final : public proxies::Resolver {
 public:
  proxies::Resolution resolve(const std::string& name) override {
    return {{}, name + " does not resolve"};
  }
};

class JobsApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gleaner-jobs-api-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    deps_.config.set("store", "sqlite:" + (dir_ / "store.db").string());
    deps_.config.set("node_id", "test-node");
    deps_.store = store::open_store(deps_.config, SystemClock::instance(), store::StoreRole::Node);
    deps_.jobs = jobs::job_store_of(deps_.config, *deps_.store);
    // No DNS here: fixed answers, and every other name does not resolve.
    deps_.resolver = std::make_shared<proxies::OverrideResolver>(
        proxies::OverrideResolver::parse(
            {{"hooks.internal.example", "10.0.0.7"}, {"hooks.example.com", "93.184.216.34"}}),
        std::make_shared<NoNames>());
    api::add_jobs_routes(router_, deps_);
    owner_ = new_key("owner");
    other_ = new_key("other");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string new_key(const std::string& name) {
    store::NewAccount a;
    a.name = name;
    a.allowance = 100;
    return deps_.store->create_account(a).key.key;
  }

  api::Response call(const std::string& method, const std::string& path, const std::string& key,
                     const std::string& body = {}, api::Query query = {}) {
    auto match = router_.match(method, path);
    EXPECT_NE(match.handler, nullptr) << method << " " << path;
    api::Request request;
    request.method = method;
    request.path = path;
    request.route = match.pattern;
    request.path_params = match.params;
    request.query = std::move(query);
    request.headers["x-api-key"] = key;
    request.body = body;
    return gleaner::testing::answer_recorded(request, [&] { return (*match.handler)(request); });
  }

  /// The gleaner::Error code `method path` throws, with its parameter.
  std::pair<ErrorCode, std::string> failure(const std::string& method, const std::string& path,
                                            const std::string& key, const std::string& body = {},
                                            api::Query query = {}) {
    try {
      call(method, path, key, body, std::move(query));
    } catch (const Error& e) {
      return {e.code(), e.parameter().value_or("")};
    }
    ADD_FAILURE() << "expected an error from " << method << " " << path;
    return {ErrorCode::Internal, ""};
  }

  std::pair<ErrorCode, std::string> bad_body(const json& body) {
    return failure("POST", "/scrapers/maps/jobs", owner_, body.dump());
  }

  static json valid_body() { return testing::valid_job_body(); }

  /// The routes again, after a change of configuration.
  void reroute() {
    router_ = api::Router();
    api::add_jobs_routes(router_, deps_);
  }

  /// A route's answer as the handler gives it (an answer in pieces not read yet).
  api::Response open_answer(const std::string& path, const std::string& key, api::Query query) {
    auto match = router_.match("GET", path);
    EXPECT_NE(match.handler, nullptr) << path;
    api::Request request;
    request.method = "GET";
    request.path = path;
    request.route = match.pattern;
    request.path_params = match.params;
    request.query = std::move(query);
    request.headers["x-api-key"] = key;
    return (*match.handler)(request);
  }

  /// A maps job of `key`'s with `count` rows of about `size` characters each, stored directly
  /// (free); the rows, as stored, in `stored`.
  std::string job_with_rows(const std::string& key, int count, std::size_t size,
                            std::vector<json>* stored = nullptr) {
    const std::string id = call("POST", "/scrapers/maps/jobs", key, valid_body().dump()).body["id"];
    auto jobs = job_store_of(deps_.config, *deps_.store);
    const store::Job job = *jobs->job(id);
    std::vector<store::JobRow> rows;
    for (int i = 0; i < count; ++i) {
      const std::string place = "place-" + std::to_string(i);
      // A name a spreadsheet would take for a formula, and a long text cell.
      json data = {{"name", i == 0 ? "=1+1" : "Café " + std::to_string(i)},
                   {"placeId", place},
                   {"rating", i % 5},
                   {"address", std::string(size, static_cast<char>('a' + i % 26))}};
      if (stored) stored->push_back(data);
      rows.push_back({place, std::move(data)});
      if (rows.size() == 50 || i + 1 == count) {
        jobs->store_rows(job, rows, 0, "maps_job_row",
                         [](const std::vector<json>&) { return std::nullopt; });
        rows.clear();
      }
    }
    return id;
  }

  std::filesystem::path dir_;
  api::Dependencies deps_;
  api::Router router_;
  std::string owner_;
  std::string other_;
};

TEST_F(JobsApiTest, CreatingAJobAnswers201WithThePendingJob) {
  api::Response r = call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump());
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.body["status"], "pending");
  EXPECT_EQ(r.body["creditsSpent"], 0);
  EXPECT_EQ(r.body["dataRowsCount"], 0);
  EXPECT_EQ(r.body["input"], valid_body());
  EXPECT_TRUE(r.body.contains("createdAt"));
  const std::int64_t pairs =
      static_cast<std::int64_t>(valid_body()["keywords"].size() * valid_body()["locations"].size());
  EXPECT_EQ(r.body["progress"], json({{"pairsDone", 0}, {"pairsTotal", pairs}}));
  const std::string id = r.body["id"];
  EXPECT_EQ(call("GET", "/scrapers/jobs/" + id, owner_).body["id"], id);
}

TEST_F(JobsApiTest, DefaultsAreWrittenIntoTheStoredInput) {
  json body = {{"keywords", {" pizza "}},
               {"locations", {"CUSTOM>Rome"}},
               {"webhook", {{"url", "http://hooks.example.com/"}}}};
  json input = call("POST", "/scrapers/maps/jobs", owner_, body.dump()).body["input"];
  EXPECT_EQ(input["keywords"], json({"pizza"}));
  EXPECT_EQ(input["extractEmails"], false);
  EXPECT_FALSE(input.contains("limit"));
  EXPECT_EQ(input["webhook"]["events"],
            json({"scraper.job.started", "scraper.data.scraped", "scraper.job.finished"}));
}

TEST_F(JobsApiTest, EveryFieldIsValidated) {
  using P = std::pair<ErrorCode, std::string>;
  EXPECT_EQ(failure("POST", "/scrapers/maps/jobs", owner_, "{not json").first,
            ErrorCode::InvalidJson);
  EXPECT_EQ(failure("POST", "/scrapers/maps/jobs", owner_, "[1]").first, ErrorCode::InvalidJson);
  auto with = [](const std::string& field, const json& value) {
    json b = valid_body();
    b[field] = value;
    return b;
  };
  auto hook_with = [](const std::string& field, const json& value) {
    json b = valid_body();
    b["webhook"][field] = value;
    return b;
  };
  json no_keywords = valid_body();
  no_keywords.erase("keywords");
  EXPECT_EQ(bad_body(no_keywords), P(ErrorCode::MissingParameter, "keywords"));
  EXPECT_EQ(bad_body(with("keywords", json::array())), P(ErrorCode::InvalidParameter, "keywords"));
  EXPECT_EQ(bad_body(with("keywords", {"a", "  "})), P(ErrorCode::InvalidParameter, "keywords[1]"));
  EXPECT_EQ(bad_body(with("keywords", {"a", 3})), P(ErrorCode::InvalidParameter, "keywords[1]"));
  EXPECT_EQ(bad_body(with("keywords", "coffee")), P(ErrorCode::InvalidParameter, "keywords"));
  EXPECT_EQ(bad_body(with("locations", {"Athens"})),
            P(ErrorCode::InvalidParameter, "locations[0]"));
  EXPECT_EQ(bad_body(with("locations", {"CUSTOM>Rome", "CUSTOM>  "})),
            P(ErrorCode::InvalidParameter, "locations[1]"));
  EXPECT_EQ(bad_body(with("extractEmails", "yes")),
            P(ErrorCode::InvalidParameter, "extractEmails"));
  EXPECT_EQ(bad_body(with("limit", 0)), P(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(bad_body(with("limit", 1.5)), P(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(bad_body(with("limit", kMaxLimitPerPair + 1)), P(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(bad_body(with("colour", "red")), P(ErrorCode::InvalidParameter, "colour"));
  EXPECT_EQ(bad_body(with("webhook", "https://x.example")),
            P(ErrorCode::InvalidParameter, "webhook"));
  EXPECT_EQ(bad_body(hook_with("url", "ftp://x.example/")),
            P(ErrorCode::InvalidParameter, "webhook.url"));
  EXPECT_EQ(bad_body(hook_with("url", "not a url")), P(ErrorCode::InvalidParameter, "webhook.url"));
  // The address guard: loopback, private and metadata addresses are refused by default.
  EXPECT_EQ(bad_body(hook_with("url", "http://127.0.0.1:8080/")),
            P(ErrorCode::InvalidParameter, "webhook.url"));
  EXPECT_EQ(bad_body(hook_with("url", "http://localhost/")),
            P(ErrorCode::InvalidParameter, "webhook.url"));
  EXPECT_EQ(bad_body(hook_with("url", "http://10.1.2.3/")),
            P(ErrorCode::InvalidParameter, "webhook.url"));
  EXPECT_EQ(bad_body(hook_with("url", "http://169.254.169.254/latest")),
            P(ErrorCode::InvalidParameter, "webhook.url"));
  EXPECT_EQ(bad_body(hook_with("events", {"scraper.job.done"})),
            P(ErrorCode::InvalidParameter, "webhook.events[0]"));
  EXPECT_EQ(bad_body(hook_with("events", json::array())),
            P(ErrorCode::InvalidParameter, "webhook.events"));
  EXPECT_EQ(bad_body(hook_with("headers", {{"X-Count", 3}})),
            P(ErrorCode::InvalidParameter, "webhook.headers.X-Count"));
  EXPECT_EQ(bad_body(hook_with("headers", {{"Bad Name", "v"}})),
            P(ErrorCode::InvalidParameter, "webhook.headers.Bad Name"));
  EXPECT_EQ(bad_body(hook_with("headers", {{"X-A", "v\r\nX-B: w"}})),
            P(ErrorCode::InvalidParameter, "webhook.headers.X-A"));
  EXPECT_EQ(bad_body(hook_with("secret", "x")), P(ErrorCode::InvalidParameter, "webhook.secret"));
  json no_url = valid_body();
  no_url["webhook"].erase("url");
  EXPECT_EQ(bad_body(no_url), P(ErrorCode::MissingParameter, "webhook.url"));
  EXPECT_EQ(failure("POST", "/scrapers/maps/jobs", "", valid_body().dump()).first,
            ErrorCode::MissingApiKey);
}

// Issue 16, item 5: a webhook name that resolves to a refused address was accepted and then
// refused at every delivery; /scrape/web refuses such a page URL at once.
TEST_F(JobsApiTest, AWebhookNameResolvingToAPrivateAddressIsRefusedAtCreation) {
  json body = valid_body();
  body["webhook"]["url"] = "https://hooks.internal.example/in";
  EXPECT_EQ(bad_body(body), std::make_pair(ErrorCode::InvalidParameter, std::string("webhook.url")));
  body["webhook"]["url"] = "https://hooks.example.com/in";
  EXPECT_EQ(call("POST", "/scrapers/maps/jobs", owner_, body.dump()).status, 201);
  // A name that does not resolve now passes: every delivery resolves and checks again.
  body["webhook"]["url"] = "https://not-yet.example.org/in";
  EXPECT_EQ(call("POST", "/scrapers/maps/jobs", owner_, body.dump()).status, 201);
}

// Issue 16, item 6: GET /scrapers/jobs took unknown and repeated parameters, unlike every other
// route.
TEST_F(JobsApiTest, ListingQueriesRefuseUnknownAndRepeatedParameters) {
  using P = std::pair<ErrorCode, std::string>;
  EXPECT_EQ(failure("GET", "/scrapers/jobs", owner_, {}, {{"pgae", "2"}}),
            P(ErrorCode::InvalidParameter, "pgae"));
  EXPECT_EQ(failure("GET", "/scrapers/jobs", owner_, {}, {{"page", "1"}, {"page", "2"}}),
            P(ErrorCode::InvalidParameter, "page"));
  EXPECT_EQ(failure("GET", "/scrapers/jobs", owner_, {}, {{"limit", "1001"}}),
            P(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(call("GET", "/scrapers/jobs", owner_, {}, {{"page", "1"}, {"limit", "5"}}).body["limit"],
            5);
  const std::string id =
      call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).body["id"];
  EXPECT_EQ(failure("GET", "/scrapers/jobs/" + id + "/results", owner_, {}, {{"fromat", "csv"}}),
            P(ErrorCode::InvalidParameter, "fromat"));
  EXPECT_EQ(failure("GET", "/scrapers/jobs/" + id + "/results", owner_, {},
                    {{"format", "csv"}, {"format", "json"}}),
            P(ErrorCode::InvalidParameter, "format"));
}

TEST_F(JobsApiTest, LoopbackWebhooksPassWhenTheConfigurationAllowsThem) {
  deps_.config.set("allow_private_addresses", true);
  api::Router allowing;
  api::add_jobs_routes(allowing, deps_);
  router_ = std::move(allowing);
  json body = valid_body();
  body["webhook"]["url"] = "http://127.0.0.1:9/hook";
  EXPECT_EQ(call("POST", "/scrapers/maps/jobs", owner_, body.dump()).status, 201);
}

TEST_F(JobsApiTest, OnlyTheCreatingKeySeesAJob) {
  const std::string id =
      call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).body["id"];
  // Another account, and another key of the same account (conventions.md: "Only the key that
  // created a job sees it").
  auto owner_account = deps_.store->authenticate(owner_);
  ASSERT_TRUE(owner_account);
  const std::string second_key = deps_.store->create_key(owner_account->id).key;
  for (const std::string& stranger : {other_, second_key}) {
    EXPECT_EQ(failure("GET", "/scrapers/jobs/" + id, stranger).first, ErrorCode::NotFound);
    EXPECT_EQ(failure("GET", "/scrapers/jobs/" + id + "/results", stranger).first,
              ErrorCode::NotFound);
    EXPECT_EQ(failure("DELETE", "/scrapers/jobs/" + id, stranger).first, ErrorCode::NotFound);
    EXPECT_EQ(call("GET", "/scrapers/jobs", stranger).body["total"], 0);
  }
  json mine = call("GET", "/scrapers/jobs", owner_).body;
  EXPECT_EQ(mine["total"], 1);
  ASSERT_EQ(mine["jobs"].size(), 1u);
  EXPECT_EQ(mine["jobs"][0]["id"], id);
  EXPECT_EQ(failure("GET", "/scrapers/jobs/no-such-job", owner_).first, ErrorCode::NotFound);
}

// Issue 41, item 2: stored results have a quota per account, and the store's disk is watched;
// past either, a new job of any kind is a 507 naming why, before anything is stored.
TEST_F(JobsApiTest, NewJobsAre507OnceTheAccountIsOverItsQuota) {
  deps_.config.set("account_stored_bytes_quota", 100);
  deps_.jobs = job_store_of(deps_.config, *deps_.store);
  api::Router quota;
  api::add_jobs_routes(quota, deps_);
  router_ = std::move(quota);
  const std::string id =
      call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).body["id"];
  const store::Job job = *deps_.jobs->job(id);
  deps_.jobs->store_rows(job, {{"big", {{"placeId", "big"}, {"name", std::string(200, 'n')}}}}, 5,
                         "maps_job_row", [](const std::vector<json>&) { return std::nullopt; });
  const json batch = {{"urls", {"https://example.com/"}}};
  EXPECT_EQ(failure("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).first,
            ErrorCode::StorageQuotaExceeded);
  EXPECT_EQ(failure("POST", "/scrape/batch/web", owner_, batch.dump()).first,
            ErrorCode::StorageQuotaExceeded);
  EXPECT_EQ(failure("POST", "/scrapers/crawler/jobs", owner_, batch.dump()).first,
            ErrorCode::StorageQuotaExceeded);
  EXPECT_EQ(call("GET", "/scrapers/jobs", owner_).body["total"], 1);  // nothing was created
  // Another account has its own room.
  EXPECT_EQ(call("POST", "/scrape/batch/web", other_, batch.dump()).status, 201);
}

// Deleting an ended job's rows is how an account at its quota takes new jobs again.
TEST_F(JobsApiTest, DeletingAnEndedJobsResultsMakesRoomForNewJobs) {
  deps_.config.set("account_stored_bytes_quota", 100);
  deps_.jobs = job_store_of(deps_.config, *deps_.store);
  reroute();
  const std::string id =
      call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).body["id"];
  const store::Job job = *deps_.jobs->job(id);
  deps_.jobs->store_rows(job, {{"big", {{"placeId", "big"}, {"name", std::string(200, 'n')}}}}, 5,
                         "maps_job_row", [](const std::vector<json>&) { return std::nullopt; });
  EXPECT_EQ(failure("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).first,
            ErrorCode::StorageQuotaExceeded);
  const std::string results = "/scrapers/jobs/" + id + "/results";
  EXPECT_EQ(failure("DELETE", results, owner_).first, ErrorCode::JobNotEnded);  // pending
  EXPECT_EQ(failure("DELETE", results, other_).first, ErrorCode::NotFound);
  ASSERT_EQ(call("DELETE", "/scrapers/jobs/" + id, owner_).body["status"], "stopped");
  const json deleted = call("DELETE", results, owner_).body;
  EXPECT_EQ(deleted["id"], id);
  EXPECT_EQ(deleted["dataRowsCount"], 1);
  EXPECT_EQ(deleted["creditsSpent"], 5);
  EXPECT_TRUE(deleted.contains("resultsDeletedAt"));
  EXPECT_EQ(call("GET", "/scrapers/jobs/" + id, owner_).body["resultsDeletedAt"],
            deleted["resultsDeletedAt"]);
  const json page = json::parse(*call("GET", results, owner_).raw_body);
  EXPECT_EQ(page["total"], 0);
  EXPECT_EQ(page["data"], json::array());
  EXPECT_EQ(call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).status, 201);
}

TEST_F(JobsApiTest, NewJobsAre507WhileTheDiskIsShortOfRoom) {
  deps_.config.set("min_free_disk_bytes", static_cast<long long>(std::int64_t{1} << 62));
  deps_.jobs = job_store_of(deps_.config, *deps_.store);
  api::Router full;
  api::add_jobs_routes(full, deps_);
  router_ = std::move(full);
  const json batch = {{"urls", {"https://example.com/"}}};
  EXPECT_EQ(failure("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).first,
            ErrorCode::InsufficientStorage);
  EXPECT_EQ(failure("POST", "/scrape/batch/web", owner_, batch.dump()).first,
            ErrorCode::InsufficientStorage);
  EXPECT_EQ(call("GET", "/scrapers/jobs", owner_).body["total"], 0);
}

TEST_F(JobsApiTest, ResultsArePagedAsJsonAndCsv) {
  const std::string id =
      call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).body["id"];
  auto jobs = job_store_of(deps_.config, *deps_.store);
  const store::Job job = *jobs->job(id);
  std::vector<store::JobRow> rows;
  for (int i = 1; i <= 3; ++i) {
    rows.push_back({"place-" + std::to_string(i),
                    {{"name", "Café \"" + std::to_string(i) + "\", Plaka"},
                     {"placeId", "place-" + std::to_string(i)},
                     {"rating", 4.5},
                     {"categories", {"Cafe", "Bakery"}}}});
  }
  jobs->store_rows(job, rows, 5, "maps_job_row",
                   [](const std::vector<json>&) { return std::nullopt; });

  api::Response page2_answer =
      call("GET", "/scrapers/jobs/" + id + "/results", owner_, {}, {{"page", "2"}, {"limit", "2"}});
  EXPECT_EQ(page2_answer.content_type, "application/json");
  const json page2 = json::parse(*page2_answer.raw_body);
  EXPECT_EQ(page2["requestMetadata"]["status"], "ok");
  EXPECT_EQ(page2["page"], 2);
  EXPECT_EQ(page2["limit"], 2);
  EXPECT_EQ(page2["total"], 3);
  ASSERT_EQ(page2["data"].size(), 1u);
  EXPECT_EQ(page2["data"][0]["placeId"], "place-3");

  api::Response csv = call("GET", "/scrapers/jobs/" + id + "/results", owner_, {},
                           {{"format", "csv"}, {"limit", "1"}});
  ASSERT_TRUE(csv.raw_body.has_value());
  EXPECT_EQ(csv.content_type, "text/csv; charset=utf-8");
  EXPECT_EQ(
      *csv.raw_body,
      "name,categories,address,phone,website,rating,reviewCount,latitude,longitude,placeId,"
      "openingHours,mapsUrl,emails,keyword,location\r\n"
      "\"Café \"\"1\"\", Plaka\",\"[\"\"Cafe\"\",\"\"Bakery\"\"]\",,,,4.5,,,,place-1,,,,,\r\n");

  EXPECT_EQ(failure("GET", "/scrapers/jobs/" + id + "/results", owner_, {}, {{"limit", "0"}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("limit")));
  EXPECT_EQ(failure("GET", "/scrapers/jobs/" + id + "/results", owner_, {}, {{"page", "x"}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("page")));
  EXPECT_EQ(failure("GET", "/scrapers/jobs/" + id + "/results", owner_, {}, {{"format", "xml"}}),
            std::make_pair(ErrorCode::InvalidParameter, std::string("format")));
}

TEST_F(JobsApiTest, StoppingAPendingJobEndsItAndQueuesTheFinishedEvent) {
  const std::string id =
      call("POST", "/scrapers/maps/jobs", owner_, valid_body().dump()).body["id"];
  json stopped = call("DELETE", "/scrapers/jobs/" + id, owner_).body;
  EXPECT_EQ(stopped["status"], "stopped");
  EXPECT_EQ(stopped["reason"], "stopped_by_user");
  json details = call("GET", "/scrapers/jobs/" + id, owner_).body;
  ASSERT_EQ(details["webhookDeliveries"].size(), 1u);
  EXPECT_EQ(details["webhookDeliveries"][0]["event"], "scraper.job.finished");
  EXPECT_EQ(details["webhookDeliveries"][0]["status"], "pending");
  // Stopping again changes nothing.
  EXPECT_EQ(call("DELETE", "/scrapers/jobs/" + id, owner_).body["status"], "stopped");
  EXPECT_EQ(call("GET", "/scrapers/jobs/" + id, owner_).body["webhookDeliveries"].size(), 1u);
}

/// The texts `format` gives for `rows` as the export wrote them before it was streamed (the whole
/// job read, then written): what the streamed export must still give, byte for byte.
std::string written_whole(const std::vector<json>& rows, const std::string& format) {
  if (format == "csv") return csv_header(row_fields("maps")) + csv_lines(rows, row_fields("maps"));
  std::string out;
  for (const json& row : rows) out += row.dump() + "\n";
  return out;
}

// Issue 41, item 3: an export of a large job holds one bounded page of rows at a time, not the
// job, and writes what the whole-job export wrote.
TEST_F(JobsApiTest, AnExportHoldsOnePageOfRowsWhateverTheJobsSize) {
  std::vector<json> rows;
  constexpr std::size_t kRowSize = 100 * 1000;
  const std::string id = job_with_rows(owner_, 300, kRowSize, &rows);  // 30 MB of rows
  auto jobs = job_store_of(deps_.config, *deps_.store);
  const std::int64_t total = 300 * static_cast<std::int64_t>(kRowSize);
  const ExportPaging paging;  // the route's
  for (const auto& [format, name] :
       {std::pair{ExportFormat::Csv, "csv"}, std::pair{ExportFormat::Ndjson, "ndjson"}}) {
    SCOPED_TRACE(name);
    JobExport out(jobs, id, "maps", format, 0, std::nullopt);
    std::string text;
    int pieces = 0;
    while (auto piece = out.next()) {
      text += *piece;
      ++pieces;
    }
    EXPECT_EQ(text, written_whole(rows, name));
    EXPECT_GT(pieces, 10);
    // At most one read's worth of rows at once: max_bytes of text (or one row over it).
    EXPECT_LE(out.held().bytes, std::max<std::int64_t>(paging.max_bytes, kRowSize + 1000));
    EXPECT_LE(out.held().rows, paging.max_rows);
    EXPECT_LT(out.held().bytes * 20, total);
    // The route's answer is the same text.
    api::Response answer =
        call("GET", "/scrapers/jobs/" + id + "/results", owner_, {}, {{"format", name}});
    ASSERT_TRUE(answer.raw_body);
    EXPECT_EQ(*answer.raw_body, text);
  }
  // CSV cells a spreadsheet would run are still escaped (issue 34, item 6).
  JobExport csv(jobs, id, "maps", ExportFormat::Csv, 0, 1);
  std::string first_rows;
  while (auto piece = csv.next()) first_rows += *piece;
  EXPECT_NE(first_rows.find("\r\n\"'=1+1\","), std::string::npos) << first_rows.substr(0, 300);

  // A JSON page of 100 rows from the 101st: the page of the envelope, its rows as stored.
  api::Response page = call("GET", "/scrapers/jobs/" + id + "/results", owner_, {},
                            {{"page", "2"}, {"limit", "100"}});
  const json body = json::parse(*page.raw_body);
  EXPECT_EQ(body["total"], 300);
  EXPECT_EQ(body["page"], 2);
  ASSERT_EQ(body["data"].size(), 100u);
  EXPECT_EQ(body["data"][0], rows[100]);
  EXPECT_EQ(body["data"][99], rows[199]);
  JobExport json_page(jobs, id, "maps", ExportFormat::JsonPage, 100, 100, "[", "]");
  while (json_page.next()) {
  }
  EXPECT_LE(json_page.held().bytes, paging.max_bytes);
  // Past the last row: an empty page.
  const json past = json::parse(*call("GET", "/scrapers/jobs/" + id + "/results", owner_, {},
                                      {{"page", "4"}, {"limit", "100"}})
                                     .raw_body);
  EXPECT_EQ(past["data"], json::array());
  EXPECT_EQ(past["total"], 300);
}

// Exports are sent a bounded number at a time, per account and per node: one more is a 429 that
// says which, until one ends.
TEST_F(JobsApiTest, ExportsAreBoundedPerAccountAndPerNode) {
  deps_.config.set("max_exports_per_account", 1);
  deps_.config.set("max_exports", 2);
  reroute();
  const std::string third = new_key("third");
  const std::string mine = job_with_rows(owner_, 3, 10);
  const std::string others = job_with_rows(other_, 3, 10);
  const std::string thirds = job_with_rows(third, 3, 10);
  auto results = [](const std::string& id) { return "/scrapers/jobs/" + id + "/results"; };

  std::optional<api::Response> first = open_answer(results(mine), owner_, {{"format", "csv"}});
  ASSERT_TRUE(first->pieces);
  // The error an export refused at once throws.
  auto refusal = [&](const std::string& path, const std::string& key) -> std::optional<Error> {
    try {
      open_answer(path, key, {});
    } catch (const Error& e) {
      return e;
    }
    return std::nullopt;
  };
  const auto account_full = refusal(results(mine), owner_);
  ASSERT_TRUE(account_full) << "a second export of the account was let through";
  EXPECT_EQ(account_full->code(), ErrorCode::TooManyRequests);
  EXPECT_NE(std::string(account_full->what()).find("this account"), std::string::npos);
  EXPECT_EQ(account_full->retry_after(), std::chrono::seconds(1));
  // Another account has its own; then the node is full for everybody.
  api::Response second = open_answer(results(others), other_, {{"format", "ndjson"}});
  const auto node_full = refusal(results(thirds), third);
  ASSERT_TRUE(node_full) << "a third export on a node of two was let through";
  EXPECT_EQ(node_full->code(), ErrorCode::TooManyRequests);
  EXPECT_NE(std::string(node_full->what()).find("this node"), std::string::npos);
  // Read to its end and released, an export gives its slot back.
  while (first->pieces()) {
  }
  first.reset();
  EXPECT_EQ(call("GET", results(thirds), third).status, 200);
  EXPECT_EQ(call("GET", results(mine), owner_).status, 200);
}

/// Reads from `fd` until `marker` has arrived or 10 s pass.
bool read_until(int fd, const std::string& marker) {
  std::string seen;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (seen.find(marker) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char buffer[4096];
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    seen.append(buffer, static_cast<std::size_t>(n));
  }
  return seen.find(marker) != std::string::npos;
}

// Through the HTTP server: the export is sent chunked, whole; a client that hangs up in the middle
// ends it, and its slot is given back.
TEST_F(JobsApiTest, AnExportIsSentInChunksAndAClientThatHangsUpEndsIt) {
  deps_.config.set("max_exports_per_account", 1);
  reroute();
  std::vector<json> rows;
  const std::string id = job_with_rows(owner_, 200, 100 * 1000, &rows);  // 20 MB
  api::ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.threads = 4;
  api::HttpServer server(options, std::move(router_));
  const int port = server.bind();
  std::thread serving([&] { server.run(); });
  const std::string path = "/scrapers/jobs/" + id + "/results";

  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  auto whole = client.Get((path + "?format=csv").c_str(), {{"x-api-key", owner_}});
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->status, 200);
  EXPECT_EQ(whole->get_header_value("Transfer-Encoding"), "chunked");
  EXPECT_EQ(whole->get_header_value("Content-Type"), "text/csv; charset=utf-8");
  EXPECT_EQ(whole->body, written_whole(rows, "csv"));

  {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    const int small_buffer = 4096;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small_buffer, sizeof small_buffer);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    const std::string request = "GET " + path + "?format=ndjson HTTP/1.1\r\nHost: x\r\n" +
                                "x-api-key: " + owner_ + "\r\n\r\n";
    ASSERT_EQ(send(fd, request.data(), request.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(request.size()));
    EXPECT_TRUE(read_until(fd, "\r\n\r\n"));  // the head: the export has begun
    // While it is being sent, the account's one slot is taken.
    auto refused = client.Get((path + "?limit=1").c_str(), {{"x-api-key", owner_}});
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 429);
    EXPECT_EQ(json::parse(refused->body)["error"]["code"], "too_many_requests");
    close(fd);  // gone, 20 MB unread
  }
  // The export ended with the connection: the account may export again.
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (status != 200 && std::chrono::steady_clock::now() < deadline) {
    auto again = client.Get((path + "?limit=1").c_str(), {{"x-api-key", owner_}});
    status = again ? again->status : 0;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(status, 200);
  server.stop();
  serving.join();
}

}  // namespace
}  // namespace gleaner::jobs
