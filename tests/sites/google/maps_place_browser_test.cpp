// GET /scrape/google-maps/place end to end in real Chromium: the endpoint opens the place by its
// id as the Maps URLs take it, the real rendered place page of Griffith Observatory
// (tests/sites/google/pages/maps, 2026) is answered from a replay archive, maps_place.js (the
// scraper jobs' reader of a place's details) reads it and the C++ shapes it.
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

constexpr const char* kObservatory = "ChIJywjU6WG_woAR3NrWwrEH_3M";
constexpr const char* kObservatoryUrl =
    "https://www.google.com/maps/place/?q=place_id:ChIJywjU6WG_woAR3NrWwrEH_3M";

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
