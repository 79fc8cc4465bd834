#include "extract/web/url_blocker.h"

#include <algorithm>

namespace gleaner::web {

bool UrlBlocker::blocks(const std::string& url) const {
  return std::any_of(parts_.begin(), parts_.end(),
                     [&](const std::string& part) { return url.find(part) != std::string::npos; });
}

std::optional<browser::Decision> UrlBlocker::decide(const browser::InterceptedRequest& request) {
  if (request.is_main_frame) return std::nullopt;  // the page asked for, and its redirects
  if (blocks(request.url)) return browser::Fail{"BlockedByClient"};
  return std::nullopt;
}

}  // namespace gleaner::web
