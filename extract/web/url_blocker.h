#pragma once
// blockUrls: requests whose URL contains one of the client's substrings are failed before they
// leave the browser, as an ad blocker's would be (the page itself is never blocked).
#include "browser/interception.h"

#include <string>
#include <vector>

namespace gleaner::web {

class UrlBlocker final : public browser::Interceptor {
 public:
  explicit UrlBlocker(std::vector<std::string> parts) : parts_(std::move(parts)) {}
  /// Whether `url` contains one of the parts (case-sensitive, as URLs are).
  bool blocks(const std::string& url) const;
  std::optional<browser::Decision> decide(const browser::InterceptedRequest& request) override;

 private:
  std::vector<std::string> parts_;
};

}  // namespace gleaner::web
