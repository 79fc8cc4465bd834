#include "jobs/webhook_outbox.h"

#include <algorithm>

#include "core/error.h"
#include "core/log.h"
#include "jobs/job_request.h"

namespace gleaner::jobs {

OutboxOptions OutboxOptions::from_config(const Config& config) {
  OutboxOptions o;
  auto positive = [&](const std::string& entry, std::int64_t fallback) {
    const std::int64_t value = config.get_int(entry, fallback);
    if (value <= 0) throw std::invalid_argument("configuration entry " + entry + " must be > 0");
    return value;
  };
  o.timeout = Millis(positive("webhook_timeout_ms", o.timeout.count()));
  o.first_pause = std::chrono::seconds(positive("webhook_retry_seconds", o.first_pause.count()));
  o.senders = static_cast<int>(positive("webhook_senders", o.senders));
  o.poll = Millis(positive("webhook_poll_ms", o.poll.count()));
  // A lease shorter than an attempt would let another node send the same delivery while this
  // one still waits for the receiver.
  o.lease = std::max(o.lease, std::chrono::ceil<std::chrono::seconds>(2 * o.timeout));
  return o;
}

WebhookOutbox::WebhookOutbox(store::JobStore& jobs, WebhookSender& sender, const Clock& clock,
                             OutboxOptions options)
    : jobs_(jobs),
      sender_(sender),
      clock_(clock),
      options_(options),
      senders_("webhooks", options.poll) {}

WebhookOutbox::~WebhookOutbox() {
  stop();
}

std::chrono::seconds WebhookOutbox::pause_after(std::int64_t attempt) const {
  return growing_pause(options_.first_pause, attempt);
}

bool WebhookOutbox::deliver_one() {
  auto delivery = jobs_.claim_delivery(options_.lease);
  if (!delivery) return false;
  store::DeliveryAttempt attempt;
  attempt.attempt = delivery->attempts + 1;
  attempt.attempted_at = clock_.now();
  WebhookResult result;
  auto job = jobs_.job(delivery->job_id);
  std::optional<Webhook> hook;
  if (job) hook = webhook_of(job->input);  // every kind keeps its webhook alike
  if (!hook) {
    result = {outcome::kRefused, {}, "the job has no webhook"};
  } else {
    // Every attempt of one delivery carries the same id, so a receiver can tell a retry of a
    // delivery it already has (say, after a restart cut the answer off) from a new one.
    auto headers = hook->headers;
    headers[kDeliveryHeader] = delivery->job_id + ":" + std::to_string(delivery->id);
    result = sender_.send({hook->url, std::move(headers), delivery->body, options_.timeout});
  }
  attempt.http_status = result.http_status;
  attempt.outcome = result.outcome;
  attempt.detail = result.detail;
  std::optional<store::TimePoint> next;
  // A refusal by the address guard will not change by waiting; everything else may.
  if (!result.ok() && result.outcome != outcome::kRefused && attempt.attempt < options_.attempts) {
    next = clock_.now() + pause_after(attempt.attempt);
  }
  jobs_.record_attempt(*delivery, attempt, result.ok(), next);
  auto line = result.ok() ? log::info("webhooks") : log::warn("webhooks");
  line << "job " << delivery->job_id << " " << delivery->event << " delivery " << delivery->id
       << " attempt " << attempt.attempt << ": " << result.outcome << " (" << result.detail << ")"
       << (result.ok() ? ""
           : next      ? ", will try again"
                       : ", giving up");
  return true;
}

void WebhookOutbox::start() {
  jobs_.release_delivery_leases();
  senders_.start(options_.senders, [this] { return deliver_one(); });
}

void WebhookOutbox::notify() {
  senders_.notify();
}

void WebhookOutbox::stop() {
  senders_.stop();
}

}  // namespace gleaner::jobs
