#pragma once
// Runs the page jobs (kinds "batch" and "crawler") from their frontier in the store: every
// thread of every node takes one entry at a time (store/jobs_store.h claim_entry; a job pinned to
// a node, a batch in a browser session, is that node's alone, one entry at a time), fetches it as
// POST /scrape/web would, and commits in one transaction the page's row, its charge, its
// scraper.data.scraped delivery and the links it admits to the frontier. Nothing of a crawl is
// held in memory between entries, so memory does not grow with the crawl, and a node that dies
// mid-page leaves only a leased entry that another node (or itself, restarted) fetches again:
// rows, charges and deliveries happen once. docs/jobs.md "Batches and crawls".
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/config.h"
#include "extract/web/request.h"
#include "jobs/fair_share.h"
#include "jobs/page_job_request.h"
#include "jobs/polling_threads.h"
#include "jobs/source_lane.h"
#include "store/jobs_store.h"

namespace gleaner::jobs {

/// A page as POST /scrape/web answers it.
struct FetchedPage {
  nlohmann::json body;   ///< the answer's data: statusCode, content, markdown, extractedLinks...
  std::string url;       ///< the URL finally loaded (after redirects)
  std::string cost_key;  ///< store/costs.h key of the route taken ("web", "web_residential")
};

/// A file read as text: robots.txt, a sitemap (gzip decompressed).
struct FetchedText {
  int status = 0;
  std::string text;
  /// The file was longer than the bytes asked for: `text` is its start.
  bool truncated = false;
};

/// Where pages come from: the browser pool in the service (jobs/web_page_source.h), a
/// scripted site in tests.
class PageSource {
 public:
  virtual ~PageSource() = default;
  /// Loads one page as POST /scrape/web does for `account` (the job's: a request's sessionId
  /// names that account's session). Throws gleaner::Error as web::fetch_page does.
  /// Pages one thread fetches one after another with the same non-empty `session` (a crawl's
  /// job id) may share a browser session (jobs/web_page_source.h); an empty one shares nothing.
  virtual FetchedPage fetch(const web::WebRequest& request, Deadline deadline,
                            const std::string& session, std::int64_t account) = 0;
  /// GETs `url` (behind the same address guard), its first `max_bytes` (decompressed, for a
  /// gzip file) and no more. Throws gleaner::Error when it cannot be read.
  virtual FetchedText get_text(const std::string& url, Deadline deadline,
                               std::size_t max_bytes) = 0;
  /// The calling thread fetches nothing for now (no entry to take, or stopping): what the source
  /// keeps for its next page is let go.
  virtual void rest() {}
  /// rest() for every thread (the worker is stopping).
  virtual void rest_all() {}
};

struct PageWorkerOptions {
  /// Threads taking entries on this node. Entry `page_jobs_concurrency`; the service's default
  /// is the maps jobs' share of the pool (entry `jobs_pool_share`).
  int threads = 1;
  /// How long an entry stays this node's: longer than any page's budget (300 s at most) plus
  /// its robots.txt. Entry `page_jobs_lease_seconds`.
  std::chrono::seconds lease{900};
  /// How often an idle thread looks for entries. Entry `jobs_poll_ms`.
  Millis poll{1'000};
  /// A page's budget when its request gives no `timeout` (entry `endpoint_timeout_ms`).
  Millis default_timeout{90'000};
  /// Budget of one robots.txt or sitemap read.
  Millis text_budget{30'000};
  /// Times an entry may be taken and lost with its node (killed, crashed) before its job is
  /// failed (reason "worker_crashed") rather than take the node down at every start. Entry
  /// `page_jobs_max_crashes`.
  std::int64_t max_crashes = 2;
  /// The share of the node's threads one page job may hold even when no other job has work
  /// (jobs/fair_share.h); at least one thread. Entry `page_jobs_job_share`.
  double job_share = 1.0;
  /// A page job's budget of failed pages (docs/jobs.md "Fair shares"): once more than
  /// `failures_allowed` of its pages failed and they are more than `max_failure_share` of its
  /// pages done, the job fails with reason "too_many_failures". Entries
  /// `page_jobs_failures_allowed` and `page_jobs_max_failure_share` (1 turns the budget off).
  std::int64_t failures_allowed = 20;
  double max_failure_share = 0.5;
  /// The threads' CPU priority, and their lanes' (entry `jobs_nice`, jobs/polling_threads.h).
  int nice = 0;
  /// How long a node may go unseen (each notes itself alive every `gone_after` / 10, at most
  /// every 30 s) before this node takes over the batches pinned to it (docs/sessions.md
  /// "Batches"); 0: this node never does. Entry `node_gone_after_seconds`.
  std::chrono::seconds node_gone_after{600};
  /// Credits a successful page costs, by store/costs.h key.
  std::function<std::int64_t(const std::string& cost_key)> cost_of = [](const std::string&) {
    return std::int64_t{1};
  };

  static PageWorkerOptions from_config(const Config& config, int default_threads,
                                       std::function<std::int64_t(const std::string&)> cost_of);
};

/// The rules of one page job, ready to apply to many pages.
class PageJobRules;

class PageWorker {
 public:
  /// Everything must outlive the worker. Does not run jobs until start().
  PageWorker(store::JobStore& jobs, PageSource& source, const Clock& clock,
             PageWorkerOptions options, std::function<void()> on_delivery_queued = {});
  ~PageWorker();
  PageWorker(const PageWorker&) = delete;
  PageWorker& operator=(const PageWorker&) = delete;

  /// Ends the page jobs that must end (stopped, drained), then takes one entry (the next in the
  /// fair turns, jobs/fair_share.h) and runs it.
  /// False when there was no entry to take.
  bool run_one();
  /// Starts the threads (the node's leased entries were released by JobWorker::start, or are
  /// released here with release_leases).
  void start(bool release_leases);
  void notify();
  void request_stop();
  void stop();
  bool stopping();

 private:
  void run_entry(const store::Job& job, const store::FrontierEntry& entry);
  void run_page(const store::Job& job, const store::FrontierEntry& entry,
                const PageJobRules& rules);
  void run_sitemap(const store::Job& job, const store::FrontierEntry& entry,
                   const PageJobRules& rules);
  /// The origin's robots.txt as recorded for the job, read (and recorded) when not yet; none when
  /// the node is stopping before it could be read.
  std::optional<std::string> robots_of(const store::Job& job, const store::FrontierEntry& entry,
                                       const PageJobRules& rules);
  /// Runs `work` (a call to the source, capturing nothing it does not own) on the calling
  /// thread's lane, and waits for it unless the worker stops or `job_id`'s job is stopped
  /// (DELETE) meanwhile: then the lane is abandoned (a fresh one serves the thread's next call)
  /// and false is returned. An empty `job_id` is left only when the worker stops.
  bool on_lane(const std::string& job_id, const std::function<void()>& work);
  /// The calling thread's lane (made on first use).
  SourceLane& lane();
  /// Joins the abandoned lanes whose call returned (all of them when `all`: the worker stops).
  void reap_lanes(bool all);
  /// After on_lane() gave up on a page of `job`: the job is ended stopped when its stop was asked,
  /// or the entry given back when the worker stops.
  void left_page(const store::Job& job, const store::FrontierEntry& entry);
  void finish(const store::Job& job, const char* status, const std::optional<std::string>& reason);
  void finish_if_drained(const std::string& job_id);
  /// After a failed page of `job` was stored: the job fails when it spent its budget of failures.
  void check_failures(const store::Job& job);
  /// Notes this node alive and takes over the batches pinned to nodes gone for good, when it is
  /// time to (one thread does it; the store failing is logged and tried again next time).
  void look_after_nodes();
  void delivery_queued();

  store::JobStore& jobs_;
  PageSource& source_;
  const Clock& clock_;
  const PageWorkerOptions options_;
  const std::function<void()> on_delivery_queued_;
  std::mutex fair_mutex_;  // guards fair_, held from ordering a claim until it is recorded
  FairShare fair_;
  std::mutex lanes_mutex_;  // guards lanes_ and abandoned_
  /// Each page-job thread's lane, by thread.
  std::map<std::thread::id, std::unique_ptr<SourceLane>> lanes_;
  /// Lanes left with a call still running: joined once it returned, all of them by stop().
  std::vector<std::unique_ptr<SourceLane>> abandoned_;
  /// When look_after_nodes() is due next (the clock's time since its epoch, in ms).
  std::atomic<std::int64_t> next_look_ms_{0};
  // Declared last: run run_one() until stop() joins them.
  PollingThreads threads_;
};

/// The first frontier of a page job: a batch's URLs, or a crawl's start pages and sitemaps.
std::vector<store::FrontierEntry> seeds_of(const PageJobRequest& request);
/// The frontier policy of a page job (its limit and pacing).
store::FrontierPolicy policy_of(const PageJobRequest& request);

}  // namespace gleaner::jobs
