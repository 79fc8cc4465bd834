// The job worker over a real SQLite store with a scripted place source: rows, charges and
// queued events; duplicates across pairs; the limit; insufficient credits; a stop asked by the
// account; and a worker stopped mid-job (as by a restart) whose job resumes without storing,
// charging or announcing any row twice.
#include "jobs/worker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "core/error.h"
#include "jobs/job_request.h"
#include "jobs/job_store_of.h"
#include "store/store.h"
#include "tests/jobs/temp_store.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

json place(const std::string& id, const std::string& website = {}) {
  json p = {{"name", "Place " + id}, {"placeId", id}, {"rating", 4.5}};
  if (!website.empty()) p["website"] = website;
  return p;
}

/// Search answers by "keyword|location"; a search can be made to wait until released.
class ScriptedSource final : public PlaceSource {
 public:
  std::map<std::string, std::vector<json>> answers;
  std::map<std::string, std::vector<std::string>> emails_of;
  std::string hold_at;  ///< "keyword|location" whose search waits for release()
  /// "keyword|location" → how many of its first searches fail with a network error.
  std::map<std::string, int> failures;

  std::vector<json> search(const std::string& keyword, const std::string& location,
                           std::optional<std::int64_t> limit, Deadline deadline,
                           const std::function<bool()>& keep_going) override {
    const std::string key = keyword + "|" + location;
    {
      std::unique_lock lock(mutex_);
      searches_.push_back(key);
      cv_.notify_all();
      if (key == hold_at) {
        // Held until released, or until the worker says to give up (asked as a real search
        // asks between its pages).
        while (!released_ && keep_going() && SteadyClock::now() < deadline) {
          cv_.wait_for(lock, Millis(10));
        }
        throw Error(ErrorCode::Unavailable, "shutting down");
      }
    }
    {
      std::lock_guard lock(mutex_);
      if (failures[key] > 0) {
        --failures[key];
        throw Error(ErrorCode::UpstreamError, "connection reset");
      }
    }
    if (!answers.count(key)) throw Error(ErrorCode::UpstreamBlocked, "blocked");
    std::vector<json> out = answers.at(key);
    if (limit && static_cast<std::int64_t>(out.size()) > *limit) out.resize(*limit);
    return out;
  }
  std::vector<std::string> emails(const std::string& website, Deadline) override {
    return emails_of.count(website) ? emails_of.at(website) : std::vector<std::string>{};
  }
  bool wait_for_search(const std::string& key) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, std::chrono::seconds(60), [&] {
      return std::find(searches_.begin(), searches_.end(), key) != searches_.end();
    });
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    cv_.notify_all();
  }
  std::vector<std::string> searches() {
    std::lock_guard lock(mutex_);
    return searches_;
  }

 private:
  std::mutex mutex_;  // guards searches_, released_
  std::condition_variable cv_;
  std::vector<std::string> searches_;
  bool released_ = false;
};

class WorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.batch_size = 2;
    options_.retry_pause = Millis(1);
  }

  std::int64_t account(std::int64_t credits) { return temp_.new_account(credits); }

  std::string create(std::int64_t account_id, std::vector<std::string> keywords,
                     std::vector<std::string> locations, bool emails = false,
                     std::optional<std::int64_t> limit = {}) {
    JobRequest r;
    r.keywords = std::move(keywords);
    r.locations = std::move(locations);
    r.extract_emails = emails;
    r.limit = limit;
    r.webhook = Webhook{"https://hooks.example.com/in",
                        {event::kStarted, event::kDataScraped, event::kFinished},
                        {}};
    return jobs_->create_job(account_id, "maps", r.to_json()).id;
  }

  std::vector<std::string> events(const std::string& job) {
    std::vector<std::string> out;
    for (const auto& d : jobs_->deliveries(job)) out.push_back(d.delivery.event);
    return out;
  }

  std::int64_t balance(std::int64_t account_id) { return temp_.balance(account_id); }

  FakeClock clock_{testing::kStart};
  testing::TempStore temp_{clock_};
  const Config& config_ = temp_.config;
  std::shared_ptr<store::JobStore>& jobs_ = temp_.jobs;
  WorkerOptions options_;
  ScriptedSource source_;
};

TEST_F(WorkerTest, AJobStoresEveryPlaceOnceChargesItAndQueuesItsEvents) {
  const auto acct = account(100);
  source_.answers["coffee|Athens"] = {place("a", "https://a.example"), place("b"), place("c")};
  source_.answers["coffee|Ilion"] = {place("c"), place("d")};  // "c" again: delivered once
  source_.emails_of["https://a.example"] = {"hello@a.example"};
  const std::string id = create(acct, {"coffee"}, {"Athens", "Ilion"}, true);
  JobWorker worker(*jobs_, source_, clock_, options_);
  EXPECT_TRUE(worker.run_one());
  EXPECT_FALSE(worker.run_one());

  store::Job job = *jobs_->job(id);
  EXPECT_EQ(job.status, store::job_status::kFinished);
  EXPECT_EQ(job.rows_count, 4);
  EXPECT_EQ(job.credits_spent, 20);
  EXPECT_EQ(balance(acct), 80);
  auto rows = jobs_->rows(id, 0, 10);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["placeId"], "a");
  EXPECT_EQ(rows[0]["emails"], json({"hello@a.example"}));
  EXPECT_EQ(rows[0]["keyword"], "coffee");
  EXPECT_EQ(rows[0]["location"], "Athens");
  EXPECT_FALSE(rows[1].contains("emails"));  // no website to read
  EXPECT_EQ(rows[3]["placeId"], "d");
  EXPECT_EQ(rows[3]["location"], "Ilion");
  // started; batches of two (a b), (c), (d); finished.
  EXPECT_EQ(events(id),
            (std::vector<std::string>{event::kStarted, event::kDataScraped, event::kDataScraped,
                                      event::kDataScraped, event::kFinished}));
  json data = json::parse(jobs_->deliveries(id)[1].delivery.body);
  EXPECT_EQ(data["jobStatus"], "in_progress");
  ASSERT_EQ(data["data"].size(), 2u);
  EXPECT_EQ(data["data"][1]["placeId"], "b");
  EXPECT_EQ(json::parse(jobs_->deliveries(id)[4].delivery.body)["jobStatus"], "finished");
}

TEST_F(WorkerTest, TheLimitBoundsTheRowsOfEachPair) {
  const auto acct = account(100);
  source_.answers["tea|Rome"] = {place("a"), place("b"), place("c")};
  const std::string id = create(acct, {"tea"}, {"Rome"}, false, 2);
  JobWorker worker(*jobs_, source_, clock_, options_);
  worker.run_one();
  EXPECT_EQ(jobs_->job(id)->rows_count, 2);
}

TEST_F(WorkerTest, AJobStopsWhenTheBalanceCannotPayTheNextRow) {
  const auto acct = account(12);  // two rows at 5
  source_.answers["coffee|Athens"] = {place("a"), place("b"), place("c"), place("d")};
  const std::string id = create(acct, {"coffee"}, {"Athens"});
  JobWorker worker(*jobs_, source_, clock_, options_);
  worker.run_one();
  store::Job job = *jobs_->job(id);
  EXPECT_EQ(job.status, store::job_status::kStopped);
  EXPECT_EQ(job.stop_reason, "insufficient_credits");
  EXPECT_EQ(job.rows_count, 2);
  EXPECT_EQ(balance(acct), 2);
  auto kinds = events(id);
  ASSERT_FALSE(kinds.empty());
  EXPECT_EQ(kinds.back(), event::kFinished);
  json finished = json::parse(jobs_->deliveries(id).back().delivery.body);
  EXPECT_EQ(finished["jobStatus"], "stopped");
}

TEST_F(WorkerTest, ABlockedSearchFailsTheJobWithAFinishedEvent) {
  const auto acct = account(100);
  const std::string id = create(acct, {"coffee"}, {"Nowhere"});
  JobWorker worker(*jobs_, source_, clock_, options_);
  worker.run_one();
  store::Job job = *jobs_->job(id);
  EXPECT_EQ(job.status, store::job_status::kFailed);
  EXPECT_EQ(job.stop_reason, "upstream_blocked");
  EXPECT_EQ(events(id).back(), event::kFinished);
  EXPECT_EQ(balance(acct), 100);
}

TEST_F(WorkerTest, ASearchThatFailsForAPassingReasonIsTriedAgain) {
  const auto acct = account(100);
  source_.answers["coffee|Athens"] = {place("a")};
  source_.failures["coffee|Athens"] = 2;
  const std::string id = create(acct, {"coffee"}, {"Athens"});
  JobWorker worker(*jobs_, source_, clock_, options_);
  worker.run_one();
  EXPECT_EQ(jobs_->job(id)->status, store::job_status::kFinished);
  EXPECT_EQ(jobs_->job(id)->rows_count, 1);
  EXPECT_EQ(source_.searches().size(), 3u);
}

TEST_F(WorkerTest, ASearchFailingEveryAttemptFailsTheJob) {
  const auto acct = account(100);
  source_.answers["coffee|Athens"] = {place("a")};
  source_.failures["coffee|Athens"] = 3;
  const std::string id = create(acct, {"coffee"}, {"Athens"});
  JobWorker worker(*jobs_, source_, clock_, options_);
  worker.run_one();
  EXPECT_EQ(jobs_->job(id)->status, store::job_status::kFailed);
  EXPECT_EQ(jobs_->job(id)->stop_reason, "upstream_error");
  EXPECT_EQ(source_.searches().size(), 3u);
  EXPECT_EQ(balance(acct), 100);
}

TEST_F(WorkerTest, AStopAskedByTheAccountEndsTheJobAtTheNextPair) {
  const auto acct = account(100);
  source_.answers["a|X"] = {place("1")};
  source_.answers["b|X"] = {place("2")};
  const std::string id = create(acct, {"a", "b"}, {"X"});
  jobs_->mark_started(id, std::nullopt);
  jobs_->request_stop(id, acct, [](const store::Job&) { return std::nullopt; });
  JobWorker worker(*jobs_, source_, clock_, options_);
  worker.run_one();
  store::Job job = *jobs_->job(id);
  EXPECT_EQ(job.status, store::job_status::kStopped);
  EXPECT_EQ(job.stop_reason, "stopped_by_user");
  EXPECT_TRUE(source_.searches().empty());
}

TEST_F(WorkerTest, AJobTakenOverByAnotherNodeIsLeftToIt) {
  const auto acct = account(100);
  source_.answers["coffee|Athens"] = {place("a")};
  source_.hold_at = "coffee|Ilion";
  const std::string id = create(acct, {"coffee"}, {"Athens", "Ilion"});
  options_.lease = std::chrono::seconds(60);
  JobWorker worker(*jobs_, source_, clock_, options_);
  std::thread run([&] { worker.run_one(); });
  ASSERT_TRUE(source_.wait_for_search("coffee|Ilion"));
  // This node's lease lapses during the search (a stall), and another node takes the job.
  clock_.advance(std::chrono::seconds(61));
  Config other = config_;
  other.set("node_id", "other-node");
  auto other_store = store::open_store(other, clock_, store::StoreRole::Node);
  auto other_jobs = job_store_of(other, *other_store, clock_);
  ASSERT_TRUE(other_jobs->claim_job(std::chrono::seconds(60)).has_value());
  source_.release();  // the search fails for a passing reason: it would be tried again
  run.join();
  // The first node neither retried the search nor ended the job: the other node runs it.
  const store::Job job = *jobs_->job(id);
  EXPECT_EQ(job.status, store::job_status::kInProgress);
  EXPECT_EQ(job.rows_count, 1);
  const auto searches = source_.searches();
  EXPECT_EQ(std::count(searches.begin(), searches.end(), "coffee|Ilion"), 1);
  EXPECT_EQ(events(id), (std::vector<std::string>{event::kStarted, event::kDataScraped}));
  EXPECT_TRUE(other_jobs->renew_lease(id, std::chrono::seconds(60)));
}

TEST_F(WorkerTest, AStopAskedDuringASearchEndsTheJobWithoutWaitingForIt) {
  const auto acct = account(100);
  source_.answers["coffee|Athens"] = {place("a")};
  source_.hold_at = "coffee|Ilion";  // never released: only the stop ends it
  const std::string id = create(acct, {"coffee"}, {"Athens", "Ilion"});
  JobWorker worker(*jobs_, source_, clock_, options_);
  worker.start();
  ASSERT_TRUE(source_.wait_for_search("coffee|Ilion"));
  jobs_->request_stop(id, acct, [](const store::Job&) { return std::nullopt; });
  const auto give_up = SteadyClock::now() + std::chrono::seconds(60);
  while (jobs_->job(id)->status == store::job_status::kInProgress && SteadyClock::now() < give_up) {
    std::this_thread::sleep_for(Millis(10));  // polling pace, not an assertion
  }
  const store::Job job = *jobs_->job(id);
  EXPECT_EQ(job.status, store::job_status::kStopped);
  EXPECT_EQ(job.stop_reason, "stopped_by_user");
  EXPECT_EQ(job.rows_count, 1);  // Athens' row stays
  EXPECT_EQ(events(id).back(), event::kFinished);
}

TEST_F(WorkerTest, AJobInterruptedMidwayResumesWithoutDuplicatingRowsChargesOrEvents) {
  const auto acct = account(100);
  source_.answers["coffee|Athens"] = {place("a"), place("b"), place("c")};
  source_.answers["coffee|Ilion"] = {place("c"), place("d")};
  source_.hold_at = "coffee|Ilion";
  const std::string id = create(acct, {"coffee"}, {"Athens", "Ilion"});
  {
    // The first run stores Athens' rows, then is stopped during the Ilion search (the
    // service shutting down); its thread is joined as the worker goes.
    JobWorker first(*jobs_, source_, clock_, options_);
    first.start();
    ASSERT_TRUE(source_.wait_for_search("coffee|Ilion"));
    EXPECT_EQ(jobs_->job(id)->rows_count, 3);
    std::thread stopper([&] { first.stop(); });
    // The search is released only once the worker is stopping, as a shutdown would end it.
    const auto give_up = SteadyClock::now() + std::chrono::seconds(60);
    while (!first.stopping() && SteadyClock::now() < give_up) std::this_thread::yield();
    source_.release();
    stopper.join();
  }
  // Paused, not failed: still in progress, with Athens' rows stored once.
  EXPECT_EQ(jobs_->job(id)->status, store::job_status::kInProgress);
  EXPECT_EQ(balance(acct), 85);

  // After the restart: a new store handle and worker on the same node take the job back and
  // resume at the Ilion pair.
  source_.hold_at.clear();
  auto reopened = store::open_store(config_, clock_, store::StoreRole::Node);
  auto jobs = job_store_of(config_, *reopened, clock_);
  JobWorker second(*jobs, source_, clock_, options_);
  EXPECT_FALSE(second.run_one());  // still the first run's lease...
  jobs->release_job_leases();      // ...which the node drops as its worker starts
  EXPECT_TRUE(second.run_one());
  store::Job job = *jobs->job(id);
  EXPECT_EQ(job.status, store::job_status::kFinished);
  EXPECT_EQ(job.rows_count, 4);
  EXPECT_EQ(job.credits_spent, 20);
  EXPECT_EQ(balance(acct), 80);
  auto searches = source_.searches();
  EXPECT_EQ(std::count(searches.begin(), searches.end(), "coffee|Athens"), 1);
  // One started, one finished, and the data events carry a, b / c / d: each row once.
  std::vector<std::string> delivered;
  for (const auto& d : jobs->deliveries(id)) {
    if (d.delivery.event != event::kDataScraped) continue;
    const json body = json::parse(d.delivery.body);
    for (const json& row : body["data"]) delivered.push_back(row["placeId"]);
  }
  EXPECT_EQ(delivered, (std::vector<std::string>{"a", "b", "c", "d"}));
  auto kinds = events(id);
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), event::kStarted), 1);
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), event::kFinished), 1);
}

}  // namespace
}  // namespace gleaner::jobs
