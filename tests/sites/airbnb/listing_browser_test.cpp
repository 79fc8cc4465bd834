// GET /scrape/rentals/listing end to end in real Chromium over replay archives of the real 2022
// and 2023 Mission District search pages and a 2025 search of France on airbnb.es.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::airbnb {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(AirbnbListingInChromium, MissionDistrict) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.airbnb.com/s/",
                   gleaner::testing::site_page(
                       "airbnb", "rentals-listing/airbnb-search-sf-mission-district-2022.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(
      listing_endpoint(), replay,
      {{"location", "San Francisco, CA"}, {"checkIn", "2030-01-22"}, {"children", "1"}});
  EXPECT_EQ(requested(*replay, "https://www.airbnb.com/s/").front(),
            "https://www.airbnb.com/s/San-Francisco--CA/"
            "homes?query=San+Francisco%2C+CA&checkin=2030-01-22&children=1");
  EXPECT_EQ(result.body["listings"].size(), 20u);
  EXPECT_EQ(result.body["listings"][0]["id"], "1944564");
}

// The 2023 layout of the same state (a rendered page of 2023): its listings sit in
// sectionIndependentData.staysSearch, not in the sections, and were answered 502 before.
TEST(AirbnbListingInChromium, MissionDistrict2023) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.airbnb.com/s/",
                   gleaner::testing::site_page(
                       "airbnb", "rentals-listing/airbnb-search-sf-mission-district-2023.html")));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"location", "Mission District, San Francisco, CA"},
                                  {"checkIn", "2030-06-30"}})
                     .body;
  ASSERT_EQ(b["listings"].size(), 18u);
  EXPECT_EQ(b["listings"][0]["id"], "1944564");
  EXPECT_EQ(b["listings"][0]["price"]["perNight"], "$210");
  EXPECT_EQ(b["listings"][0]["rating"], 4.98);
  EXPECT_TRUE(b["pagination"].contains("nextPageToken"));
}

// A search of France on airbnb.es in 2025: its listings sit in presentation.staysSearch.results
// (no `explore` any more; answered 502 before), their prices, pictures and badges beside the
// listing, numbers as Spanish writes them ("4,93 (105)", "1.826 € en total", a no-break space
// before the euro sign).
TEST(AirbnbListingInChromium, FranceOnAirbnbEsIn2025) {
  TempReplayArchive archive;
  archive.add(prefix_entry("https://www.airbnb.com/s/",
                           gleaner::testing::site_page(
                               "airbnb", "rentals-listing/airbnb-search-france-es-2025-02.html")));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"location", "France"}, {"checkIn", "2030-03-23"}})
                     .body;
  ASSERT_EQ(b["listings"].size(), 18u);
  const auto& first = b["listings"][0];
  EXPECT_EQ(first["id"], "893923710830876653");
  EXPECT_EQ(first["name"], "Refugio autónomo junto al agua");
  EXPECT_EQ(first["title"], "Cabaña en Gathemo");
  EXPECT_EQ(first["rating"], 4.93);
  EXPECT_EQ(first["reviews"], 105);
  EXPECT_EQ(first["price"]["perNight"], "128\u00a0\u20ac");
  EXPECT_EQ(first["price"]["extractedPerNight"], 128);
  EXPECT_EQ(first["price"]["extractedTotal"], 640);
  EXPECT_EQ(first["price"]["currency"], "EUR");
  EXPECT_EQ(first["badges"][0], "Recomendación del viajero");
  EXPECT_EQ(first["photos"].size(), 6u);
  EXPECT_EQ(first["location"]["latitude"], 48.75884);
  EXPECT_EQ(b["listings"][3]["price"]["original"], "84\u00a0\u20ac");
  EXPECT_EQ(b["listings"][3]["price"]["extractedPerNight"], 76);
  EXPECT_EQ(b["listings"][13]["price"]["extractedTotal"], 1826);
  EXPECT_EQ(b["listings"][17]["name"], "Cabane Kota Sauna & Spa \" Sous-bois\"");
  EXPECT_TRUE(b["pagination"].contains("nextPageToken"));
}

// A layout that keeps neither the search answer nor schema.org list items (a page built from the
// real Mission District page with both taken out, every card kept): the cards' room links, each
// named by the title it is labelled by, are the listings, in order.
TEST(AirbnbListingInChromium, APageWithoutStateOrListItemsIsReadFromItsCards) {
  TempReplayArchive archive;
  archive.add(gleaner::testing::rewritten_entry(
      "https://www.airbnb.com/s/",
      gleaner::testing::site_page("airbnb",
                                  "rentals-listing/airbnb-search-sf-mission-district-2022.html"),
      nlohmann::json::array({{"id=\"data-deferred-state\"", "id=\"removed-state\""},
                             {"itemprop=\"itemListElement\"", "itemprop=\"removedElement\""}})));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"location", "San Francisco, CA"}, {"checkIn", "2030-01-22"}})
                     .body;
  ASSERT_GE(b["listings"].size(), 18u);
  EXPECT_EQ(b["listings"][0]["id"], "1944564");
  EXPECT_EQ(b["listings"][0]["link"], "https://www.airbnb.com/rooms/1944564");
  for (const auto& l : b["listings"]) {
    EXPECT_FALSE(l.value("name", "").empty()) << l.dump();
  }
}

}  // namespace
}  // namespace gleaner::extract::airbnb
