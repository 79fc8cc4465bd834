// GET /scrape/bizdir/place without a browser: business URLs and the shaping of place.js's recorded
// output on a document written for the test that carries a real LocalBusiness object of
// yellowpages.com, unchanged (no business page of the site is among the fixtures), plus the markup
// parts (years, payment methods, e-mail) in the shape place.js returns them.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yellowpages {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& place() {
  return place_endpoint();
}
const std::string kZy = "https://www.yellowpages.com/san-francisco-ca/mip/z-y-restaurant-4970454";

TEST(YellowPagesPlaceParameters, BusinessPagesOnly) {
  EXPECT_EQ(rejection(place(), {}), refused(ErrorCode::MissingParameter, "url"));
  for (const char* bad :
       {"https://www.yellowpages.com/search?search_terms=x",
        "http://www.yellowpages.com/sf/mip/x-1", "https://www.yellowpages.com.evil.test/sf/mip/x-1",
        "https://www.yelp.com/sf/mip/x-1"}) {
    EXPECT_EQ(rejection(place(), {{"url", bad}}), refused(ErrorCode::InvalidParameter, "url"))
        << bad;
  }
  EXPECT_EQ(
      place()
          .build_request(place().validate(
              {{"url",
                "https://yellowpages.com/san-francisco-ca/mip/z-y-restaurant-4970454?lid=1"}}))
          .url,
      kZy);
  EXPECT_EQ(place().route(), "bizdir/place");
}

TEST(YellowPagesPlaceShape, ZyRestaurant) {
  json out = testing::recorded("yellowpages/data/place/z-y-restaurant_script_output.json");
  json p = place().shape(out, place().validate({{"url", kZy}}))["place"];
  EXPECT_EQ(p["name"], "Z &Y Restaurant");
  EXPECT_EQ(p["link"], kZy);
  EXPECT_EQ(p["phone"], "(415) 981-8988");
  EXPECT_EQ(p["address"]["street"], "655 Jackson St");
  EXPECT_EQ(p["rating"], 4.5);
  EXPECT_EQ(p["openingHours"].size(), 7u);
  EXPECT_EQ(p["openingHours"][6], (json{{"day", "Sunday"}, {"hours", "11:00-21:30"}}));
  // What the business page's markup adds (written here in the shape place.js returns it).
  out["years"] = "20 Years in Business";
  out["payment"] = "amex, discover, master card, visa";
  out["email"] = "info@example.test";
  p = place().shape(out, place().validate({{"url", kZy}}))["place"];
  EXPECT_EQ(p["yearsInBusiness"], 20);
  EXPECT_EQ(p["paymentMethods"], (json{"amex", "discover", "master card", "visa"}));
  EXPECT_EQ(p["email"], "info@example.test");
}

TEST(YellowPagesPlaceShape, APageWithoutTheBusinessIsExtractionFailed) {
  EXPECT_EQ(testing::error_of_shape(place(), json{{"business", nullptr}},
                                    place().validate({{"url", kZy}})),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::yellowpages
