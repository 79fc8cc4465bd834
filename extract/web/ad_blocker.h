#pragma once
// blockAds: requests to known ad and tracker hosts are failed before they leave the browser.
// The list (ad_hosts.txt, embedded at build time) names registrable domains and hosts; a request
// is blocked when its host is one of them or a subdomain of one.
#include "browser/interception.h"

#include <string>
#include <string_view>
#include <unordered_set>

namespace gleaner::web {

class AdBlocker final : public browser::Interceptor {
 public:
  /// The built-in list.
  AdBlocker();
  /// A list in the format of ad_hosts.txt: one host per line, `#` comments.
  explicit AdBlocker(std::string_view list);

  /// Whether a request to `host` (lower case) is blocked.
  bool blocks_host(std::string_view host) const;
  std::optional<browser::Decision> decide(const browser::InterceptedRequest& request) override;
  std::size_t size() const { return hosts_.size(); }

 private:
  std::unordered_set<std::string> hosts_;
};

/// The host of an http(s) URL in lower case, "" when there is none.
std::string url_host(std::string_view url);

}  // namespace gleaner::web
