#include "api/router.h"

#include <algorithm>

namespace gleaner::api {
namespace {

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

bool is_capture(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

void Router::add(std::string method, std::string pattern, Handler handler,
                 std::size_t max_body_bytes) {
  auto segments = split_path(pattern);
  routes_.push_back({std::move(method), std::move(pattern), std::move(segments), std::move(handler),
                     max_body_bytes});
}

Router::Match Router::match(std::string_view method, std::string_view path) const {
  Match result;
  const auto parts = split_path(path);
  for (const auto& route : routes_) {
    if (route.segments.size() != parts.size()) continue;
    std::map<std::string, std::string> params;
    bool same = true;
    for (std::size_t i = 0; i < parts.size() && same; ++i) {
      if (is_capture(route.segments[i])) {
        params[route.segments[i].substr(1, route.segments[i].size() - 2)] = parts[i];
      } else {
        same = route.segments[i] == parts[i];
      }
    }
    if (!same) continue;
    result.path_known = true;
    result.pattern = route.pattern;
    if (route.method == method || (method == "HEAD" && route.method == "GET")) {
      result.handler = &route.handler;
      result.params = std::move(params);
      result.max_body_bytes = route.max_body_bytes;
      return result;
    }
  }
  return result;
}

std::size_t Router::largest_body_limit() const {
  std::size_t largest = 0;
  for (const auto& r : routes_) largest = std::max(largest, r.max_body_bytes);
  return largest;
}

std::vector<std::string> Router::describe() const {
  std::vector<std::string> out;
  for (const auto& r : routes_) out.push_back(r.method + " " + r.pattern);
  return out;
}

}  // namespace gleaner::api
