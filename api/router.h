#pragma once
// Routes by path pattern, then method: an unknown path is a 404, a known path with another method a
// 405 (spec/conventions.md "Errors"). Patterns are literal segments and `{name}` captures.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/http.h"

namespace gleaner::api {

class Router {
 public:
  /// Registers `handler` for `method` on `pattern` (e.g. "/scrapers/jobs/{id}/results").
  /// `max_body_bytes`, when not 0, is the route's own request body limit in place of the
  /// server's (a batch of 10,000 URLs is larger than any other request).
  void add(std::string method, std::string pattern, Handler handler,
           std::size_t max_body_bytes = 0);

  struct Match {
    const Handler* handler = nullptr;  // set when path and method match
    std::map<std::string, std::string> params;
    std::string pattern;             // the matched pattern (also for 405), for logs/metrics
    bool path_known = false;         // the path matched some route (405 when no handler)
    std::size_t max_body_bytes = 0;  // the route's own body limit, 0 for the server's
  };
  Match match(std::string_view method, std::string_view path) const;

  /// The largest body limit of its own any route has (0 when none has one).
  std::size_t largest_body_limit() const;

  /// Every registered pattern with its methods, for logs.
  std::vector<std::string> describe() const;

 private:
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<std::string> segments;
    Handler handler;
    std::size_t max_body_bytes = 0;
  };
  std::vector<Route> routes_;
};

}  // namespace gleaner::api
