// Shaping of the maps site's arrays into rows, on recorded responses
// (tests/sites/google/data/maps/, copied byte for byte from tests/sites/google/pages/maps/).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/error.h"
#include "extract/sites/google/maps/place.h"

namespace gleaner::extract::google::maps {
namespace {

using nlohmann::json;

std::string read(const std::string& name) {
  std::ifstream in(std::string(GLEANER_SOURCE_DIR) + "/tests/sites/google/data/maps/" + name, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(MapsPlace, ASearchResponseGivesOneRowPerListedPlace) {
  const auto places = places_from_search(
      parse_maps_body(read("gosom_search-tbm-map_coffee-ilion-athens_2024-12.json")));
  ASSERT_EQ(places.size(), 20u);
  const json& first = places[0];
  EXPECT_EQ(first["name"], "Dream Coffee");
  EXPECT_EQ(first["categories"], json({"Coffee shop"}));
  EXPECT_EQ(first["address"], "Eakou 74, Ilion 131 22, Greece");
  EXPECT_EQ(first["phone"], "+30 21 0261 6578");
  EXPECT_EQ(first["website"], "https://www.vrisko.gr/details/ag2e4fci67301a_44_3i4a4c_f341701");
  EXPECT_DOUBLE_EQ(first["rating"].get<double>(), 4.8);
  EXPECT_EQ(first["reviewCount"], 48);
  EXPECT_DOUBLE_EQ(first["latitude"].get<double>(), 38.0331931);
  EXPECT_DOUBLE_EQ(first["longitude"].get<double>(), 23.7094475);
  EXPECT_EQ(first["placeId"], "ChIJoRVrMS-joRQRkzrMbbRUnBY");
  ASSERT_GE(first["openingHours"].size(), 2u);
  // The site writes a narrow no-break space (U+202F) before AM and PM.
  EXPECT_EQ(first["openingHours"][0],
            json({{"day", "Saturday"}, {"hours", {"7\u202fAM–8:30\u202fPM"}}}));
  EXPECT_EQ(first["openingHours"][1], json({{"day", "Sunday"}, {"hours", {"Closed"}}}));
  EXPECT_EQ(first["mapsUrl"],
            "https://www.google.com/maps/search/?api=1&query=Dream%20Coffee&query_place_id="
            "ChIJoRVrMS-joRQRkzrMbbRUnBY");
  EXPECT_EQ(places[2]["categories"], json({"Coffee shop", "Cafe"}));
  EXPECT_EQ(places[19]["name"], "West Coffee Saloon");
  // Every place has its own key: none of the twenty is a duplicate of another.
  std::set<std::string> keys;
  for (const json& p : places) keys.insert(place_key(p));
  EXPECT_EQ(keys.size(), 20u);
}

TEST(MapsPlace, APlaceBodyGivesItsPlaceWithoutInventingMissingFields) {
  auto place = place_from_place_body(
      parse_maps_body(read("gosom_place-appstate-3-6_kipriakon-limassol_en_2023-09.json")));
  ASSERT_TRUE(place.has_value());
  EXPECT_EQ((*place)["name"], "Kipriakon");
  EXPECT_EQ((*place)["categories"], json({"Restaurant"}));
  EXPECT_EQ((*place)["address"], "Old port, Limassol 3042");
  EXPECT_EQ((*place)["phone"], "25 101555");
  EXPECT_DOUBLE_EQ((*place)["rating"].get<double>(), 4.2);
  EXPECT_EQ((*place)["reviewCount"], 396);
  EXPECT_EQ((*place)["placeId"], "ChIJDdnwdv0y5xQRRytw1ihZQeU");
  EXPECT_FALSE(place->contains("website"));  // the place lists none
  EXPECT_EQ(place_key(*place), "place:ChIJDdnwdv0y5xQRRytw1ihZQeU");
}

TEST(MapsPlace, TheHijackingGuardIsSkippedAndOtherBodiesRefused) {
  EXPECT_EQ(parse_maps_body(")]}'\n[1,[2]]"), json::parse("[1,[2]]"));
  EXPECT_EQ(parse_maps_body("[1]"), json::parse("[1]"));
  try {
    parse_maps_body("<html>captcha</html>");
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamError);
  }
  EXPECT_FALSE(place_from_business(json::array()).has_value());
  EXPECT_TRUE(places_from_search(json::object()).empty());
}

TEST(MapsPlace, PlacesWithoutAnIdAreKeyedByNameAndAddress) {
  EXPECT_EQ(place_key({{"name", "A"}, {"address", "1 Road"}}), "name:A|1 Road");
  EXPECT_EQ(place_key({{"name", "A"}, {"featureId", "0x1:0x2"}}), "feature:0x1:0x2");
}

}  // namespace
}  // namespace gleaner::extract::google::maps
