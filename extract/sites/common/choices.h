#pragma once
// The filters of search endpoints: tables of enumerated values (entries with a `name`, the value
// the API takes, and what the site calls it) and bracketed ranges (`price[min]`, `price[max]`).
#include <cstddef>
#include <string>
#include <vector>

#include "core/error.h"
#include "extract/params.h"

namespace gleaner::extract::site_choices {

/// The names a table of choices accepts (for Param::one_of), in table order.
template <class Choice, std::size_t N>
std::vector<std::string> names(const Choice (&choices)[N]) {
  std::vector<std::string> out;
  for (const Choice& c : choices) out.emplace_back(c.name);
  return out;
}

/// The entry named `name`; after validation it exists (Internal otherwise).
template <class Choice, std::size_t N>
const Choice& named(const Choice (&choices)[N], const std::string& name) {
  for (const Choice& c : choices) {
    if (name == c.name) return c;
  }
  throw Error(ErrorCode::Internal, "unknown value " + name + " after validation");
}

/// `<range>[min]` and `<range>[max]`, each made by `make(name)` (a Param with its bounds).
template <class Make>
void add_min_max(std::vector<Param>& list, const std::string& range, Make make) {
  list.push_back(make(range + "[min]"));
  list.push_back(make(range + "[max]"));
}

/// `<range>[max]` below `<range>[min]` is a 400 naming `<range>[max]`.
inline void check_min_max(const ValidatedParams& p, const std::string& range) {
  const auto min = p.number(range + "[min]");
  const auto max = p.number(range + "[max]");
  if (min && max && *max < *min) {
    throw invalid_parameter(range + "[max]", range + "[max] must be at least " + range + "[min]");
  }
}

}  // namespace gleaner::extract::site_choices
