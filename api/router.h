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
  void add(std::string method, std::string pattern, Handler handler);

  struct Match {
    const Handler* handler = nullptr;      // set when path and method match
    std::map<std::string, std::string> params;
    std::string pattern;                   // the matched pattern (also for 405), for logs/metrics
    bool path_known = false;               // the path matched some route (405 when no handler)
  };
  Match match(std::string_view method, std::string_view path) const;

  /// Every registered pattern with its methods, for logs.
  std::vector<std::string> describe() const;

 private:
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<std::string> segments;
    Handler handler;
  };
  std::vector<Route> routes_;
};

}  // namespace gleaner::api
