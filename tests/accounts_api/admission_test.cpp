// api/admission.h: the per-account limit, the bounded queue in front of the pool (first come,
// first served), and how a wait ends: a turn, the request's own deadline (504) or the queue wait
// (429 with Retry-After). Waits in these tests end on state changes, never on sleeps.
#include "api/admission.h"
#include "core/error.h"

#include <gtest/gtest.h>

#include <future>
#include <optional>
#include <thread>

using namespace gleaner;
using namespace gleaner::api;

namespace {

constexpr Millis kMaxWait{30000};
Deadline far() { return deadline_in(kMaxWait); }

AdmissionOptions options(int running, int queue, int per_account = 10) {
  AdmissionOptions o;
  o.max_running = running;
  o.queue_size = queue;
  o.account_limit = per_account;
  o.queue_wait = kMaxWait;
  o.retry_after = std::chrono::seconds(7);
  return o;
}

/// Waits (at most kMaxWait) until `admission` has `queued` waiters.
bool until_queued(const Admission& admission, int queued) {
  const Deadline end = far();
  while (admission.state().queued != queued) {
    if (SteadyClock::now() > end) return false;
    std::this_thread::yield();
  }
  return true;
}

Error refusal_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "admitted, expected a refusal";
  return Error(ErrorCode::Internal, "none");
}

}  // namespace

TEST(Admission, AdmitsUpToTheSlotsThenQueues) {
  Admission admission(options(2, 5));
  auto a = admission.admit(1, std::nullopt, far());
  auto b = admission.admit(2, std::nullopt, far());
  EXPECT_EQ(admission.state().running, 2);

  auto waiting = std::async(std::launch::async, [&] { return admission.admit(3, std::nullopt, far()); });
  ASSERT_TRUE(until_queued(admission, 1));
  EXPECT_EQ(admission.state().running, 2);
  { auto done = std::move(a); }  // a slot frees: the waiter takes it
  auto c = waiting.get();
  EXPECT_EQ(admission.state().running, 2);
  EXPECT_EQ(admission.state().queued, 0);
}

TEST(Admission, AFullQueueIsRefusedAtOnceWithRetryAfter) {
  Admission admission(options(1, 1));
  auto running = admission.admit(1, std::nullopt, far());
  auto waiting = std::async(std::launch::async, [&] { return admission.admit(2, std::nullopt, far()); });
  ASSERT_TRUE(until_queued(admission, 1));

  Error e = refusal_of([&] { admission.admit(3, std::nullopt, far()); });
  EXPECT_EQ(e.code(), ErrorCode::TooManyRequests);
  ASSERT_TRUE(e.retry_after());
  EXPECT_EQ(e.retry_after()->count(), 7);
  EXPECT_EQ(admission.state().refused_queue_full, 1u);

  { auto done = std::move(running); }
  waiting.get();
}

TEST(Admission, TheAccountLimitCountsQueuedRequestsToo) {
  Admission admission(options(1, 10, /*per_account=*/2));
  auto first = admission.admit(42, std::nullopt, far());
  auto queued = std::async(std::launch::async, [&] { return admission.admit(42, std::nullopt, far()); });
  ASSERT_TRUE(until_queued(admission, 1));

  Error e = refusal_of([&] { admission.admit(42, std::nullopt, far()); });
  EXPECT_EQ(e.code(), ErrorCode::TooManyRequests);
  EXPECT_TRUE(e.retry_after());
  EXPECT_EQ(admission.state().refused_account_limit, 1u);
  // Another account is not held to account 42's limit: it queues.
  auto other = std::async(std::launch::async, [&] { return admission.admit(7, std::nullopt, far()); });
  ASSERT_TRUE(until_queued(admission, 2));

  { auto done = std::move(first); }
  auto second = queued.get();
  { auto done = std::move(second); }
  other.get();
}

TEST(Admission, AnAccountsOwnLimitOverridesTheDefault) {
  Admission admission(options(10, 10, /*per_account=*/5));
  auto only = admission.admit(9, std::optional<std::int64_t>(1), far());
  EXPECT_EQ(refusal_of([&] { admission.admit(9, std::optional<std::int64_t>(1), far()); }).code(),
            ErrorCode::TooManyRequests);
  { auto done = std::move(only); }
  auto again = admission.admit(9, std::optional<std::int64_t>(1), far());
  EXPECT_EQ(admission.state().running, 1);
}

TEST(Admission, ADeadlineThatPassesInTheQueueIsATimeout) {
  Admission admission(options(1, 5));
  auto running = admission.admit(1, std::nullopt, far());
  Error e = refusal_of([&] { admission.admit(2, std::nullopt, SteadyClock::now()); });
  EXPECT_EQ(e.code(), ErrorCode::Timeout);
  EXPECT_EQ(admission.state().queue_timeouts, 1u);
  EXPECT_EQ(admission.state().queued, 0);
  // The refused request holds nothing of its account's limit.
  AdmissionOptions one = options(1, 5, 1);
  Admission strict(one);
  auto busy = strict.admit(1, std::nullopt, far());
  EXPECT_EQ(refusal_of([&] { strict.admit(2, std::nullopt, SteadyClock::now()); }).code(),
            ErrorCode::Timeout);
  { auto done = std::move(busy); }
  auto account2 = strict.admit(2, std::nullopt, far());
}

TEST(Admission, TheQueueWaitEndsInA429) {
  AdmissionOptions o = options(1, 5);
  o.queue_wait = Millis(0);
  Admission admission(o);
  auto running = admission.admit(1, std::nullopt, far());
  Error e = refusal_of([&] { admission.admit(2, std::nullopt, far()); });
  EXPECT_EQ(e.code(), ErrorCode::TooManyRequests);
  EXPECT_TRUE(e.retry_after());
  EXPECT_EQ(admission.state().refused_queue_wait, 1u);
}

TEST(Admission, WaitersGoInArrivalOrder) {
  Admission admission(options(1, 10));
  std::optional<Admission::Ticket> running(admission.admit(0, std::nullopt, far()));
  std::mutex order_mutex;  // guards order
  std::vector<int> order;
  std::vector<std::future<void>> waiters;
  for (int i = 1; i <= 4; ++i) {
    waiters.push_back(std::async(std::launch::async, [&, i] {
      auto ticket = admission.admit(i, std::nullopt, far());
      std::lock_guard lock(order_mutex);
      order.push_back(i);
    }));
    ASSERT_TRUE(until_queued(admission, i));  // queued one after the other
  }
  running.reset();
  for (auto& w : waiters) w.get();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4}));
}

TEST(Admission, AGivenUpWaiterLeavesRoomForTheNext) {
  Admission admission(options(1, 1));
  auto running = admission.admit(1, std::nullopt, far());
  EXPECT_EQ(refusal_of([&] { admission.admit(2, std::nullopt, SteadyClock::now()); }).code(),
            ErrorCode::Timeout);
  // The queue's one place is free again.
  auto waiting = std::async(std::launch::async, [&] { return admission.admit(3, std::nullopt, far()); });
  ASSERT_TRUE(until_queued(admission, 1));
  { auto done = std::move(running); }
  waiting.get();
}

TEST(AdmissionOptions, FromConfigDefaultsToThePoolsPages) {
  Config config;
  EXPECT_EQ(AdmissionOptions::from_config(config, 12).max_running, 12);
  config.set("max_running_requests", 3);
  config.set("queue_size", 0);
  config.set("account_concurrency", 4);
  AdmissionOptions o = AdmissionOptions::from_config(config, 12);
  EXPECT_EQ(o.max_running, 3);
  EXPECT_EQ(o.queue_size, 0);
  EXPECT_EQ(o.account_limit, 4);
  config.set("account_concurrency", 0);
  EXPECT_THROW(AdmissionOptions::from_config(config, 12), std::invalid_argument);
}
