// GET /scrape/stays/place end to end in real Chromium: the endpoint builds the property page's URL
// with the stay, the page is answered from a replay archive with the real 2026 Booking pages of
// the fixtures (saved without dates, so without the priced room table) and the site's own page
// for a property it does not have, place.js reads them and the C++ shapes them.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::booking {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(BookingPlaceInChromium, TheTajMahalPalace) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html",
      gleaner::testing::site_page(
          "booking", "stays-place/booking-hotel-taj-mahal-palace-mumbai-dom-2026-02.html")));
  auto replay = archive.load();
  auto result =
      run_in_chromium(place_endpoint(), replay,
                      {{"url", "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html"},
                       {"checkInDate", "2030-06-01"},
                       {"checkOutDate", "2030-06-04"},
                       {"rooms", "1"},
                       {"adults", "2"},
                       {"children", "1"},
                       {"childrenAges", "7"},
                       {"currency", "INR"}});
  EXPECT_EQ(requested(*replay, "https://www.booking.com/hotel").front(),
            "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html?checkin=2030-06-01"
            "&checkout=2030-06-04&group_adults=2&group_children=1&age=7&no_rooms=1"
            "&selected_currency=INR");
  const auto& p = result.body["property"];
  EXPECT_EQ(p["name"], "The Taj Mahal Palace, Mumbai");
  EXPECT_EQ(p["rating"]["score"], 9.2);
  EXPECT_EQ(p["rating"]["reviews"], 2469);
  EXPECT_EQ(p["rating"]["categories"]["Staff"], 9.5);
  EXPECT_EQ(p["address"], "Apollo Bunder Road The Taj Mahal Palace, Colaba, 400001 Mumbai, India");
  EXPECT_EQ(result.body["stay"]["nights"], 3);
  EXPECT_EQ(result.body["stay"]["childrenAges"], (nlohmann::json{7}));
}

// FabHotel Prakash Inn (a rendered page of 2026, without dates): no stars, a "Good" 7.2 from
// 1,491 reviews, and its most popular amenities twice in the page (two layouts of the block):
// each is listed once.
TEST(BookingPlaceInChromium, FabHotelPrakashInn2026) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.booking.com/hotel/in/fabexpress-bright-inn.html",
      gleaner::testing::site_page(
          "booking", "stays-place/booking-hotel-fabhotel-prakash-inn-mumbai-dom-2026-02.html")));
  const auto b =
      run_in_chromium(place_endpoint(), archive.load(),
                      {{"url", "https://www.booking.com/hotel/in/fabexpress-bright-inn.html"},
                       {"checkInDate", "2030-06-01"},
                       {"checkOutDate", "2030-06-03"},
                       {"rooms", "1"},
                       {"adults", "2"},
                       {"children", "0"}})
          .body;
  const auto& p = b["property"];
  EXPECT_EQ(p["name"], "FabHotel Prakash Inn - Nr Mumbai International Airport");
  EXPECT_EQ(p["id"], "10979326");
  EXPECT_EQ(p["address"],
            "Samhita International Complex, T2 Terminal Airport Link Road, Behind Sakinaka "
            "Telephone Exchange, Sakinaka Andheri East, 400072 Mumbai, India");
  EXPECT_FALSE(p.contains("stars"));
  EXPECT_EQ(p["rating"]["score"], 7.2);
  EXPECT_EQ(p["rating"]["label"], "Good");
  EXPECT_EQ(p["rating"]["reviews"], 1491);
  EXPECT_EQ(p["rating"]["categories"]["Staff"], 8.6);
  EXPECT_EQ(p["rating"]["categories"]["Free Wifi"], 9.2);
  EXPECT_EQ(p["popularFacilities"],
            (nlohmann::json{"Free Wifi", "Family rooms", "Non-smoking rooms", "Room service",
                            "24-hour front desk", "Elevator", "Air conditioning", "Laundry",
                            "Daily housekeeping", "Wonderful Breakfast"}));
  EXPECT_EQ(p["houseRules"]["checkIn"], "From 12:00 PM");
  EXPECT_EQ(p["houseRules"]["Pets"], "Pets are not allowed.");
  ASSERT_EQ(b["rooms"].size(), 1u);
  EXPECT_EQ(b["rooms"][0]["name"], "Deluxe Room");
  EXPECT_EQ(b["rooms"][0]["beds"], (nlohmann::json{"1 full bed"}));
  EXPECT_EQ(b["rooms"][0]["maxOccupancy"], 2);
}

// One adult for one night at the property page `url`.
QueryParams one_night_at(const std::string& url) {
  return {{"url", url},   {"checkInDate", "2030-06-01"}, {"checkOutDate", "2030-06-02"},
          {"rooms", "1"}, {"adults", "1"},               {"children", "0"}};
}

// The site's own page for a property it does not have (2026-02, Hindi, /hotel/in/
// taj-mahal-palace.hi.html: "b_action": 'error404', the home page's blocks, no property): 404 as
// the site sends it, and 404 still when it comes with a 200.
TEST(BookingPlaceInChromium, TheSitesOwnPageOfAPropertyItDoesNotHaveIsNotFound) {
  const std::string url = "https://www.booking.com/hotel/in/taj-mahal-palace.hi.html";
  for (int status : {404, 200}) {
    TempReplayArchive archive;
    // The endpoint asks for the page without the language (its `lang` parameter sets it).
    auto entry =
        prefix_entry("https://www.booking.com/hotel/in/taj-mahal-palace.html?",
                     gleaner::testing::site_page(
                         "booking", "stays-place/booking-hotel-not-found-hi-2026-02.html"));
    entry.status = status;
    archive.add(entry);
    auto replay = archive.load();
    EXPECT_EQ(error_in_chromium(place_endpoint(), replay, one_night_at(url)).code(),
              ErrorCode::NotFound)
        << status;
    EXPECT_EQ(requested(*replay, "https://www.booking.com/hotel").size(), 1u);
  }
}

TEST(BookingPlaceInChromium, APropertyTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;  // the archive's 404
  EXPECT_EQ(error_in_chromium(place_endpoint(), archive.load(),
                              one_night_at("https://www.booking.com/hotel/in/no-such-hotel.html"))
                .code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::booking
