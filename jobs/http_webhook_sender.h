#pragma once
// The real webhook sender, on the service's one HTTP client (extract/plain/http_client.h,
// libcurl). It resolves the receiver's name itself, refuses the delivery when any address of the
// name is one the address guard refuses, and has the client connect only to the addresses it
// checked (the name is pinned to them, and every connection's address is asked of the guard once
// more before it is made), so a name that resolves differently the second time gains nothing.
//
// A receiver is anyone a caller names, so what it answers is bounded (issue 23): each attempt has
// one deadline (WebhookRequest::timeout) for resolving, connecting, sending and reading the
// answer's status, and only the first kMaxAnswerBytes of the answer are read: the status is all
// that counts, so an endless body or endless headers cost nothing. No redirect is followed (a 3xx
// is an http_error) and no proxy is used.
#include <cstddef>
#include <memory>

#include "jobs/webhook_sender.h"
#include "proxies/guard.h"
#include "proxies/resolver.h"

namespace gleaner::jobs {

class HttpWebhookSender final : public WebhookSender {
 public:
  HttpWebhookSender(proxies::AddressGuard guard, std::shared_ptr<proxies::Resolver> resolver);
  WebhookResult send(const WebhookRequest& request) override;

  /// How much of a receiver's answer is read at most: enough for its status line (and interim
  /// 1xx answers before it).
  static constexpr std::size_t kMaxAnswerBytes = 4096;

 private:
  const proxies::AddressGuard guard_;
  const std::shared_ptr<proxies::Resolver> resolver_;
};

}  // namespace gleaner::jobs
