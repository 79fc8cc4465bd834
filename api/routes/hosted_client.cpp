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
};

// The operations of those clients that gleaner does not build, because no real page of them
// could be found to verify a reader on (docs/api.md, "Pointing a hosted-service client at
// gleaner"): each answers 501 not_implemented naming the operation and why, uncharged.
struct NotImplemented {
  const char* path;
  const char* operation;
  const char* why;
};
constexpr NotImplemented kNotImplemented[] = {
    {"/scrape/glassdoor/job", "glassdoor/job",
     "no real Glassdoor job posting page (/job-listing/...) could be found to build and verify "
     "its reader on"},
    {"/scrape/yelp/search", "yelp/search",
     "no whole real Yelp search results page could be found to build and verify its reader on "
     "(only items a scraper took out of one)"},
};

}  // namespace

const std::vector<std::string>& hosted_client_operations_not_built() {
  static const std::vector<std::string> paths(std::begin(kNotBuilt), std::end(kNotBuilt));
  return paths;
}

const std::vector<std::string>& hosted_client_operations_not_implemented() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> out;
    for (const NotImplemented& n : kNotImplemented) out.emplace_back(n.path);
    return out;
  }();
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
  for (const NotImplemented& n : kNotImplemented) {
    const std::string operation = n.operation;
    const std::string why = n.why;
    router.add("GET", n.path, [operation, why](Request&) -> Response {
      throw Error(ErrorCode::NotImplemented, "the hosted service's operation " + operation +
                                                 " is not implemented by gleaner: " + why);
    });
  }
}

}  // namespace gleaner::api
