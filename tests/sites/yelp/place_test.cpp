// GET /scrape/local/place without a browser: ids and aliases, country domains, the business page
// URL, and the shaping of place.js's recorded output on a document written for the test (schema.org
// JSON-LD filled with the real business object of the site's API answer in the fixtures) and on a
// real business page of 2025 served without the business JSON-LD.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yelp {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& place() {
  return place_endpoint();
}
std::string url(const QueryParams& q) {
  return place().build_request(place().validate(q)).url;
}

TEST(YelpPlaceParameters, IdsAliasesAndDomains) {
  EXPECT_EQ(rejection(place(), {}), refused(ErrorCode::MissingParameter, "placeId"));
  for (const char* bad : {"gary danko", "../admin", "/biz/", "https://www.yelp.com/biz/x"}) {
    EXPECT_EQ(rejection(place(), {{"placeId", bad}}),
              refused(ErrorCode::InvalidParameter, "placeId"))
        << bad;
  }
  EXPECT_EQ(rejection(place(), {{"placeId", "x"}, {"domain", "yelp.xyz"}}),
            refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(url({{"placeId", "gaucho-parrilla-argentina-pittsburgh"}}),
            "https://www.yelp.com/biz/gaucho-parrilla-argentina-pittsburgh");
  EXPECT_EQ(url({{"placeId", "/biz/gaucho-parrilla-argentina-pittsburgh"}, {"domain", "yelp.ca"}}),
            "https://www.yelp.ca/biz/gaucho-parrilla-argentina-pittsburgh");
  EXPECT_EQ(url({{"placeId", "u4sTiCzVeIHZY8OlaL346Q"}, {"domain", "www.yelp.de"}}),
            "https://www.yelp.de/biz/u4sTiCzVeIHZY8OlaL346Q");
  EXPECT_EQ(place().route(), "local/place");
}

TEST(YelpPlaceShape, GauchoParrillaArgentina) {
  const json b = place().shape(
      testing::recorded("yelp/data/place/gaucho-parrilla-argentina_script_output.json"),
      place().validate({{"placeId", "gaucho-parrilla-argentina-pittsburgh"}}));
  const json& p = b["place"];
  EXPECT_EQ(p["id"], "gaucho-parrilla-argentina-pittsburgh");
  EXPECT_EQ(p["name"], "Gaucho Parrilla Argentina");
  EXPECT_EQ(p["link"], "https://www.yelp.com/biz/gaucho-parrilla-argentina-pittsburgh");
  EXPECT_EQ(p["rating"], 4.5);
  EXPECT_EQ(p["reviews"], 1492);
  EXPECT_EQ(p["priceRange"], "$$");
  EXPECT_EQ(p["phone"], "+14127096622");
  EXPECT_EQ(p["address"], "1601 Penn Ave, Pittsburgh, PA, 15222, US");
  EXPECT_EQ(p["categories"], (json{"Argentine"}));
  EXPECT_DOUBLE_EQ(p["location"]["longitude"].get<double>(), -79.987573);
  EXPECT_EQ(p["photos"].size(), 1u);
  EXPECT_EQ(testing::error_of_shape(place(), json{{"business", nullptr}, {"name", ""}},
                                    place().validate({{"placeId", "x"}})),
            ErrorCode::ExtractionFailed);
}

// A real business page of 2025 served without the business JSON-LD (pages/local/): the answer
// comes from the business in the page's state, its address in the JSON-LD's terms.
TEST(YelpPlaceShape, TurmericFromThePagesState) {
  json out =
      testing::recorded("yelp/data/place/turmeric-no-business-jsonld-2025_script_output.json");
  ASSERT_TRUE(out["business"].is_null());
  const json b = place().shape(out, place().validate({{"placeId", "turmeric-university-city"}}));
  EXPECT_EQ(b["place"]["rating"], 4.2);
  EXPECT_EQ(b["place"]["reviews"], 298);
  EXPECT_EQ(b["place"]["phone"], "(314) 899-9995");
  EXPECT_EQ(b["place"]["address"], "6679 Delmar Blvd, University City, MO, 63130, US");
  // The header's categories first; the state's when the header shows none.
  out["categories"] = json::array();
  EXPECT_EQ(place().shape(out, place().validate({{"placeId", "x"}}))["place"]["categories"],
            (json{"Indian", "Comfort Food", "Bars"}));
  out["state"] = nullptr;
  const json bare = place().shape(out, place().validate({{"placeId", "x"}}));
  EXPECT_FALSE(bare["place"].contains("rating"));
  EXPECT_EQ(bare["place"]["name"], "Turmeric");  // the heading
}

}  // namespace
}  // namespace gleaner::extract::yelp
