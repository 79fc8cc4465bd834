#pragma once
// Delivers the webhook outbox (store/jobs_store.h): takes each due delivery, POSTs it with the
// job's custom headers, records the attempt and its outcome, and schedules the next attempt after
// a growing pause, three attempts in all (spec/conventions.md "Scraper jobs and webhooks").
// A receiver that is down costs its own deliveries' attempts only: a failed attempt is put back
// with a later due time instead of waiting in place, and several senders run at once.
#include <chrono>

#include "core/clock.h"
#include "core/config.h"
#include "jobs/polling_threads.h"
#include "jobs/webhook_sender.h"
#include "store/jobs_store.h"

namespace gleaner::jobs {

/// The header naming the delivery an attempt belongs to ("<job id>:<delivery number>"): the same
/// on every attempt, so receivers can ignore a delivery they already took.
inline constexpr const char* kDeliveryHeader = "X-Gleaner-Delivery";

struct OutboxOptions {
  /// Attempts per delivery (spec: 3).
  int attempts = 3;
  /// Each attempt's timeout (spec: 10 s). Entry `webhook_timeout_ms`.
  Millis timeout{10'000};
  /// The pause after the first failed attempt; after attempt n it is `first_pause` × 4^(n-1)
  /// (5 s, then 20 s by default). Entry `webhook_retry_seconds`.
  std::chrono::seconds first_pause{5};
  /// Deliveries sent at once by this node. Entry `webhook_senders`.
  int senders = 4;
  /// How long a node holds a delivery it is sending; after that another node may send it. At
  /// least twice an attempt's timeout (from_config), so a slow attempt is never sent twice.
  std::chrono::seconds lease{60};
  /// How often idle senders look for due deliveries. Entry `webhook_poll_ms`.
  Millis poll{500};

  static OutboxOptions from_config(const Config& config);
};

class WebhookOutbox {
 public:
  /// Everything must outlive the outbox. Does not start sending until start().
  WebhookOutbox(store::JobStore& jobs, WebhookSender& sender, const Clock& clock,
                OutboxOptions options);
  /// Stops and joins the senders.
  ~WebhookOutbox();
  WebhookOutbox(const WebhookOutbox&) = delete;
  WebhookOutbox& operator=(const WebhookOutbox&) = delete;

  /// Takes one due delivery, makes one attempt and records it. False when none was due.
  bool deliver_one();
  /// Takes back the deliveries this node held when it last stopped
  /// (JobStore::release_delivery_leases), then starts `options.senders` threads calling
  /// deliver_one until stop().
  void start();
  /// Wakes the senders (a new delivery was queued).
  void notify();
  /// Stops the senders and joins them; an attempt in flight finishes (bounded by its timeout).
  void stop();

  /// The pause after failed attempt `attempt` (1-based).
  std::chrono::seconds pause_after(std::int64_t attempt) const;

 private:
  store::JobStore& jobs_;
  WebhookSender& sender_;
  const Clock& clock_;
  const OutboxOptions options_;
  // Declared last: run deliver_one() until stop() joins them.
  PollingThreads senders_;
};

}  // namespace gleaner::jobs
