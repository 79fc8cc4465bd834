// GET /scrape/indeed/listing without a browser: its parameters (the hosted service's 62 Indeed
// domains), the results page's URL, and the shaping of listing.js's recorded output.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::indeed {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& listing() {
  return listing_endpoint();
}
std::string url_of(const QueryParams& q) {
  return listing().build_request(listing().validate(q)).url;
}

TEST(IndeedListingParameters, KeywordLocationSortStartDomain) {
  EXPECT_EQ(rejection(listing(), {{"location", "x"}}),
            refused(ErrorCode::MissingParameter, "keyword"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}}),
            refused(ErrorCode::MissingParameter, "location"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}, {"location", "y"}, {"start", "15"}}),
            refused(ErrorCode::InvalidParameter, "start"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}, {"location", "y"}, {"domain", "indeed.com"}}),
            refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(url_of({{"keyword", "nurse"}, {"location", "Austin, TX"}}),
            "https://www.indeed.com/jobs?q=nurse&l=Austin%2C+TX");
  EXPECT_EQ(url_of({{"keyword", "nurse"},
                    {"location", "Leeds"},
                    {"sort", "date"},
                    {"start", "20"},
                    {"domain", "uk.indeed.com"}}),
            "https://uk.indeed.com/jobs?q=nurse&l=Leeds&sort=date&start=20");
  EXPECT_TRUE(url_of({{"keyword", "x"}, {"location", "y"}, {"domain", "malaysia.indeed.com"}})
                  .starts_with("https://malaysia.indeed.com/jobs?"));
}

TEST(IndeedListingShape, TheRecordedPortlandPage) {
  const json out =
      testing::recorded("indeed/data/listing/data-analyst-portland_script_output.json");
  const auto params =
      listing().validate({{"keyword", "Data Analyst"}, {"location", "Portland, OR"}});
  const json body = listing().shape(out, params);
  EXPECT_EQ(body["jobs"].size(), 15u);
  EXPECT_EQ(body["searchInformation"]["keyword"], "Data Analyst");
  EXPECT_TRUE(listing().has_content(body));
  json none = out;
  none["results"] = nullptr;
  EXPECT_EQ(testing::error_of_shape(listing(), none, params), ErrorCode::ExtractionFailed);
  json empty = out;
  empty["results"] = json::array();
  EXPECT_FALSE(listing().has_content(listing().shape(empty, params)));
}

}  // namespace
}  // namespace gleaner::extract::indeed
