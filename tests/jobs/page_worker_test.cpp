// The page jobs' worker over a real SQLite store with a scripted page source: threads serve
// the accounts in turn (another account's batch is fetched while a long job still runs, not
// after it), and a job whose pages fail beyond its budget fails with reason too_many_failures.
#include "jobs/page_worker.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <set>

#include "core/error.h"
#include "store/sql_store.h"
#include "tests/jobs/temp_store.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

/// The one maximum wait of these tests.
constexpr auto kMaxWait = std::chrono::seconds(60);

/// Pages by URL: held until released (when `hold` is set), failing for URLs in `failing`.
class ScriptedPages final : public PageSource {
 public:
  explicit ScriptedPages(bool hold) : hold_(hold) {}

  std::set<std::string> failing;

  FetchedPage fetch(const web::WebRequest& request, Deadline, const std::string&,
                    std::int64_t account) override {
    std::unique_lock lock(mutex_);
    started_.push_back(request.url);
    may_open_.push_back(request.session_may_open);
    accounts_.push_back(account);
    nice_.push_back(::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid())));
    most_at_once_ = std::max(most_at_once_, ++at_once_);
    changed_.notify_all();
    changed_.wait_for(lock, kMaxWait,
                      [&] { return !hold_ || released_.count(request.url) || all_released_; });
    --at_once_;
    if (failing.count(request.url)) throw Error(ErrorCode::UpstreamError, "connection reset");
    return {{{"statusCode", 200}}, request.url, "web"};
  }
  /// Per fetch started, in order: whether it could open its session, and for which account.
  std::vector<bool> may_open() {
    std::lock_guard lock(mutex_);
    return may_open_;
  }
  std::vector<std::int64_t> accounts() {
    std::lock_guard lock(mutex_);
    return accounts_;
  }
  /// Per fetch started, the nice value of the thread that fetched it.
  std::vector<int> nice() {
    std::lock_guard lock(mutex_);
    return nice_;
  }
  /// The most fetches that ran at once.
  int most_at_once() {
    std::lock_guard lock(mutex_);
    return most_at_once_;
  }
  FetchedText get_text(const std::string&, Deadline, std::size_t) override { return {404, {}}; }

  /// Waits until `n` fetches started; their URLs in order.
  std::vector<std::string> wait_started(std::size_t n) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, kMaxWait, [&] { return started_.size() >= n; });
    return started_;
  }
  void release(const std::string& url) {
    std::lock_guard lock(mutex_);
    released_.insert(url);
    changed_.notify_all();
  }
  void release_all() {
    std::lock_guard lock(mutex_);
    all_released_ = true;
    changed_.notify_all();
  }

 private:
  const bool hold_;
  std::mutex mutex_;  // guards every field below
  std::condition_variable changed_;
  std::vector<std::string> started_;
  std::vector<bool> may_open_;
  std::vector<std::int64_t> accounts_;
  std::vector<int> nice_;
  int at_once_ = 0;
  int most_at_once_ = 0;
  std::set<std::string> released_;
  bool all_released_ = false;
};

class PageWorkerTest : public ::testing::Test {
 protected:
  /// A batch of `urls` for a new account; returns the job.
  store::Job batch(const std::vector<std::string>& urls) {
    PageJobRequest request;
    request.kind = kind::kBatch;
    request.urls = urls;
    return jobs_->create_frontier_job(temp_.new_account(1000), kind::kBatch, request.to_json(), "",
                                      seeds_of(request), policy_of(request));
  }
  store::Job job(const std::string& id) { return *jobs_->job(id); }
  /// Waits until the job ended (or the maximum wait passed); the job.
  store::Job wait_done(const std::string& id) {
    const auto until = SteadyClock::now() + kMaxWait;
    while (!job(id).done() && SteadyClock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return job(id);
  }
  static std::vector<std::string> urls(const std::string& host, int n) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) out.push_back("https://" + host + "/" + std::to_string(i));
    return out;
  }

  FakeClock clock_{testing::kStart};
  testing::TempStore temp_{clock_};
  std::shared_ptr<store::JobStore>& jobs_ = temp_.jobs;
  PageWorkerOptions options_;
};

TEST_F(PageWorkerTest, AnotherAccountsBatchIsFetchedWhileALongJobStillRuns) {
  ScriptedPages pages(/*hold=*/true);
  options_.threads = 2;
  options_.poll = Millis(20);
  PageWorker worker(*jobs_, pages, clock_, options_);
  // The long job: more pages than the threads, every one held until released.
  const store::Job crawl = batch(urls("long.example", 6));
  worker.start(true);
  const auto first = pages.wait_started(2);
  ASSERT_EQ(first.size(), 2u);
  // Both threads on the long job; another account's one-page batch arrives.
  const store::Job small = batch({"https://small.example/only"});
  worker.notify();
  pages.release(first[0]);
  // The thread that finished a page of the long job serves the other account next, though the
  // long job has older pages queued.
  const auto next = pages.wait_started(3);
  ASSERT_EQ(next.size(), 3u);
  EXPECT_EQ(next[2], "https://small.example/only");
  pages.release("https://small.example/only");
  EXPECT_EQ(wait_done(small.id).status, store::job_status::kFinished);
  EXPECT_EQ(job(small.id).rows_count, 1);
  // Its row arrived while the long job runs, most of its pages still to come.
  EXPECT_FALSE(job(crawl.id).done());
  EXPECT_GE(jobs_->frontier_states(crawl.id)["queued"], 3);
  pages.release_all();
  EXPECT_EQ(wait_done(crawl.id).status, store::job_status::kFinished);
  EXPECT_EQ(job(crawl.id).rows_count, 6);
  worker.stop();
}

TEST_F(PageWorkerTest, PagesAreFetchedAtTheJobsLowerCpuPriority) {
  // Entry jobs_nice: the page-job threads, and the lanes they start, give way to requests.
  const int base = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
  ScriptedPages pages(/*hold=*/false);
  options_.threads = 2;
  options_.poll = Millis(20);
  options_.nice = 7;
  PageWorker worker(*jobs_, pages, clock_, options_);
  const store::Job done = batch(urls("a.example", 4));
  worker.start(true);
  EXPECT_EQ(wait_done(done.id).status, store::job_status::kFinished);
  worker.stop();
  const std::vector<int> nice = pages.nice();
  ASSERT_EQ(nice.size(), 4u);
  for (int n : nice) EXPECT_EQ(n, std::min(19, base + 7));
  // The caller's own thread is as it was.
  EXPECT_EQ(::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid())), base);
}

TEST_F(PageWorkerTest, OneThreadAlternatesBetweenAccounts) {
  ScriptedPages pages(/*hold=*/false);
  PageWorker worker(*jobs_, pages, clock_, options_);
  const store::Job first = batch(urls("a.example", 3));
  clock_.advance(std::chrono::seconds(1));  // the older job first
  const store::Job second = batch(urls("b.example", 3));
  while (worker.run_one()) {
  }
  EXPECT_EQ(pages.wait_started(6),
            (std::vector<std::string>{"https://a.example/0", "https://b.example/0",
                                      "https://a.example/1", "https://b.example/1",
                                      "https://a.example/2", "https://b.example/2"}));
  EXPECT_EQ(job(first.id).status, store::job_status::kFinished);
  EXPECT_EQ(job(second.id).status, store::job_status::kFinished);
}

TEST_F(PageWorkerTest, AJobWhosePagesMostlyFailStopsWithTooManyFailures) {
  ScriptedPages pages(/*hold=*/false);
  options_.failures_allowed = 3;
  options_.max_failure_share = 0.5;
  PageWorker worker(*jobs_, pages, clock_, options_);
  const std::vector<std::string> all = urls("down.example", 10);
  pages.failing.insert(all.begin(), all.end());
  const store::Job failing = batch(all);
  while (worker.run_one()) {
  }
  const store::Job done = job(failing.id);
  EXPECT_EQ(done.status, store::job_status::kFailed);
  EXPECT_EQ(done.stop_reason, "too_many_failures");
  // The fourth failure passed the budget of three: the other six pages were never fetched.
  EXPECT_EQ(done.rows_count, 4);
  EXPECT_EQ(done.progress.value("pagesFailed", 0), 4);
  EXPECT_EQ(pages.wait_started(4).size(), 4u);
  EXPECT_EQ(done.credits_spent, 0);
}

TEST_F(PageWorkerTest, FailuresWithinTheShareLetTheJobFinish) {
  ScriptedPages pages(/*hold=*/false);
  options_.failures_allowed = 1;
  options_.max_failure_share = 0.5;
  PageWorker worker(*jobs_, pages, clock_, options_);
  const std::vector<std::string> all = urls("flaky.example", 7);
  // Pages 1, 3 and 5 fail: past the budget of one, but never more than half of the pages done.
  for (int i : {1, 3, 5}) pages.failing.insert(all[i]);
  const store::Job flaky = batch(all);
  while (worker.run_one()) {
  }
  const store::Job done = job(flaky.id);
  EXPECT_EQ(done.status, store::job_status::kFinished);
  EXPECT_EQ(done.rows_count, 7);
  EXPECT_EQ(done.progress.value("pagesFailed", 0), 3);
  EXPECT_EQ(done.credits_spent, 4);
}

// docs/sessions.md "Batches": a batch in a session is pinned to its node and runs one row at a
// time, in its order, as its account; only its first row may open the session.
TEST_F(PageWorkerTest, ABatchInASessionRunsOneRowAtATimeAndOnlyItsFirstMayOpenIt) {
  ScriptedPages pages(/*hold=*/true);
  options_.threads = 3;
  options_.poll = Millis(20);
  PageWorker worker(*jobs_, pages, clock_, options_);
  const std::vector<std::string> given = {"https://a.example/sign-in", "https://b.example/1",
                                          "https://a.example/2", "https://b.example/3"};
  const PageJobRequest request = PageJobRequest::parse_batch(
      json({{"urls", given}, {"sessionId", "cart"}}).dump(), Millis(60000),
      [](const std::string&, const std::string&) {});
  ASSERT_TRUE(request.in_session());
  const std::int64_t account = temp_.new_account(1000);
  const store::Job job =
      jobs_->create_frontier_job(account, kind::kBatch, request.to_json(), "", seeds_of(request),
                                 policy_of(request), /*pinned=*/true);
  worker.start(true);
  for (std::size_t i = 0; i < given.size(); ++i) {
    const auto started = pages.wait_started(i + 1);
    ASSERT_EQ(started.size(), i + 1);
    EXPECT_EQ(started[i], given[i]);
    pages.release(given[i]);
  }
  const store::Job done = wait_done(job.id);
  EXPECT_EQ(done.status, store::job_status::kFinished);
  EXPECT_EQ(done.rows_count, 4);
  EXPECT_EQ(pages.wait_started(4), given);
  EXPECT_EQ(pages.most_at_once(), 1);
  EXPECT_EQ(pages.may_open(), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(pages.accounts(), std::vector<std::int64_t>(4, account));
}

// docs/sessions.md "Batches": the batches pinned to a node unseen for `node_gone_after` are taken
// over by a live node's worker, which runs what is left of them in their order (the row the gone
// node died with again first); only a batch's first row may open its session, wherever it runs.
TEST_F(PageWorkerTest, ABatchPinnedToANodeGoneForGoodIsRunByALiveNode) {
  store::JobStore gone(dynamic_cast<store::SqlStore&>(*temp_.store).database(), *temp_.store,
                       clock_, "gone-node");
  gone.beat();
  const std::vector<std::string> given = {"https://a.example/sign-in", "https://a.example/2"};
  const PageJobRequest request =
      PageJobRequest::parse_batch(json({{"urls", given}, {"sessionId", "cart"}}).dump(),
                                  Millis(60000), [](const std::string&, const std::string&) {});
  const store::Job job =
      gone.create_frontier_job(temp_.new_account(1000), kind::kBatch, request.to_json(), "",
                               seeds_of(request), policy_of(request), /*pinned=*/true);
  ASSERT_TRUE(gone.claim_entry(std::chrono::seconds(900)));  // and dies with it
  clock_.advance(std::chrono::seconds(601));

  ScriptedPages pages(/*hold=*/false);
  options_.poll = Millis(20);
  options_.node_gone_after = std::chrono::seconds(600);
  PageWorker worker(*jobs_, pages, clock_, options_);
  worker.start(true);
  const store::Job done = wait_done(job.id);
  EXPECT_EQ(done.status, store::job_status::kFinished);
  EXPECT_EQ(done.pinned_node, "test-node");
  EXPECT_EQ(done.rows_count, 2);
  EXPECT_EQ(pages.wait_started(2), given);
  EXPECT_EQ(pages.may_open(), (std::vector<bool>{true, false}));
}

// With node_gone_after 0 no batch is ever taken over, however long its node is unseen.
TEST_F(PageWorkerTest, NoBatchIsTakenOverWhenNodesAreNeverJudgedGone) {
  store::JobStore gone(dynamic_cast<store::SqlStore&>(*temp_.store).database(), *temp_.store,
                       clock_, "gone-node");
  gone.beat();
  const PageJobRequest request = PageJobRequest::parse_batch(
      json({{"urls", {"https://a.example/"}}, {"sessionId", "cart"}}).dump(), Millis(60000),
      [](const std::string&, const std::string&) {});
  const store::Job pinned =
      gone.create_frontier_job(temp_.new_account(1000), kind::kBatch, request.to_json(), "",
                               seeds_of(request), policy_of(request), /*pinned=*/true);
  clock_.advance(std::chrono::hours(24));
  ScriptedPages pages(/*hold=*/false);
  options_.poll = Millis(20);
  options_.node_gone_after = std::chrono::seconds(0);
  PageWorker worker(*jobs_, pages, clock_, options_);
  const store::Job other = batch({"https://b.example/"});
  worker.start(true);
  EXPECT_EQ(wait_done(other.id).status, store::job_status::kFinished);
  EXPECT_EQ(job(pinned.id).pinned_node, "gone-node");
  EXPECT_FALSE(job(pinned.id).done());
}

}  // namespace
}  // namespace gleaner::jobs
