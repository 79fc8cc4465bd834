// GET /scrape/travel/place without a browser: place ids in the site's forms, language domains,
// the page asked for, and the shaping of place.js's recorded output on a document written for
// the test that carries a real Tripadvisor hotel page's JSON-LD, unchanged (no place page of 2022
// or later is among the fixtures), plus the markup parts in the shape place.js returns them.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::tripadvisor {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& place() {
  return place_endpoint();
}
std::string url(const QueryParams& q) {
  return place().build_request(place().validate(q)).url;
}

TEST(TripadvisorPlaceParameters, IdsAndDomains) {
  EXPECT_EQ(rejection(place(), {}), refused(ErrorCode::MissingParameter, "placeId"));
  for (const char* bad :
       {"264936", "d", "x264936", "g190327-", "d264936-g190327", "Hotel_Review-g1-d2"}) {
    EXPECT_EQ(rejection(place(), {{"placeId", bad}}),
              refused(ErrorCode::InvalidParameter, "placeId"))
        << bad;
  }
  EXPECT_EQ(rejection(place(), {{"placeId", "d264936"}, {"domain", "tripadvisor.xyz"}}),
            refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(url({{"placeId", "g190327-d264936"}}),
            "https://www.tripadvisor.com/Attraction_Review-g190327-d264936.html");
  EXPECT_EQ(url({{"placeId", "d264936"}, {"domain", "tripadvisor.fr"}}),
            "https://www.tripadvisor.fr/Attraction_Review-d264936.html");
  EXPECT_EQ(url({{"placeId", "g304135"}, {"domain", "www.tripadvisor.de"}}),
            "https://www.tripadvisor.de/Tourism-g304135.html");
  EXPECT_EQ(place().route(), "travel/place");
}

TEST(TripadvisorPlaceShape, TheLeSoleilHotel) {
  json out = testing::recorded("tripadvisor/data/place/le-soleil-hotel_script_output.json");
  json b = place().shape(out, place().validate({{"placeId", "g190327-d264936"}}));
  const json& p = b["place"];
  EXPECT_EQ(p["type"], "hotel");
  EXPECT_EQ(p["name"], "1926 Le Soleil Hotel & Spa");
  EXPECT_EQ(
      p["link"],
      "https://www.tripadvisor.com/"
      "Hotel_Review-g190327-d264936-Reviews-1926_Le_Soleil_Hotel_Spa-Sliema_Island_of_Malta.html");
  EXPECT_EQ(p["rating"], 4.3);
  EXPECT_EQ(p["reviews"], 1215);
  EXPECT_EQ(p["address"], "Thornton Street, Sliema, SLM 3143, Malta");
  EXPECT_DOUBLE_EQ(p["location"]["latitude"].get<double>(), 35.9096);
  EXPECT_EQ(p["priceRange"],
            "$ (Based on Average Nightly Rates for a Standard Room from our Partners)");
  EXPECT_EQ(p["photos"].size(), 1u);
  // What the page's markup adds, in the shape place.js returns it.
  out["ranking"] = "#12 of 71 hotels in Sliema";
  out["histogram"] = {"Excellent 612", "Very good 356", "Average 141", "Poor 58", "Terrible 48"};
  b = place().shape(out, place().validate({{"placeId", "g190327-d264936"}}));
  EXPECT_EQ(b["place"]["ranking"], "#12 of 71 hotels in Sliema");
  EXPECT_EQ(b["place"]["ratingHistogram"],
            (json{{"5", 612}, {"4", 356}, {"3", 141}, {"2", 58}, {"1", 48}}));
}

// The 2019 mobile layout (tests/sites/tripadvisor/pages/travel/, the Kranj House): a relative url
// in the JSON-LD, and a summary chart of shares ahead of the rating filter's counts.
TEST(TripadvisorPlaceShape, ARelativeLinkAndAChartOfSharesOnTheOlderLayouts) {
  const json out = {
      {"url", "https://www.tripadvisor.com/Attraction_Review-g644300-d7289577-Reviews-Kranj.html"},
      {"place",
       {{"@type", "LocalBusiness"},
        {"name", "Tourist Information Centre – Kranj House"},
        {"url", "/Attraction_Review-g644300-d7289577-Reviews-Kranj.html"}}},
      {"histogram",
       {"Excellent 57%", "Very good 41%", "Average 2%", "Poor 0%", "Terrible 0%", "Excellent 13",
        "Very good 6", "Average 1", "Poor 0", "Terrible 0"}}};
  const json b = place().shape(out, place().validate({{"placeId", "g644300-d7289577"}}));
  EXPECT_EQ(b["place"]["link"],
            "https://www.tripadvisor.com/Attraction_Review-g644300-d7289577-Reviews-Kranj.html");
  EXPECT_EQ(b["place"]["ratingHistogram"],
            (json{{"5", 13}, {"4", 6}, {"3", 1}, {"2", 0}, {"1", 0}}));
}

// The 2018 layout's restaurant (the Lounge Cafe, London): no cuisines, phone or hours in its
// JSON-LD, all three in its markup, in the shape place.js returns them; the JSON-LD's win where
// it has them.
TEST(TripadvisorPlaceShape, CuisinesPhoneAndHoursFromTheMarkupWhereTheJsonLdHasNone) {
  json out = {{"url", "https://www.tripadvisor.co.uk/Restaurant_Review-g186338-d10519837.html"},
              {"place", {{"@type", "FoodEstablishment"}, {"name", "The Lounge Cafe"}}},
              {"cuisines", {"British", "Vegetarian Friendly"}},
              {"phone", "+44 7990 506609"},
              {"hours",
               {{{"dayOfWeek", "Monday"}, {"opens", "09:00"}, {"closes", "05:00"}},
                {{"dayOfWeek", "Tuesday"}, {"opens", "12:00"}, {"closes", "15:00"}},
                {{"dayOfWeek", "Tuesday"}, {"opens", "18:00"}, {"closes", "23:00"}}}}};
  const auto params = place().validate({{"placeId", "d10519837"}, {"domain", "tripadvisor.co.uk"}});
  json p = place().shape(out, params)["place"];
  EXPECT_EQ(p["cuisines"], (json{"British", "Vegetarian Friendly"}));
  EXPECT_EQ(p["phone"], "+44 7990 506609");
  EXPECT_EQ(p["openingHours"],
            (json{{{"day", "Monday"}, {"opens", "09:00"}, {"closes", "05:00"}},
                  {{"day", "Tuesday"}, {"opens", "12:00"}, {"closes", "15:00"}},
                  {{"day", "Tuesday"}, {"opens", "18:00"}, {"closes", "23:00"}}}));
  out["place"]["servesCuisine"] = "Italian";
  out["place"]["telephone"] = "+44 20 0000 0000";
  out["place"]["openingHours"] = "Mo 10:00-11:00";
  p = place().shape(out, params)["place"];
  EXPECT_EQ(p["cuisines"], (json{"Italian"}));
  EXPECT_EQ(p["phone"], "+44 20 0000 0000");
  EXPECT_EQ(p["openingHours"].size(), 1u);
}

TEST(TripadvisorPlaceShape, TheTypeFollowsThePageTheSiteSettledOn) {
  const json restaurant = {
      {"url", "https://www.tripadvisor.fr/Restaurant_Review-g304135-d1-Reviews-Amudham.html"},
      {"place",
       {{"@type", "Restaurant"},
        {"name", "Amudham"},
        {"servesCuisine", {"Italienne", "Chinoise"}},
        {"aggregateRating", {{"ratingValue", "4,8"}, {"reviewCount", "56"}}}}}};
  const json b = place().shape(restaurant,
                               place().validate({{"placeId", "d1"}, {"domain", "tripadvisor.fr"}}));
  EXPECT_EQ(b["place"]["type"], "restaurant");
  EXPECT_EQ(b["place"]["cuisines"], (json{"Italienne", "Chinoise"}));
  EXPECT_EQ(b["place"]["rating"], 4.8);
  EXPECT_EQ(testing::error_of_shape(place(), json{{"place", nullptr}},
                                    place().validate({{"placeId", "d1"}})),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::tripadvisor
