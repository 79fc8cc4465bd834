#include "api/routes/routes.h"
#include "core/error.h"

namespace gleaner::api {
namespace {

// The operations the hosted service's published clients offer that gleaner does not serve yet,
// by the path those clients send (docs/api.md "Pointing a hosted-service client at gleaner").
// Each answers 404 naming its route, so a workflow built on one says what is missing instead of
// the bare "no route" of a path nobody sends.
constexpr const char* kNotBuilt[] = {
    "/scrape/google-light/serp",    "/scrape/google/shopping",
    "/scrape/google/short-videos",  "/scrape/google/ai-mode",
    "/scrape/google/ai-overview",   "/scrape/google/immersive-product",
    "/scrape/google/images",        "/scrape/google/flights",
    "/scrape/google-trends/search", "/scrape/google-maps/search",
    "/scrape/google-maps/reviews",  "/scrape/google-maps/place",
    "/scrape/google-maps/photos",   "/scrape/google-maps/contributor-reviews",
    "/scrape/amazon/product",       "/scrape/amazon/search",
    "/scrape/zillow/property",      "/scrape/indeed/listing",
    "/scrape/glassdoor/job",        "/scrape/shopify/products",
    "/scrape/yelp/search",          "/scrape/bing/serp",
    "/scrape/instagram/profile",
};

}  // namespace

const std::vector<std::string>& hosted_client_operations_not_built() {
  static const std::vector<std::string> paths(std::begin(kNotBuilt), std::end(kNotBuilt));
  return paths;
}

void add_hosted_client_routes(Router& router) {
  for (const std::string& path : hosted_client_operations_not_built()) {
    router.add("GET", path, [path](Request&) -> Response {
      throw Error(ErrorCode::NotFound,
                  "GET " + path +
                      " is an operation of the hosted service's clients that gleaner does not "
                      "serve yet (docs/api.md lists what it serves under their paths)");
    });
  }
}

}  // namespace gleaner::api
