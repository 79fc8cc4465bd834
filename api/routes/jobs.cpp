// Scraper jobs (spec/conventions.md "Scraper jobs and webhooks"): POST /scrapers/maps/jobs,
// GET /scrapers/jobs, GET /scrapers/jobs/{id}, GET /scrapers/jobs/{id}/results (JSON or CSV),
// DELETE /scrapers/jobs/{id}. Creating a job costs nothing; its rows are charged as the worker
// stores them (jobs/). A job is seen only with the key that created it; anybody else's is a 404,
// never a 403: its existence is not told.
#include <memory>

#include "api/auth.h"
#include "api/routes/routes.h"
#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"
#include "jobs/job_request.h"
#include "proxies/guard.h"

namespace gleaner::api {
namespace {

constexpr std::int64_t kDefaultPageSize = 100;
constexpr std::int64_t kMaxPageSize = 1000;

/// A positive whole query parameter within 1..`max`, or `fallback` when absent.
std::int64_t paging_value(const Request& request, const std::string& name, std::int64_t fallback,
                          std::int64_t max) {
  auto text = request.query_value(name);
  if (!text) return fallback;
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(*text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text->size() || value < 1 || value > max) {
    throw invalid_parameter(name, "must be a whole number from 1 to " + std::to_string(max));
  }
  return value;
}

/// Who calls: the account, and the key the caller's jobs belong to (by its SHA-256, as store/
/// keeps keys).
struct JobCaller {
  store::Account account;
  std::string key_hash;
};

JobCaller job_caller(const Request& request, Dependencies& deps) {
  store::Account account = authenticate(request, deps);
  return {std::move(account), sha256_hex(api_key_of(request))};
}

store::Job owned_job(store::JobStore& jobs, const Request& request, const JobCaller& caller) {
  auto job = jobs.find_job(request.path_params.at("id"), caller.account.id, caller.key_hash);
  if (!job) throw Error(ErrorCode::NotFound, "no such job");
  return *job;
}

}  // namespace

void add_jobs_routes(Router& router, Dependencies& deps) {
  std::shared_ptr<store::JobStore> jobs = deps.jobs;
  auto guard =
      std::make_shared<proxies::AddressGuard>(proxies::AddressGuard::from_config(deps.config));

  router.add("POST", "/scrapers/maps/jobs", [&deps, jobs, guard](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    const jobs::JobRequest job_request = jobs::JobRequest::parse(
        request.body, [&](const std::string& url, const std::string& parameter) {
          guard->check_url(url, parameter);
        });
    Response r;
    r.status = 201;
    r.body = jobs::job_json(
        jobs->create_job(caller.account.id, "maps", job_request.to_json(), caller.key_hash));
    deps.wake_job_worker();
    return r;
  });

  router.add("GET", "/scrapers/jobs", [&deps, jobs](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    const std::int64_t page = paging_value(request, "page", 1, 1'000'000);
    const std::int64_t limit = paging_value(request, "limit", kDefaultPageSize, kMaxPageSize);
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

  router.add("GET", "/scrapers/jobs/{id}/results", [&deps, jobs](Request& request) {
    const JobCaller caller = job_caller(request, deps);
    const store::Job job = owned_job(*jobs, request, caller);
    const std::int64_t page = paging_value(request, "page", 1, 1'000'000);
    const std::int64_t limit = paging_value(request, "limit", kDefaultPageSize, kMaxPageSize);
    const std::string format = request.query_value("format").value_or("json");
    if (format != "json" && format != "csv") {
      throw invalid_parameter("format", "must be json or csv");
    }
    const auto rows = jobs->rows(job.id, (page - 1) * limit, limit);
    if (format == "csv") return Response::raw(jobs::rows_csv(rows), "text/csv; charset=utf-8");
    Response r;
    r.body = {{"jobId", job.id}, {"status", job.status},    {"page", page},
              {"limit", limit},  {"total", job.rows_count}, {"data", rows}};
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
