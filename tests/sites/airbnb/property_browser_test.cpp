// GET /scrape/rentals/property end to end in real Chromium over replay archives of the real 2023
// Airbnb room page of the fixtures and of an Italian room page of 2026.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::airbnb {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

TEST(AirbnbPropertyInChromium, TheArtistLoft) {
  TempReplayArchive archive;
  archive.file(
      "https://www.airbnb.com/rooms/1944564?check_in=2030-06-01&check_out=2030-06-03",
      gleaner::testing::site_page("airbnb", "rentals-property/airbnb-room-1944564-2023.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(
      property_endpoint(), replay,
      {{"url", "https://www.airbnb.com/rooms/1944564?check_in=2030-06-01&check_out=2030-06-03"}});
  EXPECT_EQ(requested(*replay, "https://www.airbnb.com/rooms").front(),
            "https://www.airbnb.com/rooms/1944564?check_in=2030-06-01&check_out=2030-06-03");
  const auto& p = result.body["property"];
  EXPECT_EQ(p["title"], "Super Clean Artist Loft above Sculpture Studio");
  EXPECT_EQ(p["host"]["name"], "Brian");
  EXPECT_EQ(p["price"]["perNight"], "$181");
  EXPECT_EQ(p["rating"]["reviews"], 422);
}

// The server's page of an Italian room in 2026: its sections are empty shells its scripts fill,
// the listing is in its embedded StaysPdpSections answer (answered 502 before: no title section).
TEST(AirbnbPropertyInChromium, AnItalianRoomOf2026IsReadFromItsEmbeddedAnswer) {
  const std::string url = "https://www.airbnb.it/rooms/1438101512728990114";
  TempReplayArchive archive;
  archive.file(url,
               gleaner::testing::site_page(
                   "airbnb", "rentals-property/airbnb-room-1438101512728990114-it-2026-05.html"));
  const auto p =
      run_in_chromium(property_endpoint(), archive.load(), {{"url", url}}).body["property"];
  EXPECT_EQ(p["title"], "Bellissima suite con bagno privato, in villa");
  EXPECT_EQ(p["link"], url);
  EXPECT_EQ(p["roomType"], "Stanza privata in casa");
  EXPECT_EQ(p["location"]["name"], "Milano, Lombardia, Italia");
  EXPECT_EQ(p["location"]["city"], "Milano");
  EXPECT_EQ(p["host"]["name"], "Davide");
  EXPECT_EQ(p["host"]["superhost"], false);
  EXPECT_EQ(p["capacity"]["guests"], 2);
  EXPECT_EQ(p["rating"]["overall"], 4.9);
  EXPECT_EQ(p["rating"]["reviews"], 10);
  EXPECT_EQ(p["rating"]["categories"]["Check-in"], 4.8);
  EXPECT_EQ(p["rating"]["categories"]["Cleanliness"], 4.9);
  ASSERT_EQ(p["amenities"].size(), 11u);  // "Non incluso" (kitchen, washer...) left out
  EXPECT_EQ(p["amenities"][0], "TV");
  EXPECT_EQ(p["amenities"][6], "Wifi");
  EXPECT_EQ(p["photos"].size(), 17u);
  EXPECT_EQ(p["highlights"][0], "Stanza in casa");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Splendida suite con bagno privato in una villa di design nel cuore di Porta Romana"));
}

// Other rooms of the 2023 layout (March 2023, another course's copies): a private room of a
// Superhost, and a studio a company hosts with co-hosts and a city policy number.
nlohmann::json property_of(const std::string& url, const std::string& page) {
  TempReplayArchive archive;
  archive.file(url, gleaner::testing::site_page("airbnb", page));
  return run_in_chromium(property_endpoint(), archive.load(), {{"url", url}}).body["property"];
}

TEST(AirbnbPropertyInChromium, APrivateRoomOfASuperhostIn2023) {
  const auto p = property_of("https://www.airbnb.com/rooms/23672181",
                             "rentals-property/airbnb-room-23672181-private-room-2023.html");
  EXPECT_EQ(p["title"], "Private Room w/En-Suite Bath in Heart of Mission");
  EXPECT_EQ(p["roomType"], "Private room in rental unit");
  EXPECT_EQ(p["host"]["name"], "Andrea");
  EXPECT_EQ(p["host"]["superhost"], true);
  EXPECT_EQ(p["capacity"]["guests"], 2);
  EXPECT_EQ(p["capacity"]["bedrooms"], 1);
  EXPECT_EQ(p["price"]["perNight"], "$109");
  EXPECT_EQ(p["rating"]["overall"], 4.91);
  EXPECT_EQ(p["rating"]["reviews"], 198);
  EXPECT_EQ(p["rating"]["categories"]["Cleanliness"], 5.0);
  EXPECT_EQ(p["rating"]["categories"]["Value"], 4.8);
  EXPECT_EQ(p["location"]["name"], "San Francisco, California, United States");
}

TEST(AirbnbPropertyInChromium, AStudioOfACompanyHostWithSixReviewsIn2023) {
  const auto p = property_of("https://www.airbnb.com/rooms/755957132088408739",
                             "rentals-property/airbnb-room-755957132088408739-cohosted-2023.html");
  EXPECT_EQ(p["title"], "Lovely art suite with serene yard");
  EXPECT_EQ(p["roomType"], "Entire guest suite");
  EXPECT_EQ(p["host"]["name"], "HostWell");
  EXPECT_EQ(p["host"]["superhost"], false);
  EXPECT_EQ(p["policyNumber"], "STR-0000315");
  EXPECT_EQ(p["capacity"]["guests"], 2);
  EXPECT_EQ(p["price"]["perNight"], "$125");
  EXPECT_EQ(p["rating"]["overall"], 5.0);
  EXPECT_EQ(p["rating"]["reviews"], 6);
  EXPECT_EQ(p["rating"]["categories"]["Value"], 4.8);
}

TEST(AirbnbPropertyInChromium, AListingTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;
  EXPECT_EQ(error_in_chromium(property_endpoint(), archive.load(),
                              {{"url", "https://www.airbnb.com/rooms/1"}})
                .code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::airbnb
