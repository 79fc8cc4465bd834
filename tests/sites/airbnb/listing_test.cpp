// GET /scrape/rentals/listing without a browser: location or map box, dates, guests, the search
// URL, the service's page tokens, and the shaping of listing.js's recorded output on the real 2022
// Mission District search page of the fixtures (20 listings from its embedded StaysSearch answer).
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/sites/common/text.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::airbnb {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& listing() {
  return listing_endpoint();
}
const QueryParams kMission = {
    {"location", "Mission District, San Francisco, California, United States"},
    {"checkIn", "2030-01-22"},
    {"checkOut", "2030-01-27"},
    {"adults", "2"}};
const QueryParams kBox = {{"checkIn", "2030-01-22"},
                          {"neLat", "37.77"},
                          {"neLng", "-122.40"},
                          {"swLat", "37.75"},
                          {"swLng", "-122.43"}};

json mission() {
  return testing::recorded("airbnb/data/listing/mission-district_script_output.json");
}
std::string url(const QueryParams& q) {
  return listing().build_request(listing().validate(q)).url;
}

TEST(AirbnbListingParameters, LocationOrTheWholeBox) {
  EXPECT_EQ(rejection(listing(), {{"checkIn", "2030-01-22"}}),
            refused(ErrorCode::MissingParameter, "location"));
  EXPECT_EQ(rejection(listing(), {{"location", "x"}}),
            refused(ErrorCode::MissingParameter, "checkIn"));
  EXPECT_EQ(rejection(listing(), kBox), refused(ErrorCode::Internal, "accepted"));
  QueryParams three = kBox;
  three.erase("swLng");
  EXPECT_EQ(rejection(listing(), three), refused(ErrorCode::MissingParameter, "swLng"));
  QueryParams south = kBox;
  south.erase("neLat");
  south.emplace("neLat", "37.70");
  EXPECT_EQ(rejection(listing(), south), refused(ErrorCode::InvalidParameter, "neLat"));
  QueryParams west = kBox;
  west.erase("neLng");
  west.emplace("neLng", "-122.50");
  EXPECT_EQ(rejection(listing(), west), refused(ErrorCode::InvalidParameter, "neLng"));
  QueryParams far = kBox;
  far.erase("neLat");
  far.emplace("neLat", "91");
  EXPECT_EQ(rejection(listing(), far), refused(ErrorCode::InvalidParameter, "neLat"));
  QueryParams before = kMission;
  before.erase("checkOut");
  before.emplace("checkOut", "2030-01-22");
  EXPECT_EQ(rejection(listing(), before), refused(ErrorCode::InvalidParameter, "checkOut"));
  QueryParams guests = kMission;
  guests.emplace("pets", "-1");
  EXPECT_EQ(rejection(listing(), guests), refused(ErrorCode::InvalidParameter, "pets"));
  QueryParams token = kMission;
  token.emplace("nextPageToken", "%%%");
  EXPECT_EQ(rejection(listing(), token), refused(ErrorCode::InvalidParameter, "nextPageToken"));
}

TEST(AirbnbListingUrl, TheSearchAPersonMakes) {
  EXPECT_EQ(
      url(kMission),
      "https://www.airbnb.com/s/Mission-District--San-Francisco--California--United-States/homes"
      "?query=Mission+District%2C+San+Francisco%2C+California%2C+United+States&checkin=2030-01-22"
      "&checkout=2030-01-27&adults=2");
  EXPECT_EQ(url(kBox),
            "https://www.airbnb.com/s/homes?checkin=2030-01-22&ne_lat=37.77&ne_lng=-122.4"
            "&sw_lat=37.75&sw_lng=-122.43&search_by_map=true");
  EXPECT_EQ(listing().route(), "rentals/listing");
}

TEST(AirbnbListingShape, MissionDistrictListings) {
  const json b = listing().shape(mission(), listing().validate(kMission));
  ASSERT_EQ(b["listings"].size(), 20u);
  const json& loft = b["listings"][0];
  EXPECT_EQ(loft["position"], 1);
  EXPECT_EQ(loft["id"], "1944564");
  EXPECT_EQ(loft["link"], "https://www.airbnb.com/rooms/1944564");
  EXPECT_EQ(loft["name"], "Super Clean Artist Loft above Sculpture Studio");
  EXPECT_EQ(loft["title"], "Loft in Mission District");
  EXPECT_EQ(loft["roomType"], "entire_home");
  EXPECT_EQ(loft["rating"], 4.97);
  EXPECT_EQ(loft["reviews"], 380);
  EXPECT_EQ(loft["location"], (json{{"latitude", 37.76223}, {"longitude", -122.41143}}));
  EXPECT_EQ(loft["price"],
            (json{{"perNight", "$210"}, {"extractedPerNight", 210}, {"currency", "USD"}}));
  EXPECT_EQ(loft["badges"], (json{"Superhost"}));
  EXPECT_EQ(loft["photos"].size(), 6u);
  ASSERT_TRUE(b["pagination"].contains("nextPageToken"));
}

TEST(AirbnbListingShape, TheTokenContinuesTheSearchAlone) {
  const std::string token =
      listing().shape(mission(), listing().validate(kMission))["pagination"]["nextPageToken"];
  EXPECT_EQ(
      url({{"nextPageToken", token}}),
      "https://www.airbnb.com/s/Mission-District--San-Francisco--California--United-States/homes"
      "?query=Mission+District%2C+San+Francisco%2C+California%2C+United+States&checkin=2030-01-22"
      "&checkout=2030-01-27&adults=2&items_offset=20&section_offset=2");
  EXPECT_EQ(rejection(listing(), {{"nextPageToken", token}, {"adults", "3"}}),
            refused(ErrorCode::ConflictingParameters, "adults"));
  const json page2 = listing().shape(mission(), listing().validate({{"nextPageToken", token}}));
  EXPECT_EQ(page2["listings"][0]["position"], 21);
  const auto next = base64url_decode(page2["pagination"]["nextPageToken"].get<std::string>());
  EXPECT_EQ(json::parse(*next)["o"], 40);
}

// The 2023 page keeps its listings in sectionIndependentData.staysSearch, gives the rating only
// as the card shows it ("4.98 (422)") and pages by cursors (base64 JSON offsets).
TEST(AirbnbListingShape, MissionDistrict2023Listings) {
  const QueryParams q = {{"location", "Mission District, San Francisco, CA"},
                         {"checkIn", "2030-06-30"},
                         {"checkOut", "2030-07-05"}};
  const json b = listing().shape(
      testing::recorded("airbnb/data/listing/mission-district-2023_script_output.json"),
      listing().validate(q));
  ASSERT_EQ(b["listings"].size(), 18u);
  const json& loft = b["listings"][0];
  EXPECT_EQ(loft["id"], "1944564");
  EXPECT_EQ(loft["name"], "Super Clean Artist Loft above Sculpture Studio");
  EXPECT_EQ(loft["title"], "Loft in Mission District");
  EXPECT_EQ(loft["rating"], 4.98);
  EXPECT_EQ(loft["reviews"], 422);
  EXPECT_EQ(loft["price"],
            (json{{"perNight", "$210"}, {"extractedPerNight", 210}, {"currency", "USD"}}));
  EXPECT_TRUE(loft.contains("location")) << loft.dump();
  const auto next = base64url_decode(b["pagination"]["nextPageToken"].get<std::string>());
  ASSERT_TRUE(next);
  EXPECT_EQ(json::parse(*next)["o"], 18);
  EXPECT_EQ(json::parse(*next)["so"], 3);
}

TEST(AirbnbListingShape, NothingReadableIsExtractionFailed) {
  EXPECT_EQ(
      testing::error_of_shape(
          listing(), json{{"hasState", false}, {"items", json::array()}, {"marked", json::array()}},
          listing().validate(kMission)),
      ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::airbnb
