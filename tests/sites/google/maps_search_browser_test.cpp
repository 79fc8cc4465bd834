// GET /scrape/google-maps/search end to end in real Chromium: the endpoint builds the Maps search
// URL, the real rendered results pages (tests/sites/google/pages/google-maps-search, fr-MA 2025;
// pages/maps, English 2026) are answered from a replay archive, maps_search.js (the scraper jobs'
// reader) reads the feed and the C++ shapes it.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using nlohmann::json;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kFes = gleaner::testing::site_page(
    "google",
    "google-maps-search/n8nscraper_search-dom_concepteur-sites-web-fes_frMA_2025-08.html");
constexpr const char* kFesUrl = "https://www.google.com/maps/search/Concepteur+de+sites+Web+fes";

TEST(MapsSearchInChromium, AFrenchFeedWithItsDecimalCommas) {
  TempReplayArchive archive;
  archive.file(kFesUrl, kFes);
  auto replay = archive.load();
  auto result =
      run_in_chromium(maps_search_endpoint(), replay, {{"q", "Concepteur de sites Web fes"}});
  EXPECT_EQ(requested(*replay).front(), kFesUrl);

  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 8u);
  const json& appbox = results[0];
  EXPECT_EQ(appbox["position"], 1);
  EXPECT_EQ(appbox["title"], "Appbox");
  EXPECT_DOUBLE_EQ(appbox["rating"].get<double>(), 4.4);
  EXPECT_EQ(appbox["reviews"], 14);
  EXPECT_EQ(appbox["type"], "Concepteur de sites Web");
  EXPECT_EQ(appbox["address"], "N2 immeuble 34.av des FAR.FES MAROC");
  EXPECT_EQ(appbox["openState"], "Ouvert 24h/24");
  EXPECT_EQ(appbox["phone"], "0690-402020");
  EXPECT_EQ(appbox["dataId"], "0xd9f8b3f4fb30863:0xcc978bcc6d098499");
  EXPECT_EQ(appbox["placeId"], "ChIJYwizTz-Lnw0RmYQJbcyLl8w");
  EXPECT_EQ(appbox["kgmid"], "/g/11g6blzg5x");
  EXPECT_DOUBLE_EQ(appbox["gpsCoordinates"]["latitude"].get<double>(), 34.03098);
  EXPECT_DOUBLE_EQ(appbox["gpsCoordinates"]["longitude"].get<double>(), -4.9930138);
  EXPECT_EQ(results[1]["title"], "Metagroup création site web fés");
  EXPECT_DOUBLE_EQ(results[1]["rating"].get<double>(), 4.8);
  EXPECT_EQ(results[1]["reviews"], 17);
}

TEST(MapsSearchInChromium, AnEnglishFeedWithDescriptionsAndThumbnails) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/maps/search/museums+in+New+York?hl=en",
               gleaner::testing::site_page(
                   "google", "maps/cocli_search-dom_metropolitan-museum_en_2026-03.html"));
  auto result = run_in_chromium(maps_search_endpoint(), archive.load(),
                                {{"q", "museums in New York"}, {"hl", "en"}});
  const json& met = result.body["localResults"][0];
  EXPECT_EQ(met["title"], "The Metropolitan Museum of Art");
  EXPECT_EQ(met["type"], "Art museum");
  EXPECT_EQ(met["address"], "1000 5th Ave");
  EXPECT_EQ(met["reviews"], 91790);
  EXPECT_EQ(met["description"], "World-class art collection");
  EXPECT_EQ(met["openState"], "Closed · Opens 10 AM");
  EXPECT_EQ(met["kgmid"], "/m/09c7b");
  EXPECT_FALSE(met.contains("phone"));
}

// An en-IN feed of 2025 whose first two cards are ads (each under a "Sponsored" heading): they are
// answered where the page shows them, marked `sponsored`.
TEST(MapsSearchInChromium, AnIndianFeedWithSponsoredCards) {
  TempReplayArchive archive;
  archive.file(
      "https://www.google.com/maps/search/hospitals+in+delhi",
      gleaner::testing::site_page(
          "google",
          "google-maps-search/scraperdemo_search-dom_hospitals-in-delhi_enIN_2025-07.html"));
  auto result =
      run_in_chromium(maps_search_endpoint(), archive.load(), {{"q", "hospitals in delhi"}});

  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 8u);
  const json& ad = results[0];
  EXPECT_EQ(ad["title"], "Dr. Gautam Banga - Urologist & Reconstructive Surgeon");
  EXPECT_EQ(ad["sponsored"], true);
  EXPECT_DOUBLE_EQ(ad["rating"].get<double>(), 4.9);
  EXPECT_EQ(ad["reviews"], 90);
  EXPECT_EQ(ad["type"], "Urologist");
  EXPECT_EQ(ad["placeId"], "ChIJ77GsrLLjDDkRTno0EIMPuqk");
  EXPECT_EQ(results[1]["title"], "Apollo AyurVAID Hospitals - New Delhi");
  EXPECT_EQ(results[1]["sponsored"], true);

  const json& fortis = results[2];
  EXPECT_EQ(fortis["position"], 3);
  EXPECT_EQ(fortis["title"],
            "Fortis Flt Lt Rajan Dhall Hospital, Vasant Kunj - Best Hospital in New Delhi");
  EXPECT_FALSE(fortis.contains("sponsored"));
  EXPECT_DOUBLE_EQ(fortis["rating"].get<double>(), 4.5);
  EXPECT_EQ(fortis["reviews"], 5775);
  EXPECT_EQ(fortis["type"], "Hospital");
  EXPECT_EQ(fortis["address"], "Fortis Flt. Lt. Rajan Dhall Hospital, Aruna Asaf Ali Marg");
  EXPECT_EQ(fortis["openState"], "Open 24 hours");
  EXPECT_EQ(fortis["phone"], "097110 90119");
  EXPECT_EQ(results[3]["title"], "Venkateshwar Hospital");
  EXPECT_EQ(results[3]["reviews"], 19952);
  EXPECT_EQ(results[3]["type"], "Private hospital");
  EXPECT_EQ(results[3]["phone"], "011 4855 5555");
  EXPECT_EQ(results[7]["title"], "Manipal Hospital, Palam Vihar, Gurugram");
  EXPECT_EQ(results[7]["reviews"], 13568);
}

// A de feed of 2026-03 that is complete: one card (the address the search matched in part, no
// reviews) and the site's end-of-list line after it. The answer is that card, and it comes without
// the settle wait a feed that may still grow costs (maps_browser_test.cpp checks the reader does
// not scroll it).
TEST(MapsSearchInChromium, AGermanFeedThatShowsItsEnd) {
  TempReplayArchive archive;
  const std::string url =
      "https://www.google.com/maps/search/Domino%27s+Pizza+2800+S+Joyce+St+Arlington+VA?hl=de";
  archive.file(url, gleaner::testing::site_page(
                        "google", "google-maps-search/"
                                  "arbitron_search-dom_dominos-2800-s-joyce-st-arlington-end-of-"
                                  "list_de_2026-03.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_search_endpoint(), replay,
                                {{"q", "Domino's Pizza 2800 S Joyce St Arlington VA"}, {"hl", "de"}});
  EXPECT_EQ(requested(*replay).front(), url);
  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["position"], 1);
  EXPECT_EQ(results[0]["title"], "2800 S Joyce St");
  EXPECT_FALSE(results[0].contains("rating"));
  EXPECT_FALSE(results[0].contains("reviews"));
}

TEST(MapsSearchInChromium, GooglesConsentWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page(kFesUrl,
               "<html><head><title>Before you continue to Google Maps</title></head><body>"
               "<form action='https://consent.google.com/save'><p>We use cookies and data to "
               "deliver and maintain Google services</p><button>Accept all</button></form>"
               "</body></html>");
  EXPECT_EQ(error_in_chromium(maps_search_endpoint(), archive.load(),
                              {{"q", "Concepteur de sites Web fes"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
