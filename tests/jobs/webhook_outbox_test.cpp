// The webhook outbox: attempts, pauses and outcomes with a scripted sender and a FakeClock.
#include "jobs/webhook_outbox.h"

#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <mutex>

#include "jobs/job_request.h"
#include "jobs/job_store_of.h"
#include "store/store.h"
#include "tests/jobs/temp_store.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;
using std::chrono::seconds;

/// Answers attempts from a script (the last answer repeats) and keeps what it was sent.
class ScriptedSender final : public WebhookSender {
 public:
  explicit ScriptedSender(std::deque<WebhookResult> script) : script_(std::move(script)) {}
  WebhookResult send(const WebhookRequest& request) override {
    std::lock_guard lock(mutex_);
    sent_.push_back(request);
    WebhookResult r = script_.front();
    if (script_.size() > 1) script_.pop_front();
    return r;
  }
  std::vector<WebhookRequest> sent() {
    std::lock_guard lock(mutex_);
    return sent_;
  }

 private:
  std::mutex mutex_;  // guards script_, sent_
  std::deque<WebhookResult> script_;
  std::vector<WebhookRequest> sent_;
};

const WebhookResult kDown{outcome::kHttpError, 503, "HTTP 503"};
const WebhookResult kUp{outcome::kOk, 200, "HTTP 200"};

class OutboxTest : public ::testing::Test {
 protected:
  /// A finished job whose finished event is queued for `url`.
  std::string finished_job(const std::string& url = "https://hooks.example.com/in") {
    JobRequest request;
    request.keywords = {"coffee"};
    request.locations = {"Athens"};
    request.webhook = Webhook{url, {event::kFinished}, {{"X-Token", "s3cret"}}};
    store::Job job = jobs_->create_job(account_, "maps", request.to_json());
    jobs_->finish_job(job.id, store::job_status::kFinished, std::nullopt, [&](const store::Job& j) {
      return webhook_body(j, event::kFinished, clock_.now());
    });
    return job.id;
  }

  store::DeliveryWithAttempts only_delivery(const std::string& job_id) {
    auto all = jobs_->deliveries(job_id);
    EXPECT_EQ(all.size(), 1u);
    return all.at(0);
  }

  FakeClock clock_{testing::kStart};
  testing::TempStore temp_{clock_};
  std::shared_ptr<store::JobStore>& jobs_ = temp_.jobs;
  std::int64_t account_ = temp_.new_account(100);
};

TEST(OutboxOptions, TheDeliveryLeaseOutlastsTwoAttempts) {
  Config config;
  EXPECT_EQ(OutboxOptions::from_config(config).lease, std::chrono::seconds(60));
  config.set("webhook_timeout_ms", 45'500);
  EXPECT_EQ(OutboxOptions::from_config(config).lease, std::chrono::seconds(91));
}

TEST_F(OutboxTest, AReceiverFailingTwiceGetsThreeAttemptsAndTheDeliveryIsDone) {
  const std::string job = finished_job();
  ScriptedSender sender({kDown, kDown, kUp});
  WebhookOutbox outbox(*jobs_, sender, clock_, OutboxOptions{});
  EXPECT_TRUE(outbox.deliver_one());
  EXPECT_FALSE(outbox.deliver_one());  // the pause after attempt 1 has not passed
  clock_.advance(outbox.pause_after(1));
  EXPECT_TRUE(outbox.deliver_one());
  clock_.advance(outbox.pause_after(2) - seconds(1));
  EXPECT_FALSE(outbox.deliver_one());  // the pauses grow
  clock_.advance(seconds(1));
  EXPECT_TRUE(outbox.deliver_one());
  clock_.advance(seconds(3600));
  EXPECT_FALSE(outbox.deliver_one());

  auto d = only_delivery(job);
  EXPECT_EQ(d.delivery.status, store::delivery_status::kDone);
  ASSERT_EQ(d.attempts.size(), 3u);
  EXPECT_EQ(d.attempts[0].outcome, outcome::kHttpError);
  EXPECT_EQ(d.attempts[0].http_status, 503);
  EXPECT_EQ(d.attempts[2].outcome, outcome::kOk);
  EXPECT_EQ(outbox.pause_after(2), 4 * outbox.pause_after(1));
  EXPECT_EQ(growing_pause(Millis(5), 3), Millis(80));

  // Each attempt carried the job's headers and the same body.
  auto sent = sender.sent();
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[0].url, "https://hooks.example.com/in");
  EXPECT_EQ(sent[0].headers.at("X-Token"), "s3cret");
  EXPECT_EQ(sent[0].timeout, Millis(10'000));
  EXPECT_EQ(sent[2].body, sent[0].body);
  json body = json::parse(sent[0].body);
  EXPECT_EQ(body["event"], "scraper.job.finished");
  EXPECT_EQ(body["jobId"], job);
  EXPECT_EQ(body["jobStatus"], "finished");
  EXPECT_EQ(body["timestamp"], "2027-01-15T08:00:00Z");
  EXPECT_FALSE(body.contains("data"));
}

TEST_F(OutboxTest, AReceiverAlwaysFailingGetsExactlyThreeAttemptsAndTheFailureIsRecorded) {
  const std::string job = finished_job();
  ScriptedSender sender({{outcome::kNetworkError, {}, "Connection"}});
  WebhookOutbox outbox(*jobs_, sender, clock_, OutboxOptions{});
  for (int i = 0; i < 10; ++i) {
    outbox.deliver_one();
    clock_.advance(seconds(3600));
  }
  EXPECT_EQ(sender.sent().size(), 3u);
  auto d = only_delivery(job);
  EXPECT_EQ(d.delivery.status, store::delivery_status::kFailed);
  ASSERT_EQ(d.attempts.size(), 3u);
  EXPECT_EQ(d.attempts[2].outcome, outcome::kNetworkError);
  EXPECT_EQ(d.attempts[2].detail, "Connection");
  EXPECT_EQ(jobs_->pending_deliveries(), 0);
}

// Issue 16, item 5: docs/jobs.md says a delivery the address guard refuses is not retried (the
// name resolving to a private address will not change by waiting); it used to get all attempts.
TEST_F(OutboxTest, ADeliveryTheAddressGuardRefusesIsNotTriedAgain) {
  const std::string job = finished_job();
  ScriptedSender sender({{outcome::kRefused, {}, "resolves to a private address"}});
  WebhookOutbox outbox(*jobs_, sender, clock_, OutboxOptions{});
  for (int i = 0; i < 5; ++i) {
    outbox.deliver_one();
    clock_.advance(seconds(3600));
  }
  EXPECT_EQ(sender.sent().size(), 1u);
  auto d = only_delivery(job);
  EXPECT_EQ(d.delivery.status, store::delivery_status::kFailed);
  ASSERT_EQ(d.attempts.size(), 1u);
  EXPECT_EQ(d.attempts[0].outcome, outcome::kRefused);
  EXPECT_EQ(jobs_->pending_deliveries(), 0);
}

TEST_F(OutboxTest, SendersRunEveryDueDeliveryOnTheirOwn) {
  const std::string first = finished_job();
  const std::string second = finished_job();
  ScriptedSender sender({kUp});
  OutboxOptions options;
  options.senders = 2;
  WebhookOutbox outbox(*jobs_, sender, clock_, options);
  outbox.start();
  outbox.notify();
  // One shared maximum wait: the condition is polled, never a fixed sleep asserted on.
  const auto give_up = SteadyClock::now() + std::chrono::seconds(60);
  while (jobs_->pending_deliveries() > 0 && SteadyClock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  outbox.stop();
  EXPECT_EQ(only_delivery(first).delivery.status, store::delivery_status::kDone);
  EXPECT_EQ(only_delivery(second).delivery.status, store::delivery_status::kDone);
  EXPECT_EQ(sender.sent().size(), 2u);
}

}  // namespace
}  // namespace gleaner::jobs
