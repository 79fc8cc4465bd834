#include "jobs/worker.h"

#include <algorithm>

#include "core/error.h"
#include "core/log.h"
#include "extract/sites/google/maps/place.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

constexpr const char* kInsufficientCredits = "insufficient_credits";
constexpr const char* kStoppedByUser = "stopped_by_user";

std::int64_t positive(const Config& config, const std::string& entry, std::int64_t fallback) {
  const std::int64_t value = config.get_int(entry, fallback);
  if (value <= 0) throw std::invalid_argument("configuration entry " + entry + " must be > 0");
  return value;
}

}  // namespace

WorkerOptions WorkerOptions::from_config(const Config& config, int default_max_jobs,
                                         std::int64_t cost_per_row) {
  WorkerOptions o;
  o.max_jobs =
      static_cast<int>(positive(config, "jobs_concurrency", std::max(1, default_max_jobs)));
  o.batch_size = positive(config, "jobs_batch_size", o.batch_size);
  o.lease = std::chrono::seconds(positive(config, "jobs_lease_seconds", o.lease.count()));
  o.poll = Millis(positive(config, "jobs_poll_ms", o.poll.count()));
  o.search_budget = Millis(positive(config, "jobs_search_timeout_ms", o.search_budget.count()));
  o.retry_pause = Millis(positive(config, "jobs_retry_ms", o.retry_pause.count()));
  o.nice = jobs_nice(config);
  o.cost_per_row = cost_per_row;
  return o;
}

JobWorker::JobWorker(store::JobStore& jobs, PlaceSource& source, const Clock& clock,
                     WorkerOptions options, std::function<void()> on_delivery_queued)
    : jobs_(jobs),
      source_(source),
      clock_(clock),
      options_(options),
      on_delivery_queued_(std::move(on_delivery_queued)),
      threads_("jobs", options.poll) {}

JobWorker::~JobWorker() {
  stop();
}

bool JobWorker::stopping() {
  return threads_.stopping();
}

void JobWorker::delivery_queued() {
  if (on_delivery_queued_) on_delivery_queued_();
}

bool JobWorker::run_one() {
  auto job = jobs_.claim_job(options_.lease);
  if (!job) return false;
  try {
    run_job(*job);
  } catch (const std::exception& e) {
    // A store failure: the lease expires and the job is resumed (by this node or another).
    log::error("jobs") << "job " << job->id << ": " << describe(e) << "; it resumes later";
  }
  return true;
}

void JobWorker::finish(const store::Job& job, const char* status,
                       const std::optional<std::string>& reason) {
  const store::Job done = jobs_.finish_job(job.id, status, reason, [&](const store::Job& j) {
    return webhook_body(j, event::kFinished, clock_.now());
  });
  log::info("jobs") << "job " << job.id << " " << done.status
                    << (reason ? " (" + *reason + ")" : std::string()) << ": " << done.rows_count
                    << " rows, " << done.credits_spent << " credits";
  delivery_queued();
}

void JobWorker::run_job(store::Job job) {
  const JobRequest request = JobRequest::from_json(job.input);
  if (jobs_.mark_started(job.id, [&] {
        store::Job started = job;
        started.status = store::job_status::kInProgress;
        return webhook_body(started, event::kStarted, clock_.now());
      }())) {
    log::info("jobs") << "job " << job.id << " started";
    delivery_queued();
  } else {
    log::info("jobs") << "job " << job.id << " resumed at pair "
                      << job.progress.value("pair", std::int64_t{0});
  }
  const auto pairs = static_cast<std::int64_t>(request.keywords.size() * request.locations.size());
  for (std::int64_t pair = job.progress.value("pair", std::int64_t{0}); pair < pairs; ++pair) {
    if (stopping()) return;  // paused: resumed after the restart
    if (!still_ours(job.id)) return;
    const auto current = jobs_.job(job.id);
    if (!current || current->done()) return;
    if (current->stop_requested)
      return finish(*current, store::job_status::kStopped, kStoppedByUser);
    const std::string& keyword =
        request.keywords[static_cast<std::size_t>(pair) / request.locations.size()];
    const std::string& location =
        request.locations[static_cast<std::size_t>(pair) % request.locations.size()];
    std::optional<std::vector<json>> places;
    try {
      places = search(job.id, keyword, location, request.limit);
    } catch (const Error& e) {
      if (stopping()) return;  // the service is shutting down: paused, resumed after restart
      return finish(*current, store::job_status::kFailed, std::string(code_name(e.code())));
    }
    if (!places) {  // interrupted: by the account (stopped now), or by a shutdown (paused)
      const auto now = jobs_.job(job.id);
      if (now && !now->done() && now->stop_requested && !stopping()) {
        return finish(*now, store::job_status::kStopped, kStoppedByUser);
      }
      return;
    }
    std::vector<store::JobRow> batch;
    // Stores the batch. False when the job must go no further here: the job went to another
    // node (left to it), or the balance could not pay a row or the store refused one (the job is
    // stopped).
    auto flush = [&]() -> bool {
      if (batch.empty()) return true;
      if (!still_ours(job.id)) return false;
      const store::StoredRows stored = jobs_.store_rows(
          *current, batch, options_.cost_per_row, "maps_job_row",
          [&](const std::vector<json>& rows) {
            store::Job in_progress = *current;
            in_progress.status = store::job_status::kInProgress;
            return webhook_body(in_progress, event::kDataScraped, clock_.now(), &rows);
          });
      batch.clear();
      if (!stored.stored.empty()) delivery_queued();
      if (stored.out_of_credits) {
        finish(*jobs_.job(job.id), store::job_status::kStopped, kInsufficientCredits);
        return false;
      }
      if (stored.storage_refused) {  // the account's quota, or the disk (docs/jobs.md "Sizes")
        finish(*jobs_.job(job.id), store::job_status::kStopped, *stored.storage_refused);
        return false;
      }
      return true;
    };
    for (json& place : *places) {
      if (stopping()) return;
      place["keyword"] = keyword;
      place["location"] = location;
      if (request.extract_emails && place.contains("website")) {
        place["emails"] = source_.emails(place["website"].get<std::string>(),
                                         deadline_in(options_.website_budget));
      }
      batch.push_back({extract::google::maps::place_key(place), std::move(place)});
      if (static_cast<std::int64_t>(batch.size()) >= options_.batch_size && !flush()) return;
    }
    if (!flush()) return;
    jobs_.save_progress(job.id, {{"pair", pair + 1}});
  }
  finish(*jobs_.job(job.id), store::job_status::kFinished, std::nullopt);
}

std::optional<std::vector<json>> JobWorker::search(const std::string& job_id,
                                                   const std::string& keyword,
                                                   const std::string& location,
                                                   std::optional<std::int64_t> limit) {
  // Asked between pages: a stop by the account is read from the store at most every 2 s.
  auto next_check = SteadyClock::now();
  bool stop_asked = false;
  const std::function<bool()> keep_going = [&] {
    if (stopping()) return false;
    if (!stop_asked && SteadyClock::now() >= next_check) {
      next_check = SteadyClock::now() + std::chrono::seconds(2);
      const auto job = jobs_.job(job_id);
      stop_asked = !job || job->done() || job->stop_requested;
    }
    return !stop_asked;
  };
  for (int attempt = 1;; ++attempt) {
    try {
      return source_.search(keyword, location, limit, deadline_in(options_.search_budget),
                            keep_going);
    } catch (const Error& e) {
      if (!keep_going()) return std::nullopt;
      const bool passing = e.code() == ErrorCode::Unavailable || e.code() == ErrorCode::Timeout ||
                           e.code() == ErrorCode::UpstreamError;
      log::warn("jobs") << "job " << job_id << ": search for '" << keyword << "' in '" << location
                        << "' failed (attempt " << attempt << " of " << options_.search_attempts
                        << "): " << describe(e);
      if (!passing || attempt >= options_.search_attempts) throw;
    }
    if (threads_.sleep_unless_stopped(growing_pause(options_.retry_pause, attempt))) {
      return std::nullopt;
    }
    if (!still_ours(job_id)) return std::nullopt;
  }
}

bool JobWorker::still_ours(const std::string& job_id) {
  if (jobs_.renew_lease(job_id, options_.lease)) return true;
  log::warn("jobs") << "job " << job_id
                    << ": this node's lease expired and another node took the job over; this "
                       "node leaves it to that one";
  return false;
}

void JobWorker::start() {
  jobs_.release_job_leases();
  threads_.start(options_.max_jobs, [this] { return run_one(); }, options_.nice);
}

void JobWorker::notify() {
  threads_.notify();
}

void JobWorker::request_stop() {
  threads_.request_stop();
}

void JobWorker::stop() {
  threads_.stop();
}

}  // namespace gleaner::jobs
