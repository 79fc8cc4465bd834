// GET /scrape/google-maps/place end to end in real Chromium: the endpoint opens the place by its
// id as the Maps URLs take it, the real rendered place page of Griffith Observatory
// (tests/sites/google/pages/maps, 2026) is answered from a replay archive, maps_place.js (the
// scraper jobs' reader of a place's details) reads it and the C++ shapes it.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/maps_pages.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using nlohmann::json;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

constexpr const char* kObservatory = "ChIJywjU6WG_woAR3NrWwrEH_3M";
constexpr const char* kObservatoryUrl =
    "https://www.google.com/maps/place/?q=place_id:ChIJywjU6WG_woAR3NrWwrEH_3M";

// What the endpoint answers for `place_id` (and `hl`) when that place's URL serves the kept page
// `page` (tests/sites/google/pages/).
json place_served(const std::string& place_id, const std::string& page,
                  const std::string& hl = "") {
  const std::string url =
      "https://www.google.com/maps/place/?q=place_id:" + place_id + (hl.empty() ? "" : "&hl=" + hl);
  TempReplayArchive archive;
  archive.file(url, gleaner::testing::site_page("google", page));
  QueryParams query = {{"placeId", place_id}};
  if (!hl.empty()) query.emplace("hl", hl);
  return run_in_chromium(maps_place_endpoint(), archive.load(), query).body["placeResults"];
}

TEST(MapsPlaceInChromium, GriffithObservatory) {
  TempReplayArchive archive;
  archive.file(kObservatoryUrl,
               gleaner::testing::site_page(
                   "google", "maps/cocli_place-dom_griffith-observatory_en_2026-03.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_place_endpoint(), replay, {{"placeId", kObservatory}});
  EXPECT_EQ(requested(*replay).front(), kObservatoryUrl);

  const json& place = result.body["placeResults"];
  EXPECT_EQ(place["title"], "Griffith Observatory");
  EXPECT_EQ(place["placeId"], kObservatory);
  EXPECT_EQ(place["address"], "2800 E Observatory Rd, Los Angeles, CA 90027");
  EXPECT_EQ(place["phone"], "(213) 473-0800");
  EXPECT_EQ(place["website"], "https://griffithobservatory.org/");
  EXPECT_DOUBLE_EQ(place["rating"].get<double>(), 4.7);
  EXPECT_EQ(place["reviews"], 17059);
  EXPECT_EQ(place["type"], "Observatory");
  ASSERT_EQ(place["workingHours"]["days"].size(), 7u);
  EXPECT_EQ(place["workingHours"]["days"][0], json({{"day", "Thursday"}, {"time", "12–10 PM"}}));
  EXPECT_EQ(place["workingHours"]["days"][4], json({{"day", "Monday"}, {"time", "Closed"}}));
}

// A place page is opened hidden, not painted as a search is (a painted page costs about twice the
// CPU): the endpoint asks the opener for a hidden tab, and the real page reads as in the test above.
TEST(MapsPlaceInChromium, ThePlacePageIsReadInAHiddenTab) {
  TempReplayArchive archive;
  archive.file(kObservatoryUrl,
               gleaner::testing::site_page(
                   "google", "maps/cocli_place-dom_griffith-observatory_en_2026-03.html"));
  extract::PoolTabs pool(gleaner::testing::shared_pool(), {archive.load()});
  maps::testing::ProfilesSeen tabs(pool);
  const auto result =
      gleaner::testing::fetch_recorded(maps_place_endpoint(), tabs, {{"placeId", kObservatory}});
  ASSERT_EQ(tabs.profiles.size(), 1u);
  EXPECT_FALSE(tabs.profiles[0].painted);
  EXPECT_EQ(result.body["placeResults"]["title"], "Griffith Observatory");
  EXPECT_EQ(result.body["placeResults"]["workingHours"]["days"].size(), 7u);
}

// Why a hidden tab is enough: every real rendered place page of the suites (the endpoints' and
// the jobs') answers the same, whole, read in a hidden tab as in a painted one. (The page as
// served, beautycrm, is read from its arrays, which paint does not draw, and waits the whole
// render patience for a panel it never shows: 15 s a mode, so it is left out.)
TEST(MapsPlaceInChromium, EveryRealPlacePageAnswersTheSameHiddenAsPainted) {
  const std::string id = "ChIJ0000000000";
  for (const char* page :
       {"maps/cocli_place-dom_griffith-observatory_en_2026-03.html",
        "maps/clementmapsscraper_place-dom_agence-web-geneve_fr_2025-12.html",
        "maps/mapper_place-dom-over-search_the-pantry-amsterdam_en_2025-11.html"}) {
    SCOPED_TRACE(page);
    TempReplayArchive archive;
    archive.file("https://www.google.com/maps/place/?q=place_id:" + id,
                 gleaner::testing::site_page("google", page));
    extract::PoolTabs pool(gleaner::testing::shared_pool(), {archive.load()});
    json answer[2];
    for (const bool painted : {false, true}) {
      maps::testing::ProfilesSeen tabs(pool, painted);
      answer[painted] =
          gleaner::testing::fetch_recorded(maps_place_endpoint(), tabs, {{"placeId", id}}).body;
    }
    EXPECT_EQ(answer[false], answer[true]);
    EXPECT_TRUE(answer[false]["placeResults"].contains("title"));
  }
}

// A French place page of 2025 (Geneva): its rating and review count are labelled "5,0 étoiles" and
// "30 avis", its details "Adresse: …", "Numéro de téléphone: …", its hours French days.
TEST(MapsPlaceInChromium, AFrenchPlaceWithItsOwnWordsForStarsAndReviews) {
  constexpr const char* kAgence = "ChIJQ_hC8-NMR6ARFDFXWY0DR9g";
  TempReplayArchive archive;
  archive.file(
      "https://www.google.com/maps/place/?q=place_id:ChIJQ_hC8-NMR6ARFDFXWY0DR9g&hl=fr",
      gleaner::testing::site_page(
          "google", "maps/clementmapsscraper_place-dom_agence-web-geneve_fr_2025-12.html"));
  auto result =
      run_in_chromium(maps_place_endpoint(), archive.load(), {{"placeId", kAgence}, {"hl", "fr"}});

  const json& place = result.body["placeResults"];
  EXPECT_EQ(place["title"], "Agence Web Genève ⭐ Création de site web, SEO & marketing digital");
  EXPECT_EQ(place["placeId"], kAgence);
  EXPECT_EQ(place["dataId"], "0xa0474ce3f342f843:0xd847038d59573114");
  EXPECT_EQ(place["kgmid"], "/g/11rvfz06qx");
  EXPECT_DOUBLE_EQ(place["gpsCoordinates"]["latitude"].get<double>(), 46.1905111);
  EXPECT_DOUBLE_EQ(place["gpsCoordinates"]["longitude"].get<double>(), 6.1387503);
  EXPECT_EQ(place["address"], "Rue Caroline 23, 1227 Genève, Suisse");
  EXPECT_EQ(place["phone"], "+41 22 501 76 86");
  EXPECT_EQ(place["website"], "https://www.creation-site-internet-suisse.ch/");
  EXPECT_DOUBLE_EQ(place["rating"].get<double>(), 5.0);
  EXPECT_EQ(place["reviews"], 30);
  EXPECT_EQ(place["type"], "Service de marketing Internet");
  EXPECT_EQ(place["openState"], "Ouvert 24h/24");
  ASSERT_EQ(place["workingHours"]["days"].size(), 7u);
  EXPECT_EQ(place["workingHours"]["days"][0],
            json({{"day", "mercredi"}, {"time", "Ouvert 24h/24"}}));
  EXPECT_EQ(place["workingHours"]["days"][5], json({{"day", "lundi"}, {"time", "Ouvert 24h/24"}}));
}

// An English place page of 2025 opened over the search it came from ("restaurants in Amsterdam
// Centrum"): the feed's panel comes first in the page and has sponsored cards of other places;
// the place's own panel is the one labelled with its name.
TEST(MapsPlaceInChromium, APlaceOpenedOverItsSearch) {
  constexpr const char* kPantry = "ChIJG9c0F-kJxkcR0Yd6ANByMLE";
  const json place = place_served(
      kPantry, "maps/mapper_place-dom-over-search_the-pantry-amsterdam_en_2025-11.html");
  EXPECT_EQ(place["title"], "The Pantry");
  EXPECT_EQ(place["placeId"], kPantry);
  EXPECT_EQ(place["address"], "Leidsekruisstraat 21, 1017 RE Amsterdam, Netherlands");
  EXPECT_EQ(place["phone"], "+31 20 620 0922");
  EXPECT_EQ(place["website"], "https://www.thepantry.nl/?redirect=yes");
  EXPECT_DOUBLE_EQ(place["rating"].get<double>(), 4.7);
  EXPECT_EQ(place["reviews"], 8713);
  EXPECT_EQ(place["type"], "Dutch restaurant");
  ASSERT_EQ(place["workingHours"]["days"].size(), 7u);
  EXPECT_EQ(place["workingHours"]["days"][0],
            json({{"day", "Monday"}, {"time", "10:30 AM–10:30 PM"}}));
  EXPECT_EQ(place["workingHours"]["days"][6],
            json({{"day", "Sunday"}, {"time", "10:30 AM–10:30 PM"}}));
}

// A place page as the server sends it, saved before its scripts ran (Georgian, 2025): no panel,
// but the place's arrays (APP_INITIALIZATION_STATE[3][6]) are in the page and are read instead.
TEST(MapsPlaceInChromium, APageAsServedIsReadFromItsArrays) {
  constexpr const char* kDiamant = "ChIJKSf6gY0TXz4RMgygD0x4Uk8";
  const json place = place_served(
      kDiamant, "maps/beautycrm_place-as-served-appstate_m-le-diamant-dubai_ka_2025-11.html");
  EXPECT_EQ(place["title"], "M Le Diamant - Best Beauty Salon in Jumeirah Beach Dubai");
  EXPECT_EQ(place["placeId"], kDiamant);
  EXPECT_EQ(place["dataId"], "0x3e5f138d81fa2729:0x4f52784c0fa00c32");
  EXPECT_DOUBLE_EQ(place["rating"].get<double>(), 4.8);
  EXPECT_EQ(place["reviews"], 121);
  EXPECT_EQ(place["type"], "სილამაზის სალონი");
  EXPECT_DOUBLE_EQ(place["gpsCoordinates"]["latitude"].get<double>(), 25.0738739);
  EXPECT_DOUBLE_EQ(place["gpsCoordinates"]["longitude"].get<double>(), 55.1315886);
  EXPECT_EQ(place["address"],
            "Shop 13 Amwaj 3 Plaza Level - Jumeirah Beach Residence - Dubai - არაბთა "
            "გაერთიანებული საამიროები");
  EXPECT_EQ(place["phone"], "+971 52 696 1100");
  // The arrays give it through Google's redirect, relative: its target is the website.
  EXPECT_EQ(place["website"], "https://www.instagram.com/mlediamant/");
}

// The /sorry/ page Google served a scraper for https://www.google.com/maps in 2025.
TEST(MapsPlaceInChromium, GooglesRealCaptchaOfMapsIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(kObservatoryUrl, gleaner::testing::site_page(
                                    "google", "blocks/google-maps-sorry-captcha-2025-06.html"));
  EXPECT_EQ(
      error_in_chromium(maps_place_endpoint(), archive.load(), {{"placeId", kObservatory}}).code(),
      ErrorCode::UpstreamBlocked);
}

TEST(MapsPlaceInChromium, GooglesCaptchaIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page(kObservatoryUrl,
               "<html><head><title>Google Maps</title></head><body><form id='captcha-form' "
               "action='/sorry/index'><p>Our systems have detected unusual traffic from your "
               "computer network.</p><div class='g-recaptcha'></div></form></body></html>");
  EXPECT_EQ(
      error_in_chromium(maps_place_endpoint(), archive.load(), {{"placeId", kObservatory}}).code(),
      ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
