#pragma once
// The real webhook sender (cpp-httplib). It resolves the receiver's name itself, refuses the
// delivery when any address of the name is one the address guard refuses, and connects to the
// very address it checked, so a name that resolves differently the second time gains nothing.
#include <memory>

#include "jobs/webhook_sender.h"
#include "proxies/guard.h"
#include "proxies/resolver.h"

namespace gleaner::jobs {

class HttpWebhookSender final : public WebhookSender {
 public:
  HttpWebhookSender(proxies::AddressGuard guard, std::shared_ptr<proxies::Resolver> resolver);
  WebhookResult send(const WebhookRequest& request) override;

 private:
  const proxies::AddressGuard guard_;
  const std::shared_ptr<proxies::Resolver> resolver_;
};

}  // namespace gleaner::jobs
