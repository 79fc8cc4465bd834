// Jobs, rows, charges and the webhook outbox in the store, on SQLite and PostgreSQL.
#include "store/jobs_store.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "store/admin.h"
#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

using nlohmann::json;

template <typename Backend>
class JobsStoreTest : public StoreFixture<Backend> {
 protected:
  JobStore jobs(const std::string& node = "node-a", JobStoreLimits limits = {}) {
    return JobStore(this->database(), *this->store_, this->clock_, node, std::move(limits));
  }
  static json input() { return {{"keywords", {"coffee"}}, {"locations", {"CUSTOM>Athens"}}}; }
  static std::vector<JobRow> rows_named(std::initializer_list<const char*> keys) {
    std::vector<JobRow> rows;
    for (const char* key : keys) rows.push_back({key, {{"placeId", key}}});
    return rows;
  }
  static std::optional<std::string> batch(const std::vector<json>& rows) {
    return json{{"rows", rows}}.dump();
  }
  /// The code check_room() refuses a new job of `account` with (a 507), if it does.
  static std::optional<ErrorCode> refusal(JobStore& js, std::int64_t account) {
    try {
      js.check_room(account);
    } catch (const Error& e) {
      EXPECT_EQ(http_status(e.code()), 507);
      return e.code();
    }
    return std::nullopt;
  }
};
TYPED_TEST_SUITE(JobsStoreTest, Backends, BackendName);

TYPED_TEST(JobsStoreTest, OnlyTheCreatingAccountFindsAJob) {
  auto owner = this->new_account(100, "owner");
  auto other = this->new_account(100, "other");
  JobStore js = this->jobs();
  Job job = js.create_job(owner, "maps", this->input());
  EXPECT_EQ(job.status, job_status::kPending);
  EXPECT_EQ(job.input, this->input());
  EXPECT_TRUE(js.find_job(job.id, owner).has_value());
  EXPECT_FALSE(js.find_job(job.id, other).has_value());
  EXPECT_EQ(js.list_jobs(owner, 0, 10).size(), 1u);
  EXPECT_TRUE(js.list_jobs(other, 0, 10).empty());
  EXPECT_EQ(js.count_jobs(owner), 1);
}

TYPED_TEST(JobsStoreTest, AJobIsItsKeysAndAnOlderJobWithoutOneIsTheAccounts) {
  auto owner = this->new_account(100, "owner");
  JobStore js = this->jobs();
  Job keyed = js.create_job(owner, "maps", this->input(), "hash-of-key-1");
  Job older = js.create_job(owner, "maps", this->input());  // as before keys were recorded
  EXPECT_EQ(keyed.key_hash, "hash-of-key-1");
  EXPECT_TRUE(js.find_job(keyed.id, owner, "hash-of-key-1").has_value());
  EXPECT_FALSE(js.find_job(keyed.id, owner, "hash-of-key-2").has_value());
  EXPECT_TRUE(js.find_job(keyed.id, owner).has_value());  // the account as a whole (admin)
  EXPECT_TRUE(js.find_job(older.id, owner, "hash-of-key-2").has_value());
  EXPECT_EQ(js.count_jobs(owner, "hash-of-key-1"), 2);
  EXPECT_EQ(js.count_jobs(owner, "hash-of-key-2"), 1);
  ASSERT_EQ(js.list_jobs(owner, 0, 10, "hash-of-key-2").size(), 1u);
  EXPECT_EQ(js.list_jobs(owner, 0, 10, "hash-of-key-2")[0].id, older.id);
  EXPECT_FALSE(js.request_stop(
                     keyed.id, owner, [](const Job&) { return std::nullopt; }, "hash-of-key-2")
                   .has_value());
}

TYPED_TEST(JobsStoreTest, RowsAreStoredAndChargedOncePerPlace) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  Job job = js.create_job(account, "maps", this->input());
  StoredRows first =
      js.store_rows(job, this->rows_named({"a", "b"}), 5, "maps_job_row", &TestFixture::batch);
  EXPECT_EQ(first.stored.size(), 2u);
  // "b" again (a duplicate across pairs, or a replay after a restart): stored and charged once.
  StoredRows second =
      js.store_rows(job, this->rows_named({"b", "c"}), 5, "maps_job_row", &TestFixture::batch);
  ASSERT_EQ(second.stored.size(), 1u);
  EXPECT_EQ(second.stored[0]["placeId"], "c");
  EXPECT_EQ(this->balance(account), 85);
  EXPECT_EQ(this->ledger_rows(account), 3);
  Job after = *js.job(job.id);
  EXPECT_EQ(after.rows_count, 3);
  EXPECT_EQ(after.credits_spent, 15);
  auto page = js.rows(job.id, 1, 10);
  ASSERT_EQ(page.size(), 2u);
  EXPECT_EQ(page[0]["placeId"], "b");
  // One data delivery per batch that stored something.
  EXPECT_EQ(js.deliveries(job.id).size(), 2u);
}

// An export reads a job a bounded page at a time (issue 41, item 3): by a cursor on seq, cut by
// count and by the rows' total length, with one row however large, and as the rows were stored.
TYPED_TEST(JobsStoreTest, RowsAreReadAfterACursorInPagesBoundedByCountAndLength) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  Job job = js.create_job(account, "maps", this->input());
  std::vector<JobRow> rows;
  // Sizes in thousands of characters: small, small, large, small, small, small.
  const std::vector<int> sizes = {1, 1, 50, 1, 1, 1};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    rows.push_back({"k" + std::to_string(i),
                    {{"placeId", "k" + std::to_string(i)},
                     {"text", std::string(static_cast<std::size_t>(sizes[i]) * 1000, 'a')}}});
  }
  js.store_rows(job, rows, 0, "maps_job_row", &TestFixture::batch);

  // Everything fits: all rows, in order, as stored.
  auto all = js.rows_after(job.id, 0, 100, 1 << 20);
  ASSERT_EQ(all.size(), 6u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].seq, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(all[i].json, rows[i].data.dump());
  }
  // Cut by count, then resumed after the cursor.
  auto two = js.rows_after(job.id, 0, 2, 1 << 20);
  ASSERT_EQ(two.size(), 2u);
  auto next = js.rows_after(job.id, two.back().seq, 2, 10'000);
  // The large row does not fit beside the next small one: it comes alone...
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].seq, 3);
  // ...even alone it is over the length asked for, and is still given, by itself.
  auto large = js.rows_after(job.id, 2, 5, 10);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].seq, 3);
  auto rest = js.rows_after(job.id, 3, 100, 10'000);
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[0].seq, 4);
  EXPECT_TRUE(js.rows_after(job.id, 6, 100, 10'000).empty());
  EXPECT_TRUE(js.rows_after(job.id, 6, 1, 10'000).empty());
  // Where a page starts.
  EXPECT_EQ(js.seq_at(job.id, 0), 1);
  EXPECT_EQ(js.seq_at(job.id, 5), 6);
  EXPECT_FALSE(js.seq_at(job.id, 6).has_value());
}

TYPED_TEST(JobsStoreTest, TheRowTheBalanceCannotPayIsNotStored) {
  auto account = this->new_account(12);
  JobStore js = this->jobs();
  Job job = js.create_job(account, "maps", this->input());
  StoredRows stored =
      js.store_rows(job, this->rows_named({"a", "b", "c"}), 5, "maps_job_row", &TestFixture::batch);
  EXPECT_EQ(stored.stored.size(), 2u);
  EXPECT_TRUE(stored.out_of_credits);
  EXPECT_EQ(this->balance(account), 2);
  EXPECT_EQ(js.job(job.id)->rows_count, 2);
}

// Issue 41, item 2: a jsRendering: false batch row of a 10 MB page with html, text and markdown
// stored about 31 MB for 1 credit. A row is held to max_row_bytes, cut largest field first.
TYPED_TEST(JobsStoreTest, ARowOverTheLimitIsStoredCutNamingWhatWasCut) {
  auto account = this->new_account(100);
  JobStoreLimits limits;
  limits.max_row_bytes = 64 * 1024;
  JobStore js = this->jobs("node-a", limits);
  Job job = js.create_job(account, "batch", this->input());
  std::string text;
  for (int i = 0; i < 40000; ++i) text += "\xC3\xA9";  // é, two bytes each
  const json page = {{"url", "https://example.com/big"},
                     {"statusCode", 200},
                     {"content", std::string(200'000, 'a')},
                     {"text", text},
                     {"markdown", "# Big"},
                     {"truncated", {"page"}}};
  StoredRows stored =
      js.store_rows(job, {{"https://example.com/big", page}}, 1, "web_plain", &TestFixture::batch);
  ASSERT_EQ(stored.stored.size(), 1u);
  const json& row = stored.stored[0];
  const std::string dumped = row.dump();  // strict: a character cut in two would throw here
  EXPECT_LE(dumped.size(), limits.max_row_bytes);
  EXPECT_GT(dumped.size(), limits.max_row_bytes / 2);
  EXPECT_EQ(row["url"], page["url"]);
  EXPECT_EQ(row["statusCode"], 200);
  EXPECT_EQ(row["markdown"], "# Big");
  EXPECT_EQ(row["truncated"], json({"page", "content", "text"})) << row["truncated"];
  // The largest field first: all of content would not do, so it is left out; then what is kept
  // of text is its start, whole characters.
  EXPECT_FALSE(row.contains("content"));
  const std::string& kept_text = row["text"].get_ref<const std::string&>();
  EXPECT_GT(kept_text.size(), 30'000u);
  EXPECT_EQ(kept_text, text.substr(0, kept_text.size()));
  // Stored as delivered; the account's stored bytes are the row's text.
  ASSERT_EQ(js.rows(job.id, 0, 10).size(), 1u);
  EXPECT_EQ(js.rows(job.id, 0, 10)[0], row);
  EXPECT_EQ(js.stored_bytes(account), static_cast<std::int64_t>(dumped.size()));
  // A row within the limit is stored as it is.
  const json small = {{"url", "https://example.com/small"}, {"content", "<p>hi</p>"}};
  StoredRows kept = js.store_rows(job, {{"https://example.com/small", small}}, 1, "web_plain",
                                  &TestFixture::batch);
  ASSERT_EQ(kept.stored.size(), 1u);
  EXPECT_EQ(kept.stored[0], small);
}

// Issue 41, item 2: an account's rows have a quota; past it no new job and no new row.
TYPED_TEST(JobsStoreTest, AnAccountAtItsQuotaGetsNoNewJobNorRow) {
  auto owner = this->new_account(100, "owner");
  auto other = this->new_account(100, "other");
  JobStoreLimits limits;
  limits.account_quota = 100;
  JobStore js = this->jobs("node-a", limits);
  js.check_room(owner);
  Job job = js.create_job(owner, "maps", this->input());
  std::vector<JobRow> rows;
  for (const char* key : {"a", "b", "c"}) {
    rows.push_back({key, {{"placeId", key}, {"name", std::string(50, 'n')}}});  // 75 bytes
  }
  StoredRows stored = js.store_rows(job, rows, 5, "maps_job_row", &TestFixture::batch);
  // "a" leaves the account under its quota, "b" takes it over, "c" is refused and not charged.
  EXPECT_EQ(stored.stored.size(), 2u);
  EXPECT_EQ(stored.storage_refused, storage_refusal::kQuota);
  EXPECT_FALSE(stored.out_of_credits);
  EXPECT_EQ(this->balance(owner), 90);
  EXPECT_EQ(js.stored_bytes(owner), 150);
  EXPECT_EQ(this->refusal(js, owner), ErrorCode::StorageQuotaExceeded);
  js.check_room(other);  // another account's room is its own
  EXPECT_EQ(js.stored_bytes(other), 0);
}

// An ended job's rows, deleted by its account, give their bytes back to the account's quota.
TYPED_TEST(JobsStoreTest, DeletingAnEndedJobsRowsFreesItsAccountsQuota) {
  auto owner = this->new_account(100, "owner");
  auto other = this->new_account(100, "other");
  JobStoreLimits limits;
  limits.account_quota = 100;
  JobStore js = this->jobs("node-a", limits);
  auto two_rows = [&](Job& job) {
    std::vector<JobRow> rows;
    for (const char* key : {"a", "b"}) {
      rows.push_back({key, {{"placeId", key}, {"name", std::string(50, 'n')}}});  // 75 bytes
    }
    return js.store_rows(job, rows, 5, "maps_job_row", &TestFixture::batch);
  };
  Job job = js.create_job(owner, "maps", this->input());
  ASSERT_EQ(two_rows(job).stored.size(), 2u);
  Job others = js.create_job(other, "maps", this->input());
  ASSERT_EQ(two_rows(others).stored.size(), 2u);
  ASSERT_EQ(this->refusal(js, owner), ErrorCode::StorageQuotaExceeded);
  // Not ended: its worker would go on adding rows.
  try {
    js.delete_rows(job.id, owner);
    ADD_FAILURE() << "the rows of a pending job were deleted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::JobNotEnded);
    EXPECT_EQ(http_status(e.code()), 409);
  }
  EXPECT_EQ(js.rows(job.id, 0, 10).size(), 2u);
  ASSERT_TRUE(js.request_stop(job.id, owner, [](const Job&) { return std::nullopt; }));
  // Nobody else's to delete: not found, as the job is to them.
  EXPECT_FALSE(js.delete_rows(job.id, other).has_value());
  auto deleted = js.delete_rows(job.id, owner);
  ASSERT_TRUE(deleted.has_value());
  EXPECT_TRUE(deleted->results_deleted_at.has_value());
  EXPECT_EQ(deleted->rows_count, 2);  // what it produced and was charged for stays
  EXPECT_EQ(deleted->credits_spent, 10);
  EXPECT_TRUE(js.rows(job.id, 0, 10).empty());
  EXPECT_EQ(js.stored_bytes(owner), 0);
  EXPECT_EQ(this->refusal(js, owner), std::nullopt);
  EXPECT_EQ(js.stored_bytes(other), 150);  // another account's rows are untouched
  EXPECT_EQ(js.rows(others.id, 0, 10).size(), 2u);
  // Again: nothing more to free.
  ASSERT_TRUE(js.delete_rows(job.id, owner).has_value());
  EXPECT_EQ(js.stored_bytes(owner), 0);
  EXPECT_EQ(this->balance(owner), 90);
}

// Issue 41, item 2: the disk the store writes to is watched; short of room, nothing new is taken.
TYPED_TEST(JobsStoreTest, ADiskShortOfRoomRefusesNewJobsAndRows) {
  auto owner = this->new_account(100);
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_FALSE(DiskWatch(dir, 1).low());  // there is a byte free
  EXPECT_FALSE(DiskWatch(dir, 0).low());  // 0: not watched
  ASSERT_TRUE(DiskWatch(dir, 1).free_bytes().has_value());
  JobStoreLimits limits;
  limits.disk = std::make_shared<DiskWatch>(dir, std::uint64_t{1} << 62);
  ASSERT_TRUE(limits.disk->low());
  JobStore js = this->jobs("node-a", limits);
  EXPECT_EQ(this->refusal(js, owner), ErrorCode::InsufficientStorage);
  Job job = js.create_job(owner, "maps", this->input());  // made before the disk filled up
  StoredRows stored =
      js.store_rows(job, this->rows_named({"a"}), 5, "maps_job_row", &TestFixture::batch);
  EXPECT_TRUE(stored.stored.empty());
  EXPECT_EQ(stored.storage_refused, storage_refusal::kDisk);
  EXPECT_EQ(this->balance(owner), 100);
  EXPECT_EQ(js.job(job.id)->rows_count, 0);
}

TYPED_TEST(JobsStoreTest, AJobRunsOnOneNodeUntilItsLeaseExpires) {
  auto account = this->new_account(100);
  JobStore a = this->jobs("node-a");
  auto store_b = this->open("node-b");
  JobStore b(dynamic_cast<SqlStore&>(*store_b).database(), *store_b, this->clock_, "node-b");
  Job job = a.create_job(account, "maps", this->input());
  ASSERT_TRUE(a.claim_job(std::chrono::seconds(60)).has_value());
  EXPECT_FALSE(b.claim_job(std::chrono::seconds(60)).has_value());  // claimed, not started
  EXPECT_TRUE(a.mark_started(job.id, std::string("{}")));
  EXPECT_FALSE(a.mark_started(job.id, std::string("{}")));
  EXPECT_FALSE(b.claim_job(std::chrono::seconds(60)).has_value());
  // Another thread of node a does not take it a second time...
  EXPECT_FALSE(a.claim_job(std::chrono::seconds(60)).has_value());
  // ...but node a restarting takes its own job back at once; b's leases are not a's to drop.
  b.release_job_leases();
  EXPECT_FALSE(b.claim_job(std::chrono::seconds(60)).has_value());
  a.release_job_leases();
  EXPECT_TRUE(a.claim_job(std::chrono::seconds(60)).has_value());
  this->clock_.advance(std::chrono::seconds(61));
  auto taken = b.claim_job(std::chrono::seconds(60));
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->status, job_status::kInProgress);
  EXPECT_FALSE(a.renew_lease(job.id, std::chrono::seconds(60)));
  EXPECT_TRUE(b.renew_lease(job.id, std::chrono::seconds(60)));
}

TYPED_TEST(JobsStoreTest, TwoNodesClaimingAtOnceTakeEachJobOnce) {
  auto account = this->new_account(100);
  std::vector<std::string> created;
  for (int i = 0; i < 12; ++i) {
    created.push_back(this->jobs().create_job(account, "maps", this->input()).id);
  }
  auto store_b = this->open("node-b");
  std::mutex mutex;  // guards claimed
  std::vector<std::string> claimed;
  auto claim_all = [&](JobStore js) {
    while (auto job = js.claim_job(std::chrono::seconds(60))) {
      std::lock_guard lock(mutex);
      claimed.push_back(job->id);
    }
  };
  {
    // Three threads per node, each with its own connection, racing for the same jobs.
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i) {
      threads.emplace_back(claim_all, this->jobs("node-a"));
      threads.emplace_back(claim_all, JobStore(dynamic_cast<SqlStore&>(*store_b).database(),
                                               *store_b, this->clock_, "node-b"));
    }
    for (auto& t : threads) t.join();
  }
  // Every job taken once: by one thread of one node.
  std::sort(claimed.begin(), claimed.end());
  std::sort(created.begin(), created.end());
  EXPECT_EQ(claimed, created);
}

TYPED_TEST(JobsStoreTest, StoppingAPendingJobEndsItAndARunningOneIsFlagged) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  auto finished = [](const Job& j) { return std::optional<std::string>(j.status); };
  Job pending = js.create_job(account, "maps", this->input());
  auto stopped = js.request_stop(pending.id, account, finished);
  ASSERT_TRUE(stopped.has_value());
  EXPECT_EQ(stopped->status, job_status::kStopped);
  EXPECT_EQ(stopped->stop_reason, "stopped_by_user");
  ASSERT_EQ(js.deliveries(pending.id).size(), 1u);
  EXPECT_EQ(js.deliveries(pending.id)[0].delivery.event, "scraper.job.finished");
  EXPECT_FALSE(js.claim_job(std::chrono::seconds(60)).has_value());

  Job running = js.create_job(account, "maps", this->input());
  ASSERT_TRUE(js.claim_job(std::chrono::seconds(60)).has_value());
  js.mark_started(running.id, std::nullopt);
  auto flagged = js.request_stop(running.id, account, finished);
  EXPECT_EQ(flagged->status, job_status::kInProgress);
  EXPECT_TRUE(flagged->stop_requested);
  EXPECT_FALSE(js.request_stop(running.id, account + 1, finished).has_value());
}

TYPED_TEST(JobsStoreTest, DeliveryAttemptsAreRecordedAndRetriedWhenDue) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  Job job = js.create_job(account, "maps", this->input());
  js.finish_job(job.id, job_status::kFinished, std::nullopt,
                [](const Job&) { return std::optional<std::string>("{}"); });
  auto d = js.claim_delivery(std::chrono::seconds(30));
  ASSERT_TRUE(d.has_value());
  EXPECT_FALSE(
      this->jobs("node-b").claim_delivery(std::chrono::seconds(30)).has_value());  // leased
  EXPECT_FALSE(js.claim_delivery(std::chrono::seconds(30)).has_value());           // being sent
  // This node after a restart: its cut-off attempt is taken again at once.
  js.release_delivery_leases();
  auto resumed = this->jobs().claim_delivery(std::chrono::seconds(30));
  ASSERT_TRUE(resumed.has_value());
  EXPECT_EQ(resumed->id, d->id);
  js.record_attempt(*d, {1, this->clock_.now(), 500, "http_error", "HTTP 500"}, false,
                    this->clock_.now() + std::chrono::seconds(2));
  EXPECT_FALSE(js.claim_delivery(std::chrono::seconds(30)).has_value());  // not due yet
  this->clock_.advance(std::chrono::seconds(2));
  auto again = js.claim_delivery(std::chrono::seconds(30));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->attempts, 1);
  js.record_attempt(*again, {2, this->clock_.now(), 200, "ok", "HTTP 200"}, true, std::nullopt);
  auto all = js.deliveries(job.id);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].delivery.status, delivery_status::kDone);
  ASSERT_EQ(all[0].attempts.size(), 2u);
  EXPECT_EQ(all[0].attempts[0].http_status, 500);
  EXPECT_EQ(js.pending_deliveries(), 0);
}

// Page jobs: the frontier in the store, shared by nodes entry by entry.
template <typename Backend>
class FrontierStoreTest : public JobsStoreTest<Backend> {
 protected:
  static FrontierEntry page(const std::string& origin, const std::string& path,
                            std::int64_t depth = 0) {
    FrontierEntry e;
    e.key = origin + path;
    e.url = e.key;
    e.origin = origin;
    e.depth = depth;
    return e;
  }
  static std::optional<std::string> one_row(const std::vector<json>& rows) {
    return json{{"data", rows}}.dump();
  }
  /// Commits a claimed entry with a row named after it, charged 1 credit.
  static CommittedEntry commit(JobStore& js, const ClaimedEntry& c,
                               const std::vector<FrontierEntry>& found = {},
                               const FrontierPolicy& policy = {},
                               const std::vector<std::string>& aliases = {}) {
    return js.commit_entry(c.job, c.entry, aliases, JobRow{c.entry.key, {{"url", c.entry.url}}},
                           1, "web", found, policy, &FrontierStoreTest<Backend>::one_row);
  }
  std::size_t data_deliveries(JobStore& js, const std::string& job_id) {
    std::size_t n = 0;
    for (const auto& d : js.deliveries(job_id)) n += d.delivery.event == "scraper.data.scraped";
    return n;
  }
};
TYPED_TEST_SUITE(FrontierStoreTest, Backends, BackendName);

TYPED_TEST(FrontierStoreTest, TwoNodesShareOneCrawlAndStoreEachPageOnce) {
  auto account = this->new_account(100);
  JobStore a = this->jobs("node-a");
  FrontierPolicy policy;
  policy.max_concurrency = 2;
  std::vector<FrontierEntry> seeds;
  for (int i = 0; i < 30; ++i) {
    seeds.push_back(this->page("https://h" + std::to_string(i % 3) + ".example",
                               "/p" + std::to_string(i)));
  }
  const Job job = a.create_frontier_job(account, "batch", json::object(), "", seeds, policy);
  EXPECT_TRUE(job.by_frontier);
  EXPECT_EQ(job.frontier_size, 30);
  EXPECT_FALSE(a.claim_job(std::chrono::seconds(60)).has_value());  // never leased whole
  auto store_b = this->open("node-b");
  std::mutex mutex;  // guards committed
  std::vector<std::string> committed;
  std::atomic<int> in_flight_max{0};
  auto work = [&](JobStore js) {
    while (!js.job(job.id)->done()) {
      auto claimed = js.claim_entry(std::chrono::seconds(60));
      if (!claimed) {
        js.finish_if_drained(job.id, [](const Job&) { return std::nullopt; });
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      const auto leased = js.frontier_states(job.id)["leased"];
      in_flight_max = std::max<int>(in_flight_max, static_cast<int>(leased));
      const CommittedEntry done = TestFixture::commit(js, *claimed);
      if (done.row) {
        std::lock_guard lock(mutex);
        committed.push_back(claimed->entry.key);
      }
    }
  };
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i) {
      threads.emplace_back(work, this->jobs("node-a"));
      threads.emplace_back(work, JobStore(dynamic_cast<SqlStore&>(*store_b).database(), *store_b,
                                          this->clock_, "node-b"));
    }
    for (auto& t : threads) t.join();
  }
  std::sort(committed.begin(), committed.end());
  std::vector<std::string> expected;
  for (const auto& s : seeds) expected.push_back(s.key);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(committed, expected);
  const Job done = *a.job(job.id);
  EXPECT_EQ(done.status, job_status::kFinished);
  EXPECT_EQ(done.rows_count, 30);
  EXPECT_EQ(this->balance(account), 70);
  EXPECT_EQ(this->data_deliveries(a, job.id), 30u);
  // Three origins, at most two of each leased at once.
  EXPECT_LE(in_flight_max.load(), 6);
}

TYPED_TEST(FrontierStoreTest, ADeadNodesPageIsTakenOverAndStoredOnce) {
  auto account = this->new_account(100);
  JobStore a = this->jobs("node-a");
  auto store_b = this->open("node-b");
  JobStore b(dynamic_cast<SqlStore&>(*store_b).database(), *store_b, this->clock_, "node-b");
  const Job job = a.create_frontier_job(account, "crawler", json::object(), "",
                                        {this->page("https://x.example", "/")}, {});
  auto on_a = a.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(on_a);
  EXPECT_FALSE(b.claim_entry(std::chrono::seconds(60)));  // a holds it
  // a is killed mid-page: b takes the page once a's lease expired.
  this->clock_.advance(std::chrono::seconds(61));
  auto on_b = b.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(on_b);
  EXPECT_EQ(on_b->entry.id, on_a->entry.id);
  const CommittedEntry by_b = this->commit(b, *on_b, {this->page("https://x.example", "/next", 1)});
  ASSERT_TRUE(by_b.row);
  EXPECT_EQ(by_b.added, 1);
  // a, had it only been slow, finds its page done: nothing stored, charged or announced again.
  const CommittedEntry by_a = this->commit(a, *on_a, {this->page("https://x.example", "/other", 1)});
  EXPECT_TRUE(by_a.lost);
  EXPECT_FALSE(by_a.row);
  EXPECT_EQ(a.job(job.id)->rows_count, 1);
  EXPECT_EQ(this->balance(account), 99);
  EXPECT_EQ(this->data_deliveries(a, job.id), 1u);
  // A node restarting puts its own leased pages back at once.
  auto next = a.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(next);
  EXPECT_EQ(next->entry.key, "https://x.example/next");
  EXPECT_FALSE(b.claim_entry(std::chrono::seconds(60)));
  a.release_job_leases();
  EXPECT_TRUE(b.claim_entry(std::chrono::seconds(60)));
}

TYPED_TEST(FrontierStoreTest, APinnedJobRunsOnItsNodeOnlyOneEntryAtATimeInItsOrder) {
  auto account = this->new_account(100);
  JobStore a = this->jobs("node-a");
  auto store_b = this->open("node-b");
  JobStore b(dynamic_cast<SqlStore&>(*store_b).database(), *store_b, this->clock_, "node-b");
  FrontierPolicy policy;
  policy.max_concurrency = 4;  // a batch's, per origin: the pin makes it one for the whole job
  // Two origins, interleaved: the order is the batch's, not the origins'.
  const std::vector<FrontierEntry> seeds = {
      this->page("https://x.example", "/login"), this->page("https://y.example", "/a"),
      this->page("https://x.example", "/b"), this->page("https://y.example", "/c")};
  const Job job = a.create_frontier_job(account, "batch", json::object(), "", seeds, policy,
                                        /*pinned=*/true);
  EXPECT_EQ(job.pinned_node, "node-a");
  EXPECT_EQ(a.job(job.id)->pinned_node, "node-a");
  const Job free_job = a.create_frontier_job(account, "batch", json::object(), "",
                                             {this->page("https://z.example", "/")}, policy);
  EXPECT_FALSE(free_job.pinned_node);
  std::vector<std::string> order;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    // Node b never takes the pinned job's pages, not even while node a is idle; it takes the
    // other job's.
    auto on_b = b.claim_entry(std::chrono::seconds(60));
    if (on_b) {
      EXPECT_EQ(on_b->job.id, free_job.id);
      this->commit(b, *on_b);
    }
    auto on_a = a.claim_entry(std::chrono::seconds(60));
    ASSERT_TRUE(on_a);
    ASSERT_EQ(on_a->job.id, job.id);
    // While one of its pages is leased, no other is given, on any node.
    EXPECT_FALSE(a.claim_entry(std::chrono::seconds(60)));
    EXPECT_FALSE(b.claim_entry(std::chrono::seconds(60)));
    order.push_back(on_a->entry.key);
    ASSERT_TRUE(this->commit(a, *on_a).row);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"https://x.example/login", "https://y.example/a",
                                             "https://x.example/b", "https://y.example/c"}));
  EXPECT_FALSE(b.claim_entry(std::chrono::seconds(60)));
  EXPECT_TRUE(a.finish_if_drained(job.id, [](const Job&) { return std::nullopt; }));
  EXPECT_EQ(a.job(job.id)->rows_count, 4);
  // A page of node a's that outlived its lease (a's thread hung) is a's again, never b's.
  const Job again = a.create_frontier_job(account, "batch", json::object(), "",
                                          {this->page("https://x.example", "/again")}, policy,
                                          /*pinned=*/true);
  ASSERT_TRUE(a.claim_entry(std::chrono::seconds(60)));
  this->clock_.advance(std::chrono::seconds(61));
  EXPECT_FALSE(b.claim_entry(std::chrono::seconds(60)));
  auto retaken = a.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(retaken);
  EXPECT_EQ(retaken->job.id, again.id);
  EXPECT_EQ(retaken->entry.attempts, 2);
}

// docs/sessions.md "Batches": a node gone for good (unseen for `gone_after`) leaves its pinned
// batches to a live node, which runs what is left of them (their session is lost with the node).
TYPED_TEST(FrontierStoreTest, APinnedJobOfANodeGoneForGoodIsTakenOverByALiveNode) {
  auto account = this->new_account(100);
  JobStore a = this->jobs("node-a");
  auto store_b = this->open("node-b");
  JobStore b(dynamic_cast<SqlStore&>(*store_b).database(), *store_b, this->clock_, "node-b");
  auto store_c = this->open("node-c");
  JobStore c(dynamic_cast<SqlStore&>(*store_c).database(), *store_c, this->clock_, "node-c");
  const std::chrono::seconds gone_after(600);
  a.beat();
  b.beat();
  FrontierPolicy policy;
  const Job job = a.create_frontier_job(
      account, "batch", json::object(), "",
      {this->page("https://x.example", "/1"), this->page("https://x.example", "/2")}, policy,
      /*pinned=*/true);
  // Node c never noted itself alive (a version without beats): its batch is never judged.
  const Job unjudged = c.create_frontier_job(account, "batch", json::object(), "",
                                             {this->page("https://y.example", "/1")}, policy,
                                             /*pinned=*/true);
  // Node a takes its first page, then dies with it.
  auto taken = a.claim_entry(std::chrono::seconds(900));
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->entry.key, "https://x.example/1");

  this->clock_.advance(std::chrono::seconds(599));
  b.beat();
  EXPECT_TRUE(b.adopt_pinned_jobs(gone_after).empty());  // a was seen 599 s ago: alive
  EXPECT_FALSE(b.claim_entry(std::chrono::seconds(900)));

  this->clock_.advance(std::chrono::seconds(2));
  b.beat();
  const auto adopted = b.adopt_pinned_jobs(gone_after);
  ASSERT_EQ(adopted.size(), 1u);
  EXPECT_EQ(adopted[0], std::make_pair(job.id, std::string("node-a")));
  EXPECT_EQ(b.job(job.id)->pinned_node, "node-b");
  EXPECT_EQ(b.job(unjudged.id)->pinned_node, "node-c");
  EXPECT_TRUE(b.adopt_pinned_jobs(gone_after).empty());  // once
  // The page a died with is queued again at once (not after its 900 s lease), counted as taken
  // twice; then the next, in the batch's order, one at a time. Node a, back, takes none of them.
  auto retaken = b.claim_entry(std::chrono::seconds(900));
  ASSERT_TRUE(retaken);
  EXPECT_EQ(retaken->job.id, job.id);
  EXPECT_EQ(retaken->entry.key, "https://x.example/1");
  EXPECT_EQ(retaken->entry.attempts, 2);
  EXPECT_FALSE(a.claim_entry(std::chrono::seconds(900)));
  EXPECT_FALSE(b.claim_entry(std::chrono::seconds(900)));
  ASSERT_TRUE(this->commit(b, *retaken).row);
  auto second = b.claim_entry(std::chrono::seconds(900));
  ASSERT_TRUE(second);
  EXPECT_EQ(second->entry.key, "https://x.example/2");
  ASSERT_TRUE(this->commit(b, *second).row);
  EXPECT_TRUE(b.finish_if_drained(job.id, [](const Job&) { return std::nullopt; }));
  // An ended batch is nobody's to take over.
  this->clock_.advance(std::chrono::seconds(700));
  a.beat();
  EXPECT_TRUE(a.adopt_pinned_jobs(gone_after).empty());
  EXPECT_EQ(a.job(job.id)->pinned_node, "node-b");
}

TYPED_TEST(FrontierStoreTest, LimitAliasesAndPacing) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  FrontierPolicy policy;
  policy.limit = 3;
  policy.delay_ms = 1000;
  policy.max_concurrency = 1;
  const std::string o = "https://x.example";
  const Job job = js.create_frontier_job(account, "crawler", json::object(), "",
                                         {this->page(o, "/")}, policy);
  auto home = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(home);
  // Five links, one of them twice: the limit admits two more pages (three in all).
  const CommittedEntry first =
      this->commit(js, *home,
                   {this->page(o, "/a", 1), this->page(o, "/a", 1), this->page(o, "/b", 1),
                    this->page(o, "/c", 1), this->page(o, "/d", 1)},
                   policy);
  EXPECT_EQ(first.added, 2);
  EXPECT_EQ(js.job(job.id)->frontier_size, 3);
  // The origin's delay: nothing until a second has passed.
  EXPECT_FALSE(js.claim_entry(std::chrono::seconds(60)));
  this->clock_.advance(std::chrono::milliseconds(1000));
  auto a = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entry.key, o + "/a");
  // maxConcurrency 1: /b waits for /a even once the delay passed.
  this->clock_.advance(std::chrono::milliseconds(1000));
  EXPECT_FALSE(js.claim_entry(std::chrono::seconds(60)));
  // /a's canonical link names /z, not known yet: /a is stored, and /z becomes its other name,
  // never admitted as a page of its own.
  EXPECT_TRUE(this->commit(js, *a, {}, policy, {o + "/z"}).row);
  auto b = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->entry.key, o + "/b");
  // /b names /a, fetched already: /b is a copy, with no row, and gives its place to /c, the
  // first link the limit held back.
  const CommittedEntry dup = this->commit(js, *b, {this->page(o, "/z", 2)}, policy, {o + "/a"});
  EXPECT_TRUE(dup.duplicate);
  EXPECT_FALSE(dup.row);
  EXPECT_EQ(dup.added, 0);
  EXPECT_EQ(js.job(job.id)->frontier_size, 3);
  EXPECT_EQ(js.job(job.id)->rows_count, 2);
  this->clock_.advance(std::chrono::milliseconds(1000));
  auto c = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->entry.key, o + "/c");
  EXPECT_TRUE(this->commit(js, *c, {}, policy).row);
  // The limit's three rows: the job ends, and /d, still held back, goes with it.
  EXPECT_EQ(js.job(job.id)->rows_count, 3);
  EXPECT_EQ(js.frontier_states(job.id)["spare"], 1);
  EXPECT_TRUE(js.finish_if_drained(job.id, [](const Job&) { return std::nullopt; }));
  EXPECT_EQ(js.frontier_states(job.id)["spare"], 0);
}

TYPED_TEST(FrontierStoreTest, DisallowedPagesAndCopiesLeaveTheLimitToPagesInReach) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  FrontierPolicy policy;
  policy.limit = 4;
  policy.max_concurrency = 8;
  const std::string o = "https://x.example";
  const Job job =
      js.create_frontier_job(account, "crawler", json::object(), "", {this->page(o, "/")}, policy);
  auto home = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(home);
  std::vector<FrontierEntry> links;
  for (const char* path : {"/private", "/copy", "/moved", "/p1", "/p2", "/p3", "/p4"}) {
    links.push_back(this->page(o, path, 1));
  }
  EXPECT_EQ(this->commit(js, *home, links, policy).added, 3);
  // /private is disallowed, /copy names the home page, /moved redirects to /p1 (queued): each
  // gives its place to the next link held back, in the order found.
  std::vector<std::string> stored{o + "/"};
  for (int i = 0; i < 10; ++i) {
    auto next = js.claim_entry(std::chrono::seconds(60));
    if (!next) break;
    const std::string path = next->entry.key.substr(o.size());
    if (path == "/private") {
      js.skip_entry(next->entry);
    } else if (path == "/copy" || path == "/moved") {
      const std::string other = path == "/copy" ? o + "/" : o + "/p1";
      EXPECT_TRUE(this->commit(js, *next, {}, policy, {other}).duplicate) << path;
    } else {
      ASSERT_TRUE(this->commit(js, *next, {}, policy).row) << path;
      stored.push_back(next->entry.key);
    }
  }
  EXPECT_EQ(stored, (std::vector<std::string>{o + "/", o + "/p1", o + "/p2", o + "/p3"}));
  const Job done = *js.job(job.id);
  EXPECT_EQ(done.rows_count, 4);
  EXPECT_EQ(done.frontier_size, 4);
  EXPECT_TRUE(js.finish_if_drained(job.id, [](const Job&) { return std::nullopt; }));
}

TYPED_TEST(FrontierStoreTest, EachTakingOfAnEntryIsCountedButAStoppingNodesGivingBackIsNot) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  const Job job = js.create_frontier_job(account, "batch", json::object(), "",
                                         {this->page("https://x.example", "/hang")}, {});
  auto first = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->entry.attempts, 1);
  // The node dies with it: restarted, it takes the entry again, a second attempt.
  js.release_job_leases();
  auto second = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(second);
  EXPECT_EQ(second->entry.attempts, 2);
  // A node that stops cleanly gives it back: that attempt does not count.
  js.return_entry(second->entry);
  EXPECT_EQ(js.frontier_states(job.id)["queued"], 1);
  auto third = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(third);
  EXPECT_EQ(third->entry.attempts, 2);
  // Another node, once the lease expired, counts on.
  this->clock_.advance(std::chrono::seconds(61));
  auto store_b = this->open("node-b");
  JobStore b(dynamic_cast<SqlStore&>(*store_b).database(), *store_b, this->clock_, "node-b");
  auto on_b = b.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(on_b);
  EXPECT_EQ(on_b->entry.attempts, 3);
}

TYPED_TEST(FrontierStoreTest, RobotsTxtIsKeptForTheJobsLifeAndItsReadsCounted) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  const std::string o = "https://x.example";
  const Job job =
      js.create_frontier_job(account, "crawler", json::object(), "", {this->page(o, "/")}, {});
  auto home = js.claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(home);
  const std::string robots = "User-agent: *\nDisallow: /private\n" + std::string(4096, '#');
  EXPECT_TRUE(js.set_origin_robots(job, o, robots, 0, {}, {}));
  js.count_fetch(job.id, "robotsTxtFetched");
  js.count_fetch(job.id, "sitemapsFetched");
  js.count_fetch(job.id, "sitemapsFetched");
  EXPECT_EQ(js.origin_robots(job.id, o), robots);
  EXPECT_EQ(js.job(job.id)->progress, (json{{"robotsTxtFetched", 1}, {"sitemapsFetched", 2}}));
  EXPECT_TRUE(this->commit(js, *home).row);
  EXPECT_TRUE(js.finish_if_drained(job.id, [](const Job&) { return std::nullopt; }));
  // The job ended: its robots.txt is no longer kept.
  EXPECT_EQ(js.origin_robots(job.id, o), "");
}

TYPED_TEST(FrontierStoreTest, ClaimsTryTheJobsInTheOrderGiven) {
  const auto first_account = this->new_account(100);
  const auto second_account = this->new_account(100, "other");
  JobStore js = this->jobs();
  FrontierPolicy policy;
  policy.max_concurrency = 4;
  const json input = {{"urls", {"https://one.example/1"}}};
  const Job one = js.create_frontier_job(
      first_account, "batch", input, "",
      {this->page("https://one.example", "/1"), this->page("https://one.example", "/2")}, policy);
  this->clock_.advance(std::chrono::seconds(1));
  const Job two = js.create_frontier_job(second_account, "batch", input, "",
                                         {this->page("https://two.example", "/1")}, policy);
  this->clock_.advance(std::chrono::seconds(1));
  // A job whose stop was asked is offered to no order.
  const Job stopping = js.create_frontier_job(first_account, "batch", input, "",
                                              {this->page("https://three.example", "/1")}, policy);
  js.mark_started(stopping.id, std::nullopt);
  js.request_stop(stopping.id, first_account, [](const Job&) { return std::nullopt; });

  std::vector<PageJobRef> offered;
  auto second_first = [&](const std::vector<PageJobRef>& candidates) {
    offered = candidates;
    return std::vector<std::size_t>{1, 0};
  };
  auto claimed = js.claim_entry(std::chrono::seconds(60), second_first);
  ASSERT_TRUE(claimed);
  ASSERT_EQ(offered.size(), 2u);
  EXPECT_EQ(offered[0].id, one.id);
  EXPECT_EQ(offered[0].account_id, first_account);
  EXPECT_EQ(offered[1].id, two.id);
  EXPECT_EQ(offered[1].account_id, second_account);
  EXPECT_EQ(claimed->job.id, two.id);
  EXPECT_EQ(claimed->job.input, input);
  EXPECT_EQ(claimed->entry.key, "https://two.example/1");
  // A job left out of the order is not taken from, though it has pages queued.
  EXPECT_FALSE(js.claim_entry(std::chrono::seconds(60), [](const std::vector<PageJobRef>&) {
    return std::vector<std::size_t>{};
  }));
  // The first job of the order with nothing ready (its one page is leased) is passed over.
  claimed = js.claim_entry(std::chrono::seconds(60), second_first);
  ASSERT_TRUE(claimed);
  EXPECT_EQ(claimed->job.id, one.id);
  EXPECT_EQ(claimed->entry.key, "https://one.example/1");

  // An account's oldest jobs are offered, kClaimJobsPerAccount of them: the later ones wait.
  std::vector<std::string> created;
  for (int i = 0; i < kClaimJobsPerAccount; ++i) {
    this->clock_.advance(std::chrono::seconds(1));
    created.push_back(js.create_frontier_job(second_account, "batch", input, "",
                                             {this->page("https://two.example", "/1")}, policy)
                          .id);
  }
  js.claim_entry(std::chrono::seconds(60), [&](const std::vector<PageJobRef>& candidates) {
    offered = candidates;
    return std::vector<std::size_t>{};
  });
  std::vector<std::string> of_second;
  for (const PageJobRef& c : offered) {
    if (c.account_id == second_account) of_second.push_back(c.id);
  }
  ASSERT_EQ(of_second.size(), static_cast<std::size_t>(kClaimJobsPerAccount));
  EXPECT_EQ(of_second.front(), two.id);
  EXPECT_EQ(std::count(of_second.begin(), of_second.end(), created.back()), 0);
  EXPECT_EQ(offered.front().id, one.id);
}

TYPED_TEST(FrontierStoreTest, FailedPagesAreCountedWithTheirRow) {
  auto account = this->new_account(100);
  JobStore js = this->jobs();
  const Job job = js.create_frontier_job(
      account, "batch", json::object(), "",
      {this->page("https://x.example", "/ok"), this->page("https://x.example", "/down")}, {});
  for (int i = 0; i < 2; ++i) {
    auto c = js.claim_entry(std::chrono::seconds(60));
    ASSERT_TRUE(c);
    const bool down = c->entry.key == "https://x.example/down";
    JobRow row{c->entry.key, {{"url", c->entry.url}}, down};
    const CommittedEntry done = js.commit_entry(c->job, c->entry, {}, row, down ? 0 : 1, "web", {},
                                                {}, &FrontierStoreTest<TypeParam>::one_row);
    ASSERT_TRUE(done.row);
  }
  const Job done = *js.job(job.id);
  EXPECT_EQ(done.rows_count, 2);
  EXPECT_EQ(done.progress.value("pagesFailed", 0), 1);
  EXPECT_EQ(this->balance(account), 99);
}

TYPED_TEST(FrontierStoreTest, TheOperatorListsAndStopsJobsAStoppedServiceLeftLeased) {
  const auto account = this->new_account(100);
  const auto other = this->new_account(100, "other");
  JobStore a = this->jobs("node-a");
  // Node a was running a maps job and a page of a batch (in a session: pinned to node a) when it
  // stopped.
  const Job maps = a.create_job(account, "maps", this->input());
  ASSERT_TRUE(a.claim_job(std::chrono::seconds(900)));
  a.mark_started(maps.id, std::nullopt);
  this->clock_.advance(std::chrono::seconds(1));
  const Job batch = a.create_frontier_job(
      account, "batch", json::object(), "",
      {this->page("https://x.example", "/1"), this->page("https://x.example", "/2")}, {},
      /*pinned=*/true);
  const auto in_flight = a.claim_entry(std::chrono::seconds(900));
  ASSERT_TRUE(in_flight);
  a.mark_started(batch.id, std::nullopt);

  // The operator, with the service down, on the store alone.
  JobStore store_only = this->jobs("admin");
  JobsAdmin admin{store_only, [](const Job& j) { return std::optional<std::string>(j.status); }};
  auto run = [&](const std::vector<std::string>& args, JobsAdmin* jobs) {
    std::ostringstream out, err;
    const int status = run_admin_command(args, *this->store_, out, err, jobs);
    return std::tuple<int, std::string, std::string>{status, out.str(), err.str()};
  };
  auto [listed, list_out, list_err] = run({"jobs", "list"}, &admin);
  ASSERT_EQ(listed, 0) << list_err;
  const auto batch_line = list_out.find("job " + batch.id);
  const auto maps_line = list_out.find("job " + maps.id);
  ASSERT_NE(batch_line, std::string::npos) << list_out;
  ASSERT_NE(maps_line, std::string::npos) << list_out;
  EXPECT_LT(batch_line, maps_line) << "newest first";
  EXPECT_NE(list_out.find("account=" + std::to_string(account) +
                          " kind=batch status=in_progress rows=0 credits=0 pages_found=2 "
                          "pages_failed=0 leased_pages=1 pinned_to=node-a"),
            std::string::npos)
      << list_out;
  EXPECT_NE(list_out.find("kind=maps status=in_progress rows=0 credits=0 created="),
            std::string::npos)
      << list_out;
  EXPECT_NE(list_out.find("leased_by=node-a"), std::string::npos) << list_out;
  EXPECT_EQ(std::get<1>(run({"jobs", "list", "--state", "pending"}, &admin)), "");
  EXPECT_EQ(std::get<1>(run({"jobs", "list", "--account", std::to_string(other)}, &admin)), "");

  for (const Job& job : {batch, maps}) {
    auto [stopped, out, err] = run({"jobs", "stop", job.id}, &admin);
    EXPECT_EQ(stopped, 0) << err;
    EXPECT_NE(out.find("stopped job " + job.id), std::string::npos) << out;
    const Job after = *a.job(job.id);
    EXPECT_EQ(after.status, job_status::kStopped);
    EXPECT_EQ(after.stop_reason, "stopped_by_operator");
    // Its finished event is queued, as DELETE queues it, for the outbox of the next node up.
    const auto deliveries = a.deliveries(job.id);
    ASSERT_FALSE(deliveries.empty());
    EXPECT_EQ(deliveries.back().delivery.event, "scraper.job.finished");
    EXPECT_EQ(deliveries.back().delivery.body, "stopped");
  }
  EXPECT_EQ(a.frontier_states(batch.id)["leased"], 0);
  // Node a restarts: nothing of either job is run again, and its lost page commits nothing.
  a.release_job_leases();
  EXPECT_FALSE(a.claim_job(std::chrono::seconds(900)));
  EXPECT_FALSE(a.claim_entry(std::chrono::seconds(900)));
  EXPECT_FALSE(a.renew_lease(maps.id, std::chrono::seconds(900)));
  EXPECT_TRUE(this->commit(a, *in_flight).lost);
  EXPECT_EQ(a.job(batch.id)->rows_count, 0);
  EXPECT_EQ(this->balance(account), 100);

  auto [again, again_out, again_err] = run({"jobs", "stop", batch.id}, &admin);
  EXPECT_EQ(again, 0) << again_err;
  EXPECT_NE(again_out.find("had ended already (stopped)"), std::string::npos) << again_out;
  EXPECT_EQ(a.deliveries(batch.id).size(), 1u);  // no second finished event
  EXPECT_EQ(std::get<0>(run({"jobs", "stop", "no-such-job"}, &admin)), 1);
  EXPECT_EQ(std::get<0>(run({"jobs", "stop"}, &admin)), 2);
  EXPECT_EQ(std::get<0>(run({"jobs", "list", "--state", "running"}, &admin)), 2);
  EXPECT_EQ(std::get<0>(run({"jobs", "list"}, nullptr)), 2);
}

}  // namespace
}  // namespace gleaner::store::testing
