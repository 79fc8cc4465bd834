// GET /scrape/rentals/property without a browser: listing URLs, the room page built for them
// (with the stay the URL carries), and the shaping of property.js's recorded output on the four
// real Airbnb room pages of the fixtures (the artist loft in 2023 and 2022, a "Plus" room, and a
// suite without reviews).
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::airbnb {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& property() {
  return property_endpoint();
}
json shaped(const std::string& name, const std::string& url) {
  return property().shape(testing::recorded("airbnb/data/property/" + name + "_script_output.json"),
                          property().validate({{"url", url}}))["property"];
}

TEST(AirbnbPropertyParameters, ListingUrls) {
  EXPECT_EQ(rejection(property(), {}), refused(ErrorCode::MissingParameter, "url"));
  for (const char* bad :
       {"https://www.airbnb.com/s/San-Francisco/homes", "http://www.airbnb.com/rooms/1944564",
        "https://www.airbnb.com/rooms/12345678901234567890",
        "https://www.airbnb.com.evil.test/rooms/1", "https://www.airbnb.com/rooms/abc"}) {
    EXPECT_EQ(rejection(property(), {{"url", bad}}), refused(ErrorCode::InvalidParameter, "url"))
        << bad;
  }
  auto url = [&](const std::string& u) {
    return property().build_request(property().validate({{"url", u}})).url;
  };
  EXPECT_EQ(url("https://www.airbnb.com/rooms/724897778179485553"),
            "https://www.airbnb.com/rooms/724897778179485553");
  EXPECT_EQ(url("https://airbnb.co.uk/rooms/plus/16204265/"),
            "https://www.airbnb.co.uk/rooms/plus/16204265");
  EXPECT_EQ(
      url("https://www.airbnb.com/rooms/"
          "1944564?source_impression_id=p3&check_in=2030-06-01&check_out=2030-06-03&adults=2"),
      "https://www.airbnb.com/rooms/1944564?check_in=2030-06-01&check_out=2030-06-03&adults=2");
  EXPECT_EQ(property().route(), "rentals/property");
}

TEST(AirbnbPropertyShape, TheArtistLoftIn2023) {
  const json p = shaped("artist-loft-2023", "https://www.airbnb.com/rooms/1944564");
  EXPECT_EQ(p["id"], "1944564");
  EXPECT_EQ(p["link"], "https://www.airbnb.com/rooms/1944564");
  EXPECT_EQ(p["title"], "Super Clean Artist Loft above Sculpture Studio");
  EXPECT_EQ(p["roomType"], "Entire loft");
  EXPECT_EQ(p["host"], (json{{"name", "Brian"}, {"superhost", true}, {"since", "2011-07"}}));
  EXPECT_EQ(p["capacity"], (json{{"guests", 2}, {"bedrooms", 1}, {"beds", 1}, {"baths", 1.5}}));
  EXPECT_EQ(p["price"],
            (json{{"perNight", "$181"}, {"extractedPerNight", 181}, {"currency", "USD"}}));
  EXPECT_EQ(p["rating"]["overall"], 4.98);
  EXPECT_EQ(p["rating"]["reviews"], 422);
  EXPECT_EQ(p["rating"]["categories"]["Location"], 4.9);
  EXPECT_EQ(p["location"]["city"], "San Francisco");
  EXPECT_EQ(p["policyNumber"], "2022-004088STR");
  EXPECT_EQ(p["amenities"][0], "Free street parking");
  EXPECT_EQ(p["highlights"][0], "Dedicated workspace");
  EXPECT_EQ(p["photos"].size(), 5u);
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("This CLEAN creative, comfortable"));
}

TEST(AirbnbPropertyShape, TheSameLoftIn2022AtItsThenPrice) {
  const json p = shaped("artist-loft-2022", "https://www.airbnb.com/rooms/1944564");
  EXPECT_EQ(p["price"]["perNight"], "$151");
  EXPECT_EQ(p["rating"]["overall"], 4.97);
  EXPECT_EQ(p["host"]["name"], "Brian");
}

TEST(AirbnbPropertyShape, APlusRoom) {
  const json p = shaped("valencia-street", "https://www.airbnb.com/rooms/plus/16204265");
  EXPECT_EQ(p["id"], "16204265");
  EXPECT_EQ(p["title"], "Explore Valencia Street from a Clean Room in a Serene Condo");
  EXPECT_EQ(p["roomType"], "Private room in condo");
  EXPECT_EQ(p["host"]["name"], "Koncha");
  EXPECT_EQ(p["price"]["extractedPerNight"], 142);
  EXPECT_EQ(p["rating"], (json{{"overall", 4.97}, {"reviews", 493}}));
}

TEST(AirbnbPropertyShape, AListingWithoutReviewsHasNoRating) {
  const json p = shaped("castro-suite", "https://www.airbnb.com/rooms/724897778179485553");
  EXPECT_EQ(p["id"], "724897778179485553");
  EXPECT_EQ(p["title"], "1 bedroom suite hosting up to 3 near Castro");
  EXPECT_FALSE(p.contains("rating"));
  EXPECT_EQ(p["reviews"], 0);
  EXPECT_EQ(p["host"], (json{{"name", "Kristie"}, {"superhost", false}, {"since", "2022-09"}}));
  EXPECT_EQ(p["price"]["perNight"], "$98");
  EXPECT_EQ(p["capacity"]["beds"], 2);
}

TEST(AirbnbPropertyShape, ARedirectAwayFromTheRoomIsNotFound) {
  EXPECT_EQ(
      testing::error_of_shape(property(), json{{"url", "https://www.airbnb.com/?removed=1"}},
                              property().validate({{"url", "https://www.airbnb.com/rooms/1"}})),
      ErrorCode::NotFound);
  EXPECT_EQ(
      testing::error_of_shape(property(), json{{"url", "https://www.airbnb.com/rooms/1"}},
                              property().validate({{"url", "https://www.airbnb.com/rooms/1"}})),
      ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::airbnb
