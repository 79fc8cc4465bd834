// GET /scrape/local/place end to end in real Chromium over a document written for the test (see
// tests/sites/yelp/data/place/gaucho-parrilla-argentina.html), over real business pages of 2025
// (tests/sites/yelp/pages/local/) and over the DataDome wall a business page was answered with
// (tests/sites/yelp/pages/blocks/).
#include <gtest/gtest.h>

#include <algorithm>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yelp {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::run_in_chromium;

TEST(YelpPlaceInChromium, GauchoParrillaArgentina) {
  TempReplayArchive archive;
  archive.file("https://www.yelp.com/biz/gaucho-parrilla-argentina-pittsburgh",
               std::string(GLEANER_SOURCE_DIR) +
                   "/tests/sites/yelp/data/place/gaucho-parrilla-argentina.html");
  auto result = run_in_chromium(place_endpoint(), archive.load(),
                                {{"placeId", "gaucho-parrilla-argentina-pittsburgh"}});
  EXPECT_EQ(result.body["place"]["name"], "Gaucho Parrilla Argentina");
  EXPECT_EQ(result.body["place"]["reviews"], 1492);
}

TEST(YelpPlaceInChromium, ABusinessTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;
  EXPECT_EQ(
      error_in_chromium(place_endpoint(), archive.load(), {{"placeId", "no-such-place"}}).code(),
      ErrorCode::NotFound);
}

// A kept real business page (tests/sites/yelp/pages/local/) answering the business's page.
nlohmann::json place_on(const std::string& alias, const std::string& page) {
  TempReplayArchive archive;
  archive.file("https://www.yelp.com/biz/" + alias, gleaner::testing::site_page("yelp", page));
  return run_in_chromium(place_endpoint(), archive.load(), {{"placeId", alias}}).body["place"];
}

// What Turmeric's page shows of the business, whether its JSON-LD or its state gives it.
void expect_turmeric(const nlohmann::json& p) {
  EXPECT_EQ(p["name"], "Turmeric");
  EXPECT_EQ(p["rating"], 4.2);
  EXPECT_EQ(p["reviews"], 298);
  EXPECT_EQ(p["priceRange"], "$$");
  EXPECT_EQ(p["phone"], "(314) 899-9995");
  EXPECT_EQ(p["address"], "6679 Delmar Blvd, University City, MO, 63130, US");
  EXPECT_EQ(p["categories"], (nlohmann::json{"Indian", "Comfort Food", "Bars"}));
}

// Real business pages of September 2025: a restaurant with its Restaurant JSON-LD; the same page
// served to another user agent without any business JSON-LD (the business is read from the page's
// state); a coffee roaster whose JSON-LD is a generic LocalBusiness (no cuisine: its category is
// the header's); a grocery store served without the JSON-LD, three address lines, no price.
TEST(YelpPlaceInChromium, TurmericWithItsRestaurantJsonLd2025) {
  const auto p = place_on("turmeric-university-city",
                          "local/yelp-com-biz-turmeric-university-city-2025-09.html");
  expect_turmeric(p);
  EXPECT_EQ(p["openingHours"][0]["day"], "Mon");
  EXPECT_EQ(p["openingHours"][0]["hours"],
            "11:30 AM - 2:30 PM, 5:00 PM - 9:30 PM, 10:00 PM - 1:00 AM (Next day)");
  EXPECT_EQ(p["openingHours"][4]["hours"], "11:30 AM - 2:30 PM, 5:00 PM - 1:00 AM (Next day)");
  EXPECT_NE(std::find(p["amenities"].begin(), p["amenities"].end(), "Takes reservations"),
            p["amenities"].end());
  EXPECT_EQ(std::find(p["amenities"].begin(), p["amenities"].end(), "32 More Attributes"),
            p["amenities"].end());
  EXPECT_EQ(p["photos"][0], "https://s3-media0.fl.yelpcdn.com/bphoto/x4B21COSclAvNbzbK6bPNQ/l.jpg");
}

TEST(YelpPlaceInChromium, TurmericServedWithoutTheBusinessJsonLd2025) {
  const auto p =
      place_on("turmeric-university-city",
               "local/yelp-com-biz-turmeric-university-city-no-business-jsonld-2025-09.html");
  expect_turmeric(p);
  EXPECT_EQ(p["openingHours"].size(), 7u);
  EXPECT_EQ(p["healthScore"],
            (nlohmann::json{{"label", "Health Score"}, {"score", "94 out of 100"}}));
}

TEST(YelpPlaceInChromium, ACoffeeRoasterWithAGenericLocalBusinessJsonLd2025) {
  const auto p = place_on(
      "northwest-coffee-roasting-company-saint-louis-2",
      "local/yelp-com-biz-northwest-coffee-roasting-saint-louis-localbusiness-2025-09.html");
  EXPECT_EQ(p["name"], "Northwest Coffee Roasting Company");
  EXPECT_EQ(p["categories"], (nlohmann::json{"Coffee & Tea"}));
  EXPECT_EQ(p["rating"], 4.1);
  EXPECT_EQ(p["reviews"], 286);
  EXPECT_EQ(p["phone"], "(314) 371-4600");
  EXPECT_EQ(p["address"], "4251 Laclede Ave, Saint Louis, MO, 63108, US");
  EXPECT_EQ(p["openingHours"][6]["hours"], "7:00 AM - 6:00 PM");
}

TEST(YelpPlaceInChromium, AGroceryServedWithoutTheBusinessJsonLd2025) {
  const auto p = place_on("publix-jacksonville-19",
                          "local/yelp-com-biz-publix-jacksonville-no-business-jsonld-2025-09.html");
  EXPECT_EQ(p["name"], "Publix");
  EXPECT_EQ(p["categories"], (nlohmann::json{"Grocery"}));
  EXPECT_EQ(p["rating"], 4.6);
  EXPECT_EQ(p["reviews"], 12);
  EXPECT_EQ(p["phone"], "(904) 757-1304");
  EXPECT_FALSE(p.contains("priceRange"));
  EXPECT_EQ(
      p["address"],
      "12541 Yellow Bluff Rd, Northpoint Village Shopping Center, Jacksonville, FL, 32226, US");
}

// Three more real business pages of September 2025, each with the health inspection's line at the
// top of its amenities (its label links to /inspections/): an estimated score out of 100, a letter
// grade, and a sentence. The line is the answer's `healthScore`, not two amenities ("Health
// Score", "A") as it was read before.
TEST(YelpPlaceInChromium, ARestaurantWithAnEstimatedHealthScore2025) {
  const auto p = place_on(
      "mia-bella-restaurant-cleveland",
      "local/yelp-com-biz-mia-bella-restaurant-cleveland-estimated-health-score-2025-09.html");
  EXPECT_EQ(p["name"], "Mia Bella Restaurant");
  EXPECT_EQ(p["categories"], (nlohmann::json{"Mediterranean", "Italian"}));
  EXPECT_EQ(p["rating"], 4.3);
  EXPECT_EQ(p["reviews"], 1110);
  EXPECT_EQ(p["priceRange"], "$$");
  EXPECT_EQ(p["phone"], "(216) 795-2355");
  EXPECT_EQ(p["address"], "12200 Mayfield Rd, Cleveland, OH, 44106, US");
  EXPECT_EQ(p["openingHours"][0], (nlohmann::json{{"day", "Mon"}, {"hours", "4:00 PM - 9:00 PM"}}));
  EXPECT_EQ(p["openingHours"][5],
            (nlohmann::json{{"day", "Sat"}, {"hours", "12:00 PM - 10:00 PM"}}));
  EXPECT_EQ(p["healthScore"],
            (nlohmann::json{{"label", "Estimated Health Score"}, {"score", "98 out of 100"}}));
  EXPECT_EQ(p["amenities"],
            (nlohmann::json{"Takes reservations", "Offers take-out", "Vegan options"}));
}

TEST(YelpPlaceInChromium, ACoffeeRoasterWithAHealthGrade2025) {
  const auto p =
      place_on("blueprint-coffee-st-louis",
               "local/yelp-com-biz-blueprint-coffee-st-louis-health-score-a-2025-09.html");
  EXPECT_EQ(p["name"], "Blueprint Coffee");
  EXPECT_EQ(p["categories"], (nlohmann::json{"Coffee Roasteries"}));
  EXPECT_EQ(p["rating"], 4.6);
  EXPECT_EQ(p["reviews"], 108);
  EXPECT_EQ(p["phone"], "(314) 266-6808");
  EXPECT_EQ(p["address"], "4206 Watson Rd, St Louis, MO, 63109, US");
  EXPECT_EQ(p["openingHours"][6], (nlohmann::json{{"day", "Sun"}, {"hours", "8:00 AM - 4:00 PM"}}));
  EXPECT_EQ(p["healthScore"], (nlohmann::json{{"label", "Health Score"}, {"score", "A"}}));
  EXPECT_EQ(p["amenities"],
            (nlohmann::json{"Offers delivery", "Offers take-out", "Wheelchair accessible"}));
}

// Asked for in French by its saver, served in English like every other course page.
TEST(YelpPlaceInChromium, ABarWithNoCriticalViolationsNoted2025) {
  const auto p =
      place_on("clydes-tower-oaks-lodge-rockville-4",
               "local/yelp-com-biz-clydes-tower-oaks-lodge-rockville-no-violations-2025-09.html");
  EXPECT_EQ(p["name"], "Clyde's Tower Oaks Lodge");
  EXPECT_EQ(p["categories"], (nlohmann::json{"Bars", "Seafood", "American"}));
  EXPECT_EQ(p["rating"], 3.7);
  EXPECT_EQ(p["reviews"], 1143);
  EXPECT_EQ(p["phone"], "(301) 294-0200");
  EXPECT_EQ(p["address"], "2 Preserve Pkwy, Rockville, MD, 20852, US");
  EXPECT_EQ(p["openingHours"][4],
            (nlohmann::json{{"day", "Fri"}, {"hours", "11:00 AM - 1:00 AM (Next day)"}}));
  EXPECT_EQ(p["healthScore"],
            (nlohmann::json{{"label", "Health Score"}, {"score", "No Critical Violations Noted"}}));
  EXPECT_EQ(std::find(p["amenities"].begin(), p["amenities"].end(), "Health Score"),
            p["amenities"].end());
  EXPECT_EQ(p["amenities"][0], "Takes reservations");
}

// DataDome's "Please enable JS and disable any ad blocker" page, answered for a business page.
TEST(YelpPlaceInChromium, TheDataDomeWallOfABusinessPageIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(
      "https://www.yelp.com/biz/turmeric-university-city",
      gleaner::testing::site_page("yelp", "blocks/yelp-biz-datadome-enable-js-2025-09.html"));
  EXPECT_EQ(
      error_in_chromium(place_endpoint(), archive.load(), {{"placeId", "turmeric-university-city"}})
          .code(),
      ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::yelp
