// GET /scrape/stays/place without a browser: every stay rule of api.md (dates against the site
// clock, occupancy, children's ages, currency, language), the property page URL built for them,
// and the shaping of place.js's recorded output on the real Booking pages of the fixtures: The Taj
// Mahal Palace (2026, rated), the Iritty villa (2026, no reviews) and the Kotor excerpt.
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/sites/common/clock.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::booking {
namespace {

using nlohmann::json;
using namespace std::chrono;
using testing::refused;
using testing::rejection;

const Endpoint& place() {
  return place_endpoint();
}
json recorded(const std::string& name) {
  return testing::recorded("booking/data/place/" + name + "_script_output.json");
}

const QueryParams kTaj = {
    {"url", "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html"},
    {"checkInDate", "2026-12-01"},
    {"checkOutDate", "2026-12-03"},
    {"rooms", "1"},
    {"adults", "2"},
    {"children", "0"}};

class BookingPlace : public ::testing::Test {
 protected:
  FakeClock clock_{sys_days(2026y / November / 24) + 10h};
  ScopedSiteClock scoped_{clock_};

  QueryParams with(QueryParams q, const std::string& k, const std::string& v) {
    q.erase(k);
    if (!v.empty()) q.emplace(k, v);
    return q;
  }
};

TEST_F(BookingPlace, UrlOnlyOnTheSitesBareAndWwwHosts) {
  EXPECT_EQ(rejection(place(), kTaj), refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(rejection(place(),
                      with(kTaj, "url",
                           "https://booking.com/hotel/in/the-taj-mahal-palace-mumbai.en-gb.html")),
            refused(ErrorCode::Internal, "accepted"));
  for (const char* bad :
       {"https://secure.booking.com/hotel/in/x.html", "http://www.booking.com/hotel/in/x.html",
        "https://www.booking.com/searchresults.html?ss=x",
        "https://www.booking.com.evil.test/hotel/in/x.html",
        "https://www.agoda.com/hotel/in/x.html"}) {
    EXPECT_EQ(rejection(place(), with(kTaj, "url", bad)),
              refused(ErrorCode::InvalidParameter, "url"))
        << bad;
  }
  EXPECT_EQ(rejection(place(), with(kTaj, "url", "")), refused(ErrorCode::MissingParameter, "url"));
}

TEST_F(BookingPlace, DatesInTheFutureAndInOrder) {
  EXPECT_EQ(rejection(place(), with(kTaj, "checkInDate", "2026-11-24")),
            refused(ErrorCode::InvalidParameter, "checkInDate"));  // today is not the future
  EXPECT_EQ(rejection(place(), with(kTaj, "checkInDate", "2026-12-03")),
            refused(ErrorCode::InvalidParameter, "checkOutDate"));
  EXPECT_EQ(rejection(place(), with(kTaj, "checkOutDate", "2026-11-30")),
            refused(ErrorCode::InvalidParameter, "checkOutDate"));
  EXPECT_EQ(rejection(place(), with(kTaj, "checkInDate", "2026-13-01")),
            refused(ErrorCode::InvalidParameter, "checkInDate"));
  EXPECT_EQ(rejection(place(), with(kTaj, "checkOutDate", "")),
            refused(ErrorCode::MissingParameter, "checkOutDate"));
  clock_.set(sys_days(2026y / December / 2));
  EXPECT_EQ(rejection(place(), kTaj), refused(ErrorCode::InvalidParameter, "checkInDate"));
}

TEST_F(BookingPlace, OccupancyChildrenAndTheirAges) {
  EXPECT_EQ(rejection(place(), with(kTaj, "rooms", "0")),
            refused(ErrorCode::InvalidParameter, "rooms"));
  EXPECT_EQ(rejection(place(), with(kTaj, "adults", "0")),
            refused(ErrorCode::InvalidParameter, "adults"));
  EXPECT_EQ(rejection(place(), with(kTaj, "adults", "")),
            refused(ErrorCode::MissingParameter, "adults"));
  EXPECT_EQ(rejection(place(), with(kTaj, "children", "11")),
            refused(ErrorCode::InvalidParameter, "children"));
  EXPECT_EQ(rejection(place(), with(kTaj, "children", "")),
            refused(ErrorCode::MissingParameter, "children"));
  const QueryParams two = with(kTaj, "children", "2");
  EXPECT_EQ(rejection(place(), two), refused(ErrorCode::MissingParameter, "childrenAges"));
  EXPECT_EQ(rejection(place(), with(two, "childrenAges", "4")),
            refused(ErrorCode::InvalidParameter, "childrenAges"));
  EXPECT_EQ(rejection(place(), with(two, "childrenAges", "4,18")),
            refused(ErrorCode::InvalidParameter, "childrenAges"));
  EXPECT_EQ(rejection(place(), with(two, "childrenAges", "4,x")),
            refused(ErrorCode::InvalidParameter, "childrenAges"));
  EXPECT_EQ(rejection(place(), with(two, "childrenAges", "0, 17")),
            refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(rejection(place(), with(kTaj, "childrenAges", "5")),
            refused(ErrorCode::InvalidParameter, "childrenAges"));
  EXPECT_EQ(rejection(place(), with(kTaj, "currency", "euro")),
            refused(ErrorCode::InvalidParameter, "currency"));
  EXPECT_EQ(rejection(place(), with(kTaj, "currency", "hotelCurrency")),
            refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(rejection(place(), with(kTaj, "language", "english")),
            refused(ErrorCode::InvalidParameter, "language"));
}

TEST_F(BookingPlace, ThePropertyPageAPersonOpens) {
  auto url = [&](const QueryParams& q) { return place().build_request(place().validate(q)).url; };
  EXPECT_EQ(url(kTaj),
            "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html?checkin=2026-12-01"
            "&checkout=2026-12-03&group_adults=2&group_children=0&no_rooms=1");
  QueryParams family = with(
      with(with(with(kTaj, "children", "2"), "childrenAges", "4,9"), "currency", "hotelCurrency"),
      "language", "en-GB");
  family = with(family, "url", "https://booking.com/hotel/in/the-taj-mahal-palace-mumbai.fr.html");
  EXPECT_EQ(url(family),
            "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html?checkin=2026-12-01"
            "&checkout=2026-12-03&group_adults=2&group_children=2&age=4&age=9&no_rooms=1"
            "&selected_currency=hotel_currency&lang=en-gb");
  EXPECT_EQ(url(with(kTaj, "currency", "EUR")).ends_with("&selected_currency=EUR"), true);
  EXPECT_EQ(place().route(), "stays/place");
}

TEST_F(BookingPlace, TheTajMahalPalaceAsAPersonReadsIt) {
  const json b = place().shape(recorded("taj-mahal-palace"), place().validate(kTaj));
  const json& p = b["property"];
  EXPECT_EQ(p["id"], "2451595");
  EXPECT_EQ(p["name"], "The Taj Mahal Palace, Mumbai");
  EXPECT_EQ(p["link"], "https://www.booking.com/hotel/in/the-taj-mahal-palace-mumbai.html");
  EXPECT_EQ(p["type"], "Hotel");
  EXPECT_EQ(p["stars"], 5);
  EXPECT_EQ(p["address"], "Apollo Bunder Road The Taj Mahal Palace, Colaba, 400001 Mumbai, India");
  EXPECT_DOUBLE_EQ(p["location"]["latitude"].get<double>(), 18.9216373548013);
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("Built in 1903"));
  EXPECT_EQ(p["photos"].size(), 8u);
  // The visible count (2,469), not the JSON-LD's 2,473.
  EXPECT_EQ(p["rating"]["score"], 9.2);
  EXPECT_EQ(p["rating"]["reviews"], 2469);
  EXPECT_EQ(p["rating"]["label"], "Wonderful");
  EXPECT_EQ(p["rating"]["categories"]["Staff"], 9.5);
  EXPECT_EQ(p["rating"]["categories"]["Location"], 9.6);
  EXPECT_EQ(p["locationScore"]["score"], 9.6);
  EXPECT_EQ(p["popularFacilities"][0], "Outdoor swimming pool");
  EXPECT_EQ(p["popularFacilities"][2], "Airport shuttle");
  EXPECT_EQ(p["popularFacilities"][6], "10 restaurants");
  EXPECT_EQ(p["houseRules"]["checkIn"].get<std::string>().substr(0, 14), "From 2:00 PM G");
  EXPECT_EQ(p["houseRules"]["checkOut"], "Until 12:00 PM");
  EXPECT_EQ(b["stay"], (json{{"checkInDate", "2026-12-01"},
                             {"checkOutDate", "2026-12-03"},
                             {"nights", 2},
                             {"rooms", 1},
                             {"adults", 2},
                             {"children", 0}}));
  // Without dates in the page, the room types without prices.
  ASSERT_GE(b["rooms"].size(), 3u);
  EXPECT_EQ(b["rooms"][0]["name"], "Luxury Grande Room City View");
  EXPECT_EQ(b["rooms"][0]["roomId"], "245159501");
  EXPECT_EQ(b["rooms"][0]["beds"], (json{"1 king bed"}));
  EXPECT_EQ(b["rooms"][0]["options"], json::array());
  EXPECT_TRUE(place().has_content(b));
}

TEST_F(BookingPlace, AVillaWithoutReviewsHasNoRating) {
  const json b = place().shape(recorded("villa-homestay-iritty"), place().validate(kTaj));
  const json& p = b["property"];
  EXPECT_EQ(p["id"], "13399751");
  EXPECT_EQ(p["name"], "Entire Villa Homestay Rooms IRITTY");
  EXPECT_EQ(p["address"], "Aralam-Palappuzha Road, 670673 Irrity, India");
  EXPECT_FALSE(p.contains("rating"));
  EXPECT_FALSE(p.contains("stars"));
  EXPECT_EQ(p["popularFacilities"],
            (json{"Non-smoking rooms", "Free Wifi", "Free parking", "Family rooms"}));
  EXPECT_NE(p["description"].get<std::string>().find("31 mi from Kannur Railway Station"),
            std::string::npos);
}

TEST_F(BookingPlace, TheKotorExcerpt) {
  const json b = place().shape(recorded("tetka-guest-house"), place().validate(kTaj));
  const json& p = b["property"];
  EXPECT_EQ(p["name"], "Tetka Guest House");
  EXPECT_EQ(p["address"], "436 Square of the Arms, Kotor Old Town, 85330 Kotor, Montenegro");
  EXPECT_EQ(p["locationScore"], (json{{"score", 9.3}, {"reviews", 227}}));
  EXPECT_EQ(p["houseRules"]["checkIn"], "From 14:00 to 22:00");
  EXPECT_EQ(p["houseRules"]["checkOut"], "From 00:00 to 10:00");
  EXPECT_EQ(p["houseRules"]["Cash only"], "This property only accepts cash payments.");
  EXPECT_EQ(p["photos"].size(), 4u);
  EXPECT_EQ(p["popularFacilities"].size(), 6u);
}

TEST_F(BookingPlace, ARedirectAwayFromThePropertyIsNotFound) {
  json out = recorded("villa-homestay-iritty");
  out["url"] = "https://www.booking.com/index.html?aid=1";
  EXPECT_EQ(testing::error_of_shape(place(), out, place().validate(kTaj)), ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::booking
