// GET /scrape/travel/place end to end in real Chromium over a document written for the test that
// carries a real Tripadvisor hotel page's JSON-LD, unchanged; over a real list page of the site's
// 2018 layout that holds no place's data; and over real place pages of its 2019 mobile, 2018
// desktop (tripadvisor.co.uk) and 2015 Norwegian layouts (tests/sites/tripadvisor/pages/travel/).
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::tripadvisor {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::run_in_chromium;

TEST(TripadvisorPlaceInChromium, TheLeSoleilHotel) {
  TempReplayArchive archive;
  archive.file("https://www.tripadvisor.com/Attraction_Review-d264936.html",
               std::string(GLEANER_SOURCE_DIR) +
                   "/tests/sites/tripadvisor/data/place/le-soleil-hotel-jsonld.html");
  auto result = run_in_chromium(place_endpoint(), archive.load(), {{"placeId", "d264936"}});
  EXPECT_EQ(result.body["place"]["name"], "1926 Le Soleil Hotel & Spa");
  EXPECT_EQ(result.body["place"]["type"], "hotel");
  EXPECT_EQ(result.body["place"]["reviews"], 1215);
}

TEST(TripadvisorPlaceInChromium, APlaceTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;
  EXPECT_EQ(error_in_chromium(place_endpoint(), archive.load(), {{"placeId", "d1"}}).code(),
            ErrorCode::NotFound);
}

// A real page of the site in its 2018 layout (a list of attractions: no wall, no error page, but
// none of a place's data in any form the endpoint reads): 502 extraction_failed, never a block.
TEST(TripadvisorPlaceInChromium, AnOlderLayoutPageWithoutAPlaceIsExtractionFailed) {
  TempReplayArchive archive;
  archive.file("https://www.tripadvisor.com/Attraction_Review-d155483.html",
               gleaner::testing::site_page(
                   "tripadvisor", "travel/tripadvisor-toronto-attractions-list-2018.html"));
  EXPECT_EQ(error_in_chromium(place_endpoint(), archive.load(), {{"placeId", "d155483"}}).code(),
            ErrorCode::ExtractionFailed);
}

// A real page of the site's 2019 mobile layout (an attraction in Slovenia): its JSON-LD is a
// LocalBusiness whose url is relative, and its markup holds two rating histograms, a summary
// chart of shares (57%, 41%, 2%, 0%, 0% of all 34 reviews) and the reviews' rating filter with
// counts (13, 6, 1, 0, 0: the 20 English reviews the page lists).
TEST(TripadvisorPlaceInChromium, TheKranjHouseOnThe2019MobileLayout) {
  TempReplayArchive archive;
  archive.file("https://www.tripadvisor.com/Attraction_Review-g644300-d7289577.html",
               gleaner::testing::site_page(
                   "tripadvisor",
                   "travel/tripadvisor-com-attraction-kranj-house-mobile-jsonld-2019-01.html"));
  auto result =
      run_in_chromium(place_endpoint(), archive.load(), {{"placeId", "g644300-d7289577"}});
  const auto& p = result.body["place"];
  EXPECT_EQ(p["name"], "Tourist Information Centre – Kranj House");
  EXPECT_EQ(p["type"], "attraction");
  EXPECT_EQ(p["link"],
            "https://www.tripadvisor.com/Attraction_Review-g644300-d7289577-Reviews-"
            "Tourist_Information_Centre_Kranj_House-Kranj_Upper_Carniola_Region.html");
  EXPECT_EQ(p["rating"], 4.5);
  EXPECT_EQ(p["reviews"], 34);
  EXPECT_EQ(p["ranking"], "#2 of 32 things to do in Kranj");
  EXPECT_EQ(p["address"], "Glavni trg 2, Upper Carniola Region, 4000, Slovenia");
  EXPECT_EQ(p["ratingHistogram"],
            (nlohmann::json{{"5", 13}, {"4", 6}, {"3", 1}, {"2", 0}, {"1", 0}}));
  EXPECT_EQ(p["photos"][0],
            "https://media-cdn.tripadvisor.com/media/photo-s/0f/d8/77/3e/main-square.jpg");
}

// The place's answer when the site redirects the review page asked for (`Attraction_Review-d…`)
// to the place's own page `to`, a kept real page.
nlohmann::json place_behind_redirect(const std::string& from, const std::string& to,
                                     const std::string& page, const QueryParams& query) {
  TempReplayArchive archive;
  TempReplayArchive::Entry redirect;
  redirect.url = from;
  redirect.status = 301;
  redirect.headers["Location"] = to;
  archive.add(redirect);
  archive.file(to, gleaner::testing::site_page("tripadvisor", page));
  return run_in_chromium(place_endpoint(), archive.load(), query).body["place"];
}

// A real restaurant page of the site's 2018 desktop layout on tripadvisor.co.uk (its DOM as a
// browser left it): a FoodEstablishment JSON-LD with a relative url, the ranking beside the
// rating, a chart of shares (94%, 6%…) and the travellers' rating filter with counts.
TEST(TripadvisorPlaceInChromium, TheLoungeCafeLondonOnThe2018Layout) {
  const std::string restaurant =
      "https://www.tripadvisor.co.uk/Restaurant_Review-g186338-d10519837-Reviews-"
      "The_Lounge_Cafe-London_England.html";
  const auto p = place_behind_redirect(
      "https://www.tripadvisor.co.uk/Attraction_Review-d10519837.html", restaurant,
      "travel/tripadvisor-co-uk-restaurant-lounge-cafe-london-dom-2018-05.html",
      {{"placeId", "d10519837"}, {"domain", "tripadvisor.co.uk"}});
  EXPECT_EQ(p["name"], "The Lounge Cafe");
  EXPECT_EQ(p["type"], "restaurant");
  EXPECT_EQ(p["link"], restaurant);
  EXPECT_EQ(p["rating"], 5.0);
  EXPECT_EQ(p["reviews"], 83);
  EXPECT_EQ(p["priceRange"], "£");
  EXPECT_EQ(p["ranking"], "#1 of 18,470 Restaurants in London");
  EXPECT_EQ(
      p["address"],
      "Welford Centre 113 Chalkhill Road The Welford Centre, London, HA9 9FX, United Kingdom");
  EXPECT_EQ(p["ratingHistogram"]["5"], 72);
  EXPECT_EQ(p["ratingHistogram"]["4"], 3);
  // Not in its JSON-LD, shown in its markup: the header's cuisines, the phone, the week's hours
  // (Monday to Saturday, "09:00 - 05:00" as the page writes it; Sunday not shown).
  EXPECT_EQ(p["cuisines"], (nlohmann::json{"British", "Vegetarian Friendly", "Vegan Options",
                                           "Gluten Free Options"}));
  EXPECT_EQ(p["phone"], "+44 7990 506609");
  ASSERT_EQ(p["openingHours"].size(), 6u);
  EXPECT_EQ(p["openingHours"][0],
            (nlohmann::json{{"day", "Monday"}, {"opens", "09:00"}, {"closes", "05:00"}}));
  EXPECT_EQ(p["openingHours"][5]["day"], "Saturday");
}

// Real Norwegian hotel pages of the site's 2015 layout: no JSON-LD; the place is marked up in
// RDFa (v:name, v:average, v:count, v:street-address…) and ranked "Nr. 9 av 43 hoteller i Bergen".
TEST(TripadvisorPlaceInChromium, TheRadissonBluBergenOnThe2015NorwegianLayout) {
  const std::string hotel =
      "https://www.tripadvisor.com/Hotel_Review-g190502-d206868-Reviews-"
      "Radisson_Blu_Royal_Hotel_Bergen-Bergen_Hordaland_Western_Norway.html";
  const auto p = place_behind_redirect(
      "https://www.tripadvisor.com/Attraction_Review-d206868.html", hotel,
      "travel/tripadvisor-no-hotel-radisson-blu-royal-bergen-rdfa-2015-04.html",
      {{"placeId", "d206868"}});
  EXPECT_EQ(p["name"], "Radisson Blu Royal Hotel, Bergen");
  EXPECT_EQ(p["type"], "hotel");
  EXPECT_EQ(p["link"], hotel);
  EXPECT_EQ(p["rating"], 4.0);
  EXPECT_EQ(p["reviews"], 792);
  EXPECT_EQ(p["ranking"], "Nr. 9 av 43 hoteller i Bergen");
  EXPECT_EQ(p["address"], "Bryggen 5, Bergen, 5003, Norge");
}

TEST(TripadvisorPlaceInChromium, TheParkInnTrysilOnThe2015NorwegianLayout) {
  const std::string hotel =
      "https://www.tripadvisor.com/Hotel_Review-g1006204-d2440155-Reviews-"
      "Park_Inn_Trysil_Mountain_Resort-Trysil_Municipality_Hedmark_Eastern_Norway.html";
  const auto p = place_behind_redirect(
      "https://www.tripadvisor.com/Attraction_Review-d2440155.html", hotel,
      "travel/tripadvisor-no-hotel-park-inn-trysil-rdfa-2015-04.html", {{"placeId", "d2440155"}});
  EXPECT_EQ(p["name"], "Park Inn Trysil Mountain Resort");
  EXPECT_EQ(p["type"], "hotel");
  EXPECT_EQ(p["rating"], 4.5);
  EXPECT_EQ(p["reviews"], 281);
  EXPECT_EQ(p["ranking"], "Nr. 1 av 4 hoteller i Trysil");
  EXPECT_EQ(p["address"], "Fagerasen, 2420, Norge");
}

}  // namespace
}  // namespace gleaner::extract::tripadvisor
