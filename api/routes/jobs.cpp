// Scraper jobs (spec/conventions.md "Scraper jobs and webhooks", "Batches and crawls"): POST
// /scrapers/maps/jobs, POST /scrape/batch/web, POST /scrapers/crawler/jobs, GET /scrapers/jobs,
// GET /scrapers/jobs/{id}, GET /scrapers/jobs/{id}/results (JSON pages, or the whole job as CSV
// or NDJSON, each sent row by row from the store: jobs/job_export.h), DELETE /scrapers/jobs/{id}
// and DELETE /scrapers/jobs/{id}/results.
// Creating a job costs nothing; its rows are charged as the worker stores them (jobs/). A job is
// seen only with the key that created it; anybody else's is a 404, never a 403: its existence is
// not told.
#include <memory>

#include "api/auth.h"
#include "api/billing.h"
#include "api/envelope.h"
#include "api/routes/routes.h"
#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"
#include "extract/params.h"
#include "jobs/job_export.h"
#include "jobs/job_request.h"
#include "jobs/page_job_request.h"
#include "jobs/page_worker.h"
#include "proxies/guard.h"
#include "proxies/resolver.h"
#include "store/session_store.h"

namespace gleaner::api {
namespace {

constexpr std::int64_t kDefaultPageSize = 100;
constexpr std::int64_t kMaxPageSize = 1000;
/// How long creating a job waits for its webhook host to resolve before letting it pass.
constexpr Millis kWebhookResolveBudget{3000};

/// The paging of the job list and of a job's rows, declared like every data endpoint's query: an
/// unknown or repeated parameter is a 400 naming it.
std::vector<extract::Param> paging() {
  return {extract::Param::integer("page").range(1, 1'000'000).default_value(1),
          extract::Param::integer("limit").range(1, kMaxPageSize).default_value(kDefaultPageSize)};
}

/// Who calls: the account, and the key the caller's jobs belong to (by its SHA-256, as store/
/// keeps keys).
struct JobCaller {
  store::Account account;
  std::string key_hash;
};

JobCaller job_caller(Request& request, Dependencies& deps) {
  store::Account account = authenticate(request, deps);
  return {std::move(account), sha256_hex(api_key_of(request))};
}

/// A batch in a session (docs/sessions.md "Batches") is pinned to this node, where its rows open
/// or find the session: refused now when this node runs no jobs, or when another node holds the
/// session (the request should have been routed there, as POST /scrape/web's).
void check_session_node(Dependencies& deps, std::int64_t account,
                        const jobs::PageJobRequest& body) {
  if (!deps.config.get_bool("jobs_enabled", true)) {
    throw Error(ErrorCode::Unavailable,
                "this node runs no jobs (jobs_enabled: false), and a batch in a session runs on "
                "the node that holds the session");
  }
  if (!deps.session_book) {
    throw Error(ErrorCode::Unavailable, "sessions are not available on this node");
  }
  const std::string id = body.page.at("sessionId").get<std::string>();
  const auto note = deps.session_book->find(account, id);
  if (note && note->node != deps.jobs->node_id()) {
    throw Error(ErrorCode::SessionLost,
                "session '" + id +
                    "' is held by another node; this request reached a node that does not have it "
                    "(route requests by sessionId, docs/sessions.md)",
                "held by node " + note->node);
  }
}

store::Job owned_job(store::JobStore& jobs, const Request& request, const JobCaller& caller) {
  auto job = jobs.find_job(request.path_params.at("id"), caller.account.id, caller.key_hash);
  if (!job) throw Error(ErrorCode::NotFound, "no such job");
  return *job;
}

}  // namespace

const extract::Parameters& job_list_params() {
  static const extract::Parameters kParams{paging()};
  return kParams;
}

const extract::Parameters& job_results_params() {
  static const extract::Parameters kParams{[] {
    auto params = paging();
    params.push_back(
        extract::Param::string("format").one_of({"json", "csv", "ndjson"}).default_value("json"));
    return params;
  }()};
  return kParams;
}

void add_jobs_routes(Router& router, Dependencies& deps) {
  std::shared_ptr<store::JobStore> jobs = deps.jobs;
  auto guard =
      std::make_shared<proxies::AddressGuard>(proxies::AddressGuard::from_config(deps.config));

  // As /scrape/web refuses a page URL: a webhook whose name resolves to a refused address is a
  // 400 now, not a delivery refused later (every delivery checks again).
  const jobs::UrlCheck check_webhook = [&deps, guard](const std::string& url,
                                                      const std::string& parameter) {
    proxies::check_url_resolving(
        *guard,
        [&](const std::string& name, Deadline until) {
          return proxies::resolve_before(deps.resolver, name, until);
        },
        url, deadline_in(kWebhookResolveBudget), parameter);
  };

  router.add("POST", "/scrapers/maps/jobs", [&deps, jobs, check_webhook](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    const jobs::JobRequest job_request = jobs::JobRequest::parse(request.body, check_webhook);
    jobs->check_room(caller.account.id);  // 507: the account's quota, or the disk
    Response r;
    r.status = 201;
    r.body = jobs::job_json(
        jobs->create_job(caller.account.id, "maps", job_request.to_json(), caller.key_hash));
    deps.wake_job_worker();
    return r;
  });

  // The page jobs: created free with their first frontier; each page is charged as the worker
  // stores it (jobs/page_worker.h).
  auto create_page_job = [&deps, jobs](Request& request, const jobs::PageJobRequest& body) {
    const JobCaller caller = job_caller(request, deps);
    const bool in_session = body.in_session();
    if (in_session) check_session_node(deps, caller.account.id, body);
    jobs->check_room(caller.account.id);  // 507: the account's quota, or the disk
    Response r;
    r.status = 201;
    // A batch in a session runs where the session lives: on this node, one row at a time.
    r.body = jobs::job_json(jobs->create_frontier_job(caller.account.id, body.kind, body.to_json(),
                                                      caller.key_hash, jobs::seeds_of(body),
                                                      jobs::policy_of(body), in_session));
    deps.wake_job_worker();
    return r;
  };
  // Up to 10,000 URLs: more than max_body_bytes holds once they average 100 bytes.
  const long long batch_body = deps.config.get_int("max_batch_body_bytes", 16 << 20);
  if (batch_body < 1) Config::refuse("max_batch_body_bytes", "must be more than 0");
  router.add(
      "POST", "/scrape/batch/web",
      [&deps, check_webhook, create_page_job](Request& request) {
        job_caller(request, deps);  // a missing or bad key is a 401 before the body is parsed
        return create_page_job(request, jobs::PageJobRequest::parse_batch(
                                            with_session_header(request.body, request),
                                            default_request_budget(deps.config), check_webhook));
      },
      static_cast<std::size_t>(batch_body));
  router.add("POST", "/scrapers/crawler/jobs",
             [&deps, check_webhook, create_page_job](Request& request) {
               job_caller(request, deps);
               // An X-Session-Id is refused as the body's sessionId is: crawls run in none.
               return create_page_job(request, jobs::PageJobRequest::parse_crawler(
                                                   with_session_header(request.body, request),
                                                   default_request_budget(deps.config),
                                                   check_webhook));
             });

  router.add("GET", "/scrapers/jobs", [&deps, jobs](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    const extract::ValidatedParams query = job_list_params().validate(request.query);
    const std::int64_t page = *query.integer("page");
    const std::int64_t limit = *query.integer("limit");
    nlohmann::json list = nlohmann::json::array();
    for (const store::Job& job :
         jobs->list_jobs(caller.account.id, (page - 1) * limit, limit, caller.key_hash)) {
      list.push_back(jobs::job_json(job));
    }
    Response r;
    r.body = {{"jobs", std::move(list)},
              {"page", page},
              {"limit", limit},
              {"total", jobs->count_jobs(caller.account.id, caller.key_hash)}};
    return r;
  });

  router.add("GET", "/scrapers/jobs/{id}", [&deps, jobs](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    const store::Job job = owned_job(*jobs, request, caller);
    Response r;
    r.body = jobs::job_details_json(job, jobs->deliveries(job.id));
    return r;
  });

  // Every answer of the results route is sent row by row from the store as the client takes it,
  // holding a slot of the node's exports (and of the account's) until it ends.
  std::shared_ptr<jobs::ExportSlots> exports = jobs::ExportSlots::from_config(deps.config);
  router.add("GET", "/scrapers/jobs/{id}/results", [&deps, jobs, exports](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    const store::Job job = owned_job(*jobs, request, caller);
    const extract::ValidatedParams query = job_results_params().validate(request.query);
    const std::int64_t page = *query.integer("page");
    const std::int64_t limit = *query.integer("limit");
    const std::string format = *query.string("format");
    std::shared_ptr<void> slot = exports->take(caller.account.id);
    std::shared_ptr<jobs::JobExport> rows;
    if (format != "json") {
      // The whole job; or one page of it when `page` or `limit` is given.
      const bool paged = request.query.count("page") != 0 || request.query.count("limit") != 0;
      rows = std::make_shared<jobs::JobExport>(
          jobs, job.id, job.kind,
          format == "csv" ? jobs::ExportFormat::Csv : jobs::ExportFormat::Ndjson,
          paged ? (page - 1) * limit : 0,
          paged ? std::optional<std::int64_t>(limit) : std::nullopt);
    } else {
      Response frame;
      frame.body = {{"jobId", job.id}, {"status", job.status},    {"page", page},
                    {"limit", limit},
                    {"total", job.results_deleted_at ? 0 : job.rows_count},
                    {"data", nullptr}};
      auto [before, after] = render_json_around(request, frame, "data");
      rows =
          std::make_shared<jobs::JobExport>(jobs, job.id, job.kind, jobs::ExportFormat::JsonPage,
                                            (page - 1) * limit, limit, before + '[', ']' + after);
    }
    const char* type = format == "csv"      ? "text/csv; charset=utf-8"
                       : format == "ndjson" ? "application/x-ndjson"
                                            : "application/json";
    return Response::stream([rows, slot] { return rows->next(); }, type);
  });

  // An ended job's rows, deleted: the only way an account's stored bytes (its quota) go down.
  router.add("DELETE", "/scrapers/jobs/{id}/results", [&deps, jobs](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    auto job = jobs->delete_rows(request.path_params.at("id"), caller.account.id, caller.key_hash);
    if (!job) throw Error(ErrorCode::NotFound, "no such job");
    log::info("jobs") << "job " << job->id << ": rows deleted by its account";
    Response r;
    r.body = jobs::job_json(*job);
    return r;
  });

  router.add("DELETE", "/scrapers/jobs/{id}", [&deps, jobs](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    auto stopped = jobs->request_stop(
        request.path_params.at("id"), caller.account.id,
        [](const store::Job& job) {
          return jobs::webhook_body(job, jobs::event::kFinished, SystemClock::instance().now());
        },
        caller.key_hash);
    if (!stopped) throw Error(ErrorCode::NotFound, "no such job");
    log::info("jobs") << "job " << stopped->id << ": stop asked by its account";
    Response r;
    r.body = jobs::job_json(*stopped);
    return r;
  });
}

}  // namespace gleaner::api
