// Field health (extract/field_health.h): which documented fields an answer carried.
#include "extract/field_health.h"

#include <gtest/gtest.h>

namespace gleaner::extract {
namespace {

TEST(FieldHealth, NestedAndListPaths) {
  const nlohmann::json body = {
      {"title", "Hotel"},
      {"rating", {{"value", 9.2}, {"count", nullptr}}},
      {"rooms", {{{"name", "Suite"}}, {{"name", "Double"}, {"price", 120}}}},
      {"photos", nlohmann::json::array()},
      {"description", ""}};
  const auto p = field_presence(body, {"title", "rating.value", "rating.count", "rooms[].price",
                                       "rooms[].meals", "photos", "description", "missing"});
  const std::vector<std::pair<std::string, bool>> expected = {
      {"title", true},         {"rating.value", true},   {"rating.count", false},
      {"rooms[].price", true}, {"rooms[].meals", false}, {"photos", false},
      {"description", false},  {"missing", false}};
  EXPECT_EQ(p, expected);
}

}  // namespace
}  // namespace gleaner::extract
