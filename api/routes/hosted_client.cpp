#include "api/routes/routes.h"
#include "core/error.h"

namespace gleaner::api {
namespace {

// The operations of those clients no real page of could be found (spec/conventions.md, 501
// `not_implemented`): each answers 501 naming the operation and why, whatever its query, so
// nothing is built from a guess of the page's markup.
constexpr NotImplementedOperation kNotImplemented[] = {
    {"/scrape/google/short-videos", "Google short videos",
     "no saved Google short videos results page (udm=39) could be found to verify a reader on"},
    {"/scrape/google/ai-overview", "Google AI Overview by page token",
     "its page token names an AI Overview Google loads after the results page (a placeholder), "
     "and no saved results page with that placeholder could be found: the two real pages with an "
     "AI Overview show it inline, where /scrape/google/serp reads it as aiOverview, so gleaner "
     "mints no token to redeem here"},
    {"/scrape/google-maps/photos", "Google Maps photos",
     "no saved Google Maps photo gallery (page or its response) could be found to verify a reader "
     "on"},
    {"/scrape/google-maps/contributor-reviews", "Google Maps contributor reviews",
     "no saved Google Maps contributor profile or its reviews response could be found to verify a "
     "reader on"},
};

}  // namespace

const std::vector<NotImplementedOperation>& hosted_client_operations_not_implemented() {
  static const std::vector<NotImplementedOperation> ops(std::begin(kNotImplemented),
                                                        std::end(kNotImplemented));
  return ops;
}

std::string not_implemented_message(const NotImplementedOperation& op) {
  return std::string("GET ") + op.path + " (" + op.operation +
         ") is not implemented by gleaner: " + op.why;
}

void add_hosted_client_routes(Router& router) {
  // 501 `not_implemented` (spec/conventions.md), whatever the query, uncharged.
  for (const NotImplementedOperation& op : hosted_client_operations_not_implemented()) {
    router.add("GET", op.path, [op](Request&) -> Response {
      throw Error(ErrorCode::NotImplemented, not_implemented_message(op));
    });
  }
}

}  // namespace gleaner::api
