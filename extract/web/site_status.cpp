#include "extract/web/site_status.h"

#include <string>

#include "core/error.h"

namespace gleaner::web {

void check_site_status(int s) {
  const std::string what = "the site answered HTTP " + std::to_string(s);
  if (s == 404 || s == 410) throw Error(ErrorCode::NotFound, what + ": the page does not exist");
  if (s == 401 || s == 403 || s == 407 || s == 429) {
    throw Error(ErrorCode::UpstreamBlocked, what + ": the site refused the request");
  }
  if (s >= 500) throw Error(ErrorCode::UpstreamError, what);
}

}  // namespace gleaner::web
