// Rows from the rendered maps pages (extract/sites/google/maps/page_rows.h), on what maps_search.js and maps_place.js read
// from the fixtures in Chromium (recorded in tests/sites/google/data/maps/, checked against Chromium by
// jobs_browser_tests), and on small cases of link data and labels.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "extract/sites/google/maps/page_rows.h"
#include "tests/support/sites/maps_pages.h"

namespace gleaner::extract::google::maps {
namespace {

using nlohmann::json;
using testing::recorded;

TEST(MapsRows, ListingOfTheMuseumsSearch) {
  const auto places = places_from_listing(recorded("maps_search_museums_script_output.json"));
  ASSERT_EQ(places.size(), 10u);
  const json& met = places[0].row;
  EXPECT_EQ(met["name"], "The Metropolitan Museum of Art");
  EXPECT_EQ(met["categories"], json({"Art museum"}));
  EXPECT_EQ(met["address"], "1000 5th Ave");
  EXPECT_DOUBLE_EQ(met["rating"].get<double>(), 4.8);
  EXPECT_EQ(met["reviewCount"], 91790);
  EXPECT_EQ(met["featureId"], "0x89c25896f660c26f:0x3b2fa4f4b6c6a1fa");
  EXPECT_EQ(met["placeId"], "ChIJb8Jg9pZYwokR-qHGtvSkLzs");
  EXPECT_DOUBLE_EQ(met["latitude"].get<double>(), 40.7794366);
  EXPECT_DOUBLE_EQ(met["longitude"].get<double>(), -73.963244);
  EXPECT_EQ(met["mapsUrl"],
            "https://www.google.com/maps/search/?api=1&query=The%20Metropolitan%20Museum%20of%20Art"
            "&query_place_id=ChIJb8Jg9pZYwokR-qHGtvSkLzs");
  EXPECT_TRUE(
      places[0].link.starts_with("https://www.google.com/maps/place/The+Metropolitan+Museum+of+Art/"
                                 "data=!4m7!3m6!1s0x89c25896f660c26f"));
  EXPECT_EQ(places[9].row["name"], "Asia Society and Museum");
  EXPECT_FALSE(met.contains("phone"));  // the list does not show one
}

TEST(MapsRows, PlacePageOfTheObservatory) {
  const auto row =
      row_from_place_page(recorded("maps_place_griffith_observatory_script_output.json"));
  ASSERT_TRUE(row);
  EXPECT_EQ((*row)["name"], "Griffith Observatory");
  EXPECT_EQ((*row)["address"], "2800 E Observatory Rd, Los Angeles, CA 90027");
  EXPECT_EQ((*row)["phone"], "(213) 473-0800");
  EXPECT_EQ((*row)["website"], "https://griffithobservatory.org/");
  EXPECT_EQ((*row)["categories"], json({"Observatory"}));
  EXPECT_DOUBLE_EQ((*row)["rating"].get<double>(), 4.7);
  EXPECT_EQ((*row)["reviewCount"], 17059);
  EXPECT_EQ((*row)["placeId"], "ChIJywjU6WG_woAR3NrWwrEH_3M");
  ASSERT_EQ((*row)["openingHours"].size(), 7u);
  EXPECT_EQ((*row)["openingHours"][2], json({{"day", "Saturday"}, {"hours", {"10 AM–10 PM"}}}));
}

TEST(MapsRows, PlacePageWithoutAPlace) {
  EXPECT_FALSE(row_from_place_page(json{{"found", false}}));
  EXPECT_FALSE(row_from_place_page(json{{"found", true}, {"name", "  "}}));
  EXPECT_FALSE(row_from_place_page(json()));
}

TEST(MapsRows, LinkData) {
  json row = {{"name", "Café Ω"}};
  add_link_data(row,
                "https://www.google.com/maps/place/Caf%C3%A9/data=!4m7!3m6!1s0xabc:0xdef!8m2"
                "!3d-33.5!4d151.25!16s%2Fg%2F1!19sChIJ%2Dx?hl=en");
  EXPECT_EQ(row["featureId"], "0xabc:0xdef");
  EXPECT_DOUBLE_EQ(row["latitude"].get<double>(), -33.5);
  EXPECT_DOUBLE_EQ(row["longitude"].get<double>(), 151.25);
  EXPECT_EQ(row["placeId"], "ChIJ-x");
  EXPECT_EQ(
      row["mapsUrl"],
      "https://www.google.com/maps/search/?api=1&query=Caf%C3%A9%20%CE%A9&query_place_id=ChIJ-x");

  json at = {{"name", "x"}};
  add_link_data(at, "https://www.google.com/maps/place/X/@48.8584,2.2945,17z");
  EXPECT_DOUBLE_EQ(at["latitude"].get<double>(), 48.8584);
  EXPECT_FALSE(at.contains("placeId"));
  EXPECT_FALSE(at.contains("mapsUrl"));

  json none = json::object();
  add_link_data(none, "");
  EXPECT_TRUE(none.empty());
}

TEST(MapsRows, LabelsAndRedirectedWebsite) {
  const auto row = row_from_place_page(
      {{"found", true},
       {"name", "Kiosk"},
       {"rating", "3 stars"},
       {"reviews", "1 review"},
       {"address", "No label here"},
       {"phone", "Phone:  +30 21 0261 6578 "},
       {"website", "https://www.google.com/url?q=https%3A%2F%2Fkiosk.example%2F%3Fa%3D1&sa=U"}});
  ASSERT_TRUE(row);
  EXPECT_DOUBLE_EQ((*row)["rating"].get<double>(), 3);
  EXPECT_EQ((*row)["reviewCount"], 1);
  EXPECT_EQ((*row)["address"], "No label here");
  EXPECT_EQ((*row)["phone"], "+30 21 0261 6578");
  EXPECT_EQ((*row)["website"], "https://kiosk.example/?a=1");
  EXPECT_FALSE(row->contains("openingHours"));
}

TEST(MapsRows, ArraysOfAnOlderPlacePageFillTheMarkup) {
  // Pages before 2024 carried the place as Maps' arrays (APP_INITIALIZATION_STATE[3][6]): the
  // gosom recording of one, with ")]}'" put back as the page had it.
  std::ifstream in(std::string(GLEANER_SOURCE_DIR) +
                   "/tests/sites/google/data/maps/gosom_place-appstate-3-6_kipriakon-limassol_en_2023-09.json");
  std::stringstream body;
  body << ")]}'\n" << in.rdbuf();
  const auto row =
      row_from_place_page({{"found", true}, {"name", "Kipriakon"}, {"appState", body.str()}});
  ASSERT_TRUE(row);
  EXPECT_EQ((*row)["name"], "Kipriakon");                   // the markup's
  EXPECT_EQ((*row)["address"], "Old port, Limassol 3042");  // the arrays'
  EXPECT_EQ((*row)["phone"], "25 101555");
  EXPECT_EQ((*row)["categories"], json({"Restaurant"}));
}

TEST(MapsRows, MergeKeepsWhatThePlacePageLacks) {
  const json merged = merge_rows({{"name", "A"}, {"address", "1 Road"}, {"rating", 4.1}},
                                 {{"name", "A"}, {"address", "1 Road, Town 123"}, {"phone", "1"}});
  EXPECT_EQ(
      merged,
      json({{"name", "A"}, {"address", "1 Road, Town 123"}, {"phone", "1"}, {"rating", 4.1}}));
}

}  // namespace
}  // namespace gleaner::extract::google::maps
