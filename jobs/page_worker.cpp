#include "jobs/page_worker.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "core/error.h"
#include "core/log.h"
#include "jobs/crawl_url.h"
#include "jobs/robots.h"
#include "jobs/sitemap.h"

namespace gleaner::jobs {

using nlohmann::json;

namespace {

constexpr const char* kInsufficientCredits = "insufficient_credits";
constexpr const char* kStoppedByUser = "stopped_by_user";
/// The reason of a job failed because one of its entries went down with its node again and again.
constexpr const char* kWorkerCrashed = "worker_crashed";
/// The reason of a job failed because its pages failed beyond its budget.
constexpr const char* kTooManyFailures = "too_many_failures";
/// What a robots.txt that cannot be read means for now (RFC 9309 §2.3.1.4): nothing allowed.
constexpr const char* kDisallowAll = "User-agent: *\nDisallow: /\n";
/// Pages of one origin a batch fetches at once (a batch has no maxConcurrency of its own).
constexpr std::int64_t kBatchOriginConcurrency = 4;
constexpr std::string_view kSitemapKeyPrefix = "sitemap:";

store::FrontierEntry page_entry(const CrawlUrl& url, std::string given, std::int64_t depth,
                                std::optional<std::string> parent) {
  store::FrontierEntry e;
  e.key = url.str();
  e.kind = store::entry_kind::kPage;
  e.url = std::move(given);
  e.origin = url.origin();
  e.depth = depth;
  e.parent_url = std::move(parent);
  return e;
}

store::FrontierEntry sitemap_entry(const CrawlUrl& url, std::int64_t depth,
                                   std::optional<std::string> parent) {
  store::FrontierEntry e = page_entry(url, url.str(), depth, std::move(parent));
  e.key = std::string(kSitemapKeyPrefix) + url.str();
  e.kind = store::entry_kind::kSitemap;
  return e;
}

std::int64_t positive(const Config& config, const std::string& entry, std::int64_t fallback) {
  const std::int64_t value = config.get_int(entry, fallback);
  if (value <= 0) throw std::invalid_argument("configuration entry " + entry + " must be > 0");
  return value;
}

double share(const Config& config, const std::string& entry, double fallback) {
  const double value = config.get_double(entry, fallback);
  if (!(value > 0 && value <= 1)) {
    throw std::invalid_argument("configuration entry " + entry + " must be in (0, 1]");
  }
  return value;
}

std::int64_t pages_failed(const store::Job& job) {
  const auto it = job.progress.is_object() ? job.progress.find("pagesFailed") : job.progress.end();
  return it != job.progress.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

}  // namespace

/// A page job's request with its rules compiled: which links a crawl follows.
class PageJobRules {
 public:
  explicit PageJobRules(const store::Job& job)
      : request(PageJobRequest::from_json(job.kind, job.input)),
        crawl(job.kind == kind::kCrawler),
        policy(policy_of(request)),
        paths_(request.include_paths, request.exclude_paths) {
    for (const std::string& url : request.urls) {
      if (auto u = parse_crawl_url(url)) {
        start_hosts_.insert(u->host);
        start_origins_.insert(u->origin());
      }
    }
  }

  /// Whether a crawl takes `url` at `depth` (scope, depth and paths).
  bool follows(const CrawlUrl& url, std::int64_t depth) const {
    if (request.max_depth && depth > *request.max_depth) return false;
    if (!in_scope(url.host)) return false;
    return paths_.allowed(url.path);
  }
  bool in_scope(const std::string& host) const {
    if (request.allow_external_links || start_hosts_.count(host)) return true;
    if (!request.allow_subdomains) return false;
    return std::any_of(start_hosts_.begin(), start_hosts_.end(),
                       [&](const std::string& base) { return same_or_subdomain(host, base); });
  }
  bool start_origin(const std::string& origin) const { return start_origins_.count(origin) != 0; }
  bool uses_sitemaps() const { return crawl && request.sitemap != sitemap_mode::kSkip; }
  bool follows_links() const { return crawl && request.sitemap != sitemap_mode::kOnly; }
  bool obeys_robots() const { return crawl && !request.ignore_robots_txt; }

  const PageJobRequest request;
  const bool crawl;
  const store::FrontierPolicy policy;

 private:
  PathRules paths_;
  std::set<std::string> start_hosts_;
  std::set<std::string> start_origins_;
};

std::vector<store::FrontierEntry> seeds_of(const PageJobRequest& request) {
  std::vector<store::FrontierEntry> seeds;
  const bool crawl = request.kind == kind::kCrawler;
  std::set<std::string> origins;
  for (const std::string& given : request.urls) {
    const auto url = parse_crawl_url(given);
    if (!url) continue;  // refused when the job was created
    if (!crawl || request.sitemap != sitemap_mode::kOnly) {
      seeds.push_back(page_entry(*url, crawl ? url->str() : given, 0, std::nullopt));
    }
    if (crawl && request.sitemap != sitemap_mode::kSkip && origins.insert(url->origin()).second) {
      // The conventional place; robots.txt may name others (PageWorker::robots_of).
      if (auto map = parse_crawl_url(url->origin() + "/sitemap.xml")) {
        seeds.push_back(sitemap_entry(*map, 0, std::nullopt));
      }
    }
  }
  return seeds;
}

store::FrontierPolicy policy_of(const PageJobRequest& request) {
  store::FrontierPolicy policy;
  if (request.kind == kind::kCrawler) {
    policy.limit = request.limit;
    policy.delay_ms = request.delay_ms;
    policy.max_concurrency = request.max_concurrency;
  } else {
    policy.max_concurrency = kBatchOriginConcurrency;
  }
  return policy;
}

PageWorkerOptions PageWorkerOptions::from_config(
    const Config& config, int default_threads,
    std::function<std::int64_t(const std::string&)> cost_of) {
  PageWorkerOptions o;
  o.threads =
      static_cast<int>(positive(config, "page_jobs_concurrency", std::max(1, default_threads)));
  o.lease = std::chrono::seconds(positive(config, "page_jobs_lease_seconds", o.lease.count()));
  o.poll = Millis(positive(config, "jobs_poll_ms", o.poll.count()));
  o.max_crashes = positive(config, "page_jobs_max_crashes", o.max_crashes);
  o.job_share = share(config, "page_jobs_job_share", o.job_share);
  o.failures_allowed = config.get_int("page_jobs_failures_allowed", o.failures_allowed);
  if (o.failures_allowed < 0) {
    throw std::invalid_argument("configuration entry page_jobs_failures_allowed must be >= 0");
  }
  o.max_failure_share = share(config, "page_jobs_max_failure_share", o.max_failure_share);
  o.default_timeout = Millis(std::clamp<long long>(
      config.get_int("endpoint_timeout_ms", o.default_timeout.count()), 1000, 300000));
  o.nice = jobs_nice(config);
  const long long gone_after = config.get_int("node_gone_after_seconds", o.node_gone_after.count());
  if (gone_after < 0) {
    throw std::invalid_argument("configuration entry node_gone_after_seconds must be >= 0");
  }
  o.node_gone_after = std::chrono::seconds(gone_after);
  o.cost_of = std::move(cost_of);
  return o;
}

PageWorker::PageWorker(store::JobStore& jobs, PageSource& source, const Clock& clock,
                       PageWorkerOptions options, std::function<void()> on_delivery_queued)
    : jobs_(jobs),
      source_(source),
      clock_(clock),
      options_(std::move(options)),
      on_delivery_queued_(std::move(on_delivery_queued)),
      fair_(options_.threads,
            static_cast<int>(std::ceil(options_.job_share * std::max(1, options_.threads)))),
      threads_("page-jobs", options_.poll) {}

PageWorker::~PageWorker() {
  stop();
}

bool PageWorker::stopping() {
  return threads_.stopping();
}

void PageWorker::delivery_queued() {
  if (on_delivery_queued_) on_delivery_queued_();
}

void PageWorker::finish(const store::Job& job, const char* status,
                        const std::optional<std::string>& reason) {
  const store::Job done = jobs_.finish_job(job.id, status, reason, [&](const store::Job& j) {
    return webhook_body(j, event::kFinished, clock_.now());
  });
  log::info("jobs") << job.kind << " job " << job.id << " " << done.status
                    << (reason ? " (" + *reason + ")" : std::string()) << ": " << done.rows_count
                    << " rows, " << done.credits_spent << " credits";
  delivery_queued();
}

void PageWorker::finish_if_drained(const std::string& job_id) {
  const auto done = jobs_.finish_if_drained(
      job_id, [&](const store::Job& j) { return webhook_body(j, event::kFinished, clock_.now()); });
  if (!done) return;
  log::info("jobs") << done->kind << " job " << job_id << " finished: " << done->rows_count
                    << " rows, " << done->credits_spent << " credits";
  delivery_queued();
}

void PageWorker::look_after_nodes() {
  const auto gone_after = options_.node_gone_after;
  const std::int64_t every =
      gone_after.count() == 0
          ? 30'000
          : std::clamp<std::int64_t>(std::chrono::duration_cast<Millis>(gone_after).count() / 10, 1,
                                     30'000);
  const std::int64_t t =
      std::chrono::duration_cast<Millis>(clock_.now().time_since_epoch()).count();
  std::int64_t due = next_look_ms_.load();
  if (t < due || !next_look_ms_.compare_exchange_strong(due, t + every)) {
    return;  // not yet, or another thread does it
  }
  try {
    jobs_.beat();
    if (gone_after.count() == 0) return;
    for (const auto& [job_id, gone] : jobs_.adopt_pinned_jobs(gone_after)) {
      log::warn("jobs") << "batch " << job_id << " was pinned to node " << gone
                        << ", unseen for over " << gone_after.count()
                        << " s: this node runs what is left of it (its session was lost with "
                           "that node)";
    }
  } catch (const std::exception& e) {
    log::warn("jobs") << "could not note this node alive or look for gone nodes: " << describe(e);
  }
}

bool PageWorker::run_one() {
  look_after_nodes();
  for (const store::Job& job : jobs_.page_jobs_to_end()) {
    if (job.stop_requested) {
      finish(job, store::job_status::kStopped, kStoppedByUser);
    } else {
      finish_if_drained(job.id);
    }
  }
  reap_lanes(false);
  // A thread with nothing to do holds no page of the browser pool.
  const auto rest = [this] { on_lane({}, [this] { source_.rest(); }); };
  if (stopping()) {
    rest();
    return false;
  }
  std::optional<store::ClaimedEntry> claimed;
  {
    std::lock_guard lock(fair_mutex_);
    claimed = jobs_.claim_entry(
        options_.lease, [this](const std::vector<store::PageJobRef>& c) { return fair_.order(c); });
    if (claimed) fair_.took({claimed->job.id, claimed->job.account_id});
  }
  if (!claimed) {
    rest();
    return false;
  }
  // The thread is the job's until the entry is done, however run_entry leaves.
  struct Holding {
    PageWorker& worker;
    const store::PageJobRef job;
    ~Holding() {
      std::lock_guard lock(worker.fair_mutex_);
      worker.fair_.released(job);
    }
  } holding{*this, {claimed->job.id, claimed->job.account_id}};
  if (claimed->entry.attempts > options_.max_crashes) {
    // Taken, and lost with its node, every time: whatever the page does takes the node down. The
    // job ends here rather than the node at its next start.
    log::error("jobs") << claimed->job.kind << " job " << claimed->job.id
                       << " failed: " << claimed->entry.url
                       << " was being fetched when the service died " << claimed->entry.attempts - 1
                       << " times";
    jobs_.skip_entry(claimed->entry);
    finish(claimed->job, store::job_status::kFailed, kWorkerCrashed);
    return true;
  }
  run_entry(claimed->job, claimed->entry);
  if (stopping()) rest();
  return true;
}

SourceLane& PageWorker::lane() {
  std::lock_guard lock(lanes_mutex_);
  auto& lane = lanes_[std::this_thread::get_id()];
  if (!lane) lane = std::make_unique<SourceLane>();
  return *lane;
}

bool PageWorker::on_lane(const std::string& job_id, const std::function<void()>& work) {
  // How often a page in flight looks whether it must be left: the poll interval, at most 1 s.
  const Millis check = std::min(options_.poll, Millis(1000));
  const bool finished = lane().run(work, check, [&] {
    if (stopping()) return true;
    if (job_id.empty()) return false;
    try {
      const auto job = jobs_.job(job_id);
      return !job || job->stop_requested || job->done();
    } catch (const std::exception& e) {  // the store busy: look again at the next check
      log::debug("jobs") << "job " << job_id << ": " << describe(e);
      return false;
    }
  });
  if (finished) return true;
  std::lock_guard lock(lanes_mutex_);
  auto it = lanes_.find(std::this_thread::get_id());
  abandoned_.push_back(std::move(it->second));
  lanes_.erase(it);
  return false;
}

void PageWorker::reap_lanes(bool all) {
  std::vector<std::unique_ptr<SourceLane>> done;  // joined after the lock is released
  {
    std::lock_guard lock(lanes_mutex_);
    if (all) {
      for (auto& [thread, lane] : lanes_) done.push_back(std::move(lane));
      lanes_.clear();
    }
    for (auto it = abandoned_.begin(); it != abandoned_.end();) {
      if (all || (*it)->idle()) {
        done.push_back(std::move(*it));
        it = abandoned_.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (all) return;  // stop() lets every kept tab go (rest_all)
  // What the left call kept for a next page on its thread (a crawl's tab) goes with the lane.
  for (auto& left : done) left->run([this] { source_.rest(); }, Millis(1000), [] { return false; });
}

void PageWorker::left_page(const store::Job& job, const store::FrontierEntry& entry) {
  if (stopping()) {
    jobs_.return_entry(entry);  // fetched again at the next start
    return;
  }
  log::info("jobs") << "job " << job.id << ": " << entry.url << " left in flight: the job stops";
  finish(job, store::job_status::kStopped, kStoppedByUser);
}

void PageWorker::run_entry(const store::Job& job, const store::FrontierEntry& entry) {
  if (jobs_.mark_started(job.id, [&] {
        store::Job started = job;
        started.status = store::job_status::kInProgress;
        return webhook_body(started, event::kStarted, clock_.now());
      }())) {
    log::info("jobs") << job.kind << " job " << job.id << " started";
    delivery_queued();
  }
  const PageJobRules rules(job);
  if (rules.obeys_robots() || rules.uses_sitemaps()) {
    const std::optional<std::string> robots_text = robots_of(job, entry, rules);
    if (!robots_text) {  // left unread: the node is stopping, or the job was stopped
      left_page(job, entry);
      return;
    }
    if (rules.obeys_robots() && entry.kind == store::entry_kind::kPage) {
      const auto url = parse_crawl_url(entry.url);
      if (url && !RobotsTxt::parse(*robots_text).allowed(url->path_and_query())) {
        log::debug("jobs") << "job " << job.id << ": robots.txt disallows " << entry.url;
        jobs_.skip_entry(entry);
        finish_if_drained(job.id);
        return;
      }
    }
  }
  if (entry.kind == store::entry_kind::kSitemap) {
    run_sitemap(job, entry, rules);
  } else {
    run_page(job, entry, rules);
  }
  finish_if_drained(job.id);
}

std::optional<std::string> PageWorker::robots_of(const store::Job& job,
                                                 const store::FrontierEntry& entry,
                                                 const PageJobRules& rules) {
  if (auto known = jobs_.origin_robots(job.id, entry.origin)) return *known;
  // RFC 9309 §2.3.1: a 4xx robots.txt means no rules; an unreachable one (5xx, no answer) means
  // the whole origin is disallowed for now: this crawl leaves it out.
  std::string text;
  const std::string url = entry.origin + "/robots.txt";
  try {
    const auto got = std::make_shared<FetchedText>();  // outlives this call if it is left
    const bool read = on_lane(job.id, [this, url, got, budget = options_.text_budget] {
      *got = source_.get_text(url, deadline_in(budget), kMaxRobotsBytes);
    });
    if (!read) return std::nullopt;
    if (got->status >= 200 && got->status < 300)
      text = got->text;
    else if (got->status >= 500 || got->status == 0)
      text = kDisallowAll;
  } catch (const Error& e) {
    if (stopping()) return std::nullopt;  // not the origin's fault: read again at the next start
    log::info("jobs") << "job " << job.id << ": " << url << " unreadable (" << describe(e)
                      << "); the origin is left out";
    text = kDisallowAll;
  }
  jobs_.count_fetch(job.id, "robotsTxtFetched");
  const RobotsTxt robots = RobotsTxt::parse(text);
  std::int64_t delay = rules.policy.delay_ms;
  if (rules.obeys_robots() && robots.crawl_delay()) {
    delay = std::max<std::int64_t>(delay, robots.crawl_delay()->count());
  }
  std::vector<store::FrontierEntry> sitemaps;
  if (rules.uses_sitemaps() && rules.start_origin(entry.origin)) {
    for (const std::string& loc : robots.sitemaps()) {
      if (auto map = parse_crawl_url(loc)) sitemaps.push_back(sitemap_entry(*map, 0, url));
    }
  }
  jobs_.set_origin_robots(job, entry.origin, text, delay, sitemaps, rules.policy);
  return jobs_.origin_robots(job.id, entry.origin).value_or(text);
}

void PageWorker::run_sitemap(const store::Job& job, const store::FrontierEntry& entry,
                             const PageJobRules& rules) {
  std::vector<store::FrontierEntry> found;
  try {
    const auto got = std::make_shared<FetchedText>();  // outlives this call if it is left
    const bool read = on_lane(job.id, [this, url = entry.url, got, budget = options_.text_budget] {
      *got = source_.get_text(url, deadline_in(budget), kMaxSitemapBytes);
    });
    if (!read) {
      left_page(job, entry);
      return;
    }
    jobs_.count_fetch(job.id, "sitemapsFetched");
    if (got->status >= 200 && got->status < 300) {
      const Sitemap map = parse_sitemap(got->text);
      for (const std::string& loc : map.locations) {
        const auto url = parse_crawl_url(loc);
        if (!url) continue;
        if (map.index) {
          found.push_back(sitemap_entry(*url, entry.depth, entry.url));
        } else if (rules.follows(*url, 1)) {
          // A sitemap's pages are one step from the start, whatever the sitemap's nesting.
          found.push_back(page_entry(*url, url->str(), 1, entry.url));
        }
      }
    }
  } catch (const Error& e) {
    if (stopping()) {
      left_page(job, entry);  // read again at the next start
      return;
    }
    log::info("jobs") << "job " << job.id << ": sitemap " << entry.url
                      << " unreadable: " << describe(e);
  }
  const store::CommittedEntry done =
      jobs_.commit_entry(job, entry, {}, std::nullopt, 0, {}, found, rules.policy,
                         [](const std::vector<json>&) { return std::nullopt; });
  if (done.added > 0) notify();
}

void PageWorker::run_page(const store::Job& job, const store::FrontierEntry& entry,
                          const PageJobRules& rules) {
  json row = {{"url", entry.url}};
  if (rules.crawl) {
    row["depth"] = entry.depth;
    row["parentUrl"] = entry.parent_url ? json(*entry.parent_url) : json();
  }
  std::vector<std::string> aliases;
  std::vector<store::FrontierEntry> discovered;
  std::int64_t cost = 0;
  std::string cost_key;
  bool failed = false;
  try {
    web::WebRequest request = rules.request.page_request(entry.url, options_.default_timeout);
    // A crawl reads every page's links and canonical link, asked for or not; what was not
    // asked is left out of the row.
    const bool asked_links = request.extract_links;
    const bool asked_json = request.json;
    if (rules.crawl) {
      request.extract_links = true;
      request.json = true;
    }
    // A batch in a session (docs/sessions.md "Batches"), pinned to this node and run one row
    // at a time: its first row opens the session if it is not open; a later row finds it open
    // or fails with session_lost, never in a fresh context under the same name.
    if (request.session_id) request.session_may_open = job.rows_count == 0;
    // A crawl's pages are one browsing session; a batch's rows are each the answer
    // POST /scrape/web would give (conventions.md), so each gets a fresh one.
    const auto fetched = std::make_shared<FetchedPage>();  // outlives this call if it is left
    const bool loaded =
        on_lane(job.id, [this, request, fetched, deadline = deadline_in(request.timeout),
                         session = rules.crawl ? job.id : std::string(),
                         account = job.account_id] {
          *fetched = source_.fetch(request, deadline, session, account);
        });
    if (!loaded) {
      left_page(job, entry);
      return;
    }
    FetchedPage& page = *fetched;
    cost_key = page.cost_key;
    cost = options_.cost_of(cost_key);
    if (rules.crawl) {
      if (auto landed = parse_crawl_url(page.url)) aliases.push_back(landed->str());
      const json meta = page.body.value("json", json::object());
      if (meta.contains("canonicalUrl") && meta["canonicalUrl"].is_string()) {
        if (auto canonical = parse_crawl_url(meta["canonicalUrl"].get<std::string>())) {
          aliases.push_back(canonical->str());
        }
      }
      if (rules.follows_links()) {
        for (const json& link : page.body.value("extractedLinks", json::array())) {
          if (!link.is_string()) continue;
          const auto url = parse_crawl_url(link.get<std::string>());
          if (url && rules.follows(*url, entry.depth + 1)) {
            discovered.push_back(page_entry(*url, url->str(), entry.depth + 1, entry.url));
          }
        }
      }
      if (!asked_links) page.body.erase("extractedLinks");
      if (!asked_json) page.body.erase("json");
    }
    for (auto& [name, value] : page.body.items()) row[name] = std::move(value);
  } catch (const Error& e) {
    if (stopping()) {  // the service is going down: the entry is fetched again at its next start
      left_page(job, entry);
      return;
    }
    // The page's error is its row, free (conventions.md: a success is billed), and counted
    // against the job's budget of failures.
    row["error"] = {{"code", code_name(e.code())}, {"message", e.what()}};
    failed = true;
    log::info("jobs") << "job " << job.id << ": " << entry.url << ": " << describe(e);
  }
  const store::CommittedEntry done = jobs_.commit_entry(
      job, entry, aliases, store::JobRow{entry.key, row, failed}, cost, cost_key, discovered,
      rules.policy, [&](const std::vector<json>& rows) {
        store::Job in_progress = job;
        in_progress.status = store::job_status::kInProgress;
        return webhook_body(in_progress, event::kDataScraped, clock_.now(), &rows);
      });
  if (done.out_of_credits) {
    finish(*jobs_.job(job.id), store::job_status::kStopped, kInsufficientCredits);
    return;
  }
  if (done.storage_refused) {  // the account's quota, or the disk (docs/jobs.md "Sizes")
    finish(*jobs_.job(job.id), store::job_status::kStopped, *done.storage_refused);
    return;
  }
  // New entries: the threads waiting out their poll interval take them now (a crawl starts
  // with one page, so without this every thread but one idled through its first second).
  if (done.added > 0) notify();
  if (done.row) {
    log::debug("jobs") << "job " << job.id << ": " << entry.url << " stored";
    delivery_queued();
    if (failed) check_failures(job);
  }
}

void PageWorker::check_failures(const store::Job& job) {
  const auto current = jobs_.job(job.id);
  if (!current || current->done()) return;
  const std::int64_t failures = pages_failed(*current);
  if (failures <= options_.failures_allowed ||
      static_cast<double>(failures) <=
          options_.max_failure_share * static_cast<double>(current->rows_count)) {
    return;
  }
  log::info("jobs") << job.kind << " job " << job.id << ": " << failures << " of its "
                    << current->rows_count << " pages failed";
  finish(*current, store::job_status::kFailed, kTooManyFailures);
}

void PageWorker::start(bool release_leases) {
  if (release_leases) jobs_.release_job_leases();
  threads_.start(options_.threads, [this] { return run_one(); }, options_.nice);
}

void PageWorker::notify() {
  threads_.notify();
}

void PageWorker::request_stop() {
  threads_.request_stop();
  source_.rest_all();
}

void PageWorker::stop() {
  threads_.stop();
  // The calls left in flight end by their deadlines, or at once once the browsers are gone
  // (Service::shutdown shuts the pool down before it stops the worker).
  reap_lanes(true);
  source_.rest_all();
}

}  // namespace gleaner::jobs
