// GET /scrape/bizdir/search without a browser: parameters, the search URL of each directory, and
// the shaping of search.js's recorded output on the Australian directory's whole search page
// ("35 BEST Plumber in Cairns Region", 97 results) and on a document written for the test that
// carries five real LocalBusiness objects of yellowpages.com search pages, unchanged.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yellowpages {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& search() {
  return search_endpoint();
}
const QueryParams kUs = {{"keyword", "restaurants"}, {"location", "San Francisco, CA"}};
const QueryParams kAu = {
    {"keyword", "plumber"}, {"location", "cairns, QLD"}, {"domain", "yellowpages.com.au"}};
std::string url(QueryParams q) {
  return search().build_request(search().validate(q)).url;
}
QueryParams with(QueryParams q, const std::string& k, const std::string& v) {
  q.emplace(k, v);
  return q;
}

TEST(YellowPagesSearchParameters, EveryRule) {
  EXPECT_EQ(rejection(search(), {{"location", "x"}}),
            refused(ErrorCode::MissingParameter, "keyword"));
  EXPECT_EQ(rejection(search(), {{"keyword", "x"}}),
            refused(ErrorCode::MissingParameter, "location"));
  EXPECT_EQ(rejection(search(), with(kUs, "sort", "cheapest")),
            refused(ErrorCode::InvalidParameter, "sort"));
  EXPECT_EQ(rejection(search(), with(kUs, "domain", "yellowpages.ca")),
            refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(rejection(search(), with(kUs, "page", "0")),
            refused(ErrorCode::InvalidParameter, "page"));
  EXPECT_EQ(rejection(search(), with(kAu, "sort", "distance")),
            refused(ErrorCode::InvalidParameter, "sort"));
}

TEST(YellowPagesSearchUrl, EachDirectorysSearch) {
  EXPECT_EQ(url(kUs),
            "https://www.yellowpages.com/"
            "search?search_terms=restaurants&geo_location_terms=San+Francisco%2C+CA");
  EXPECT_EQ(url(with(with(kUs, "sort", "averageRating"), "page", "2")),
            "https://www.yellowpages.com/"
            "search?search_terms=restaurants&geo_location_terms=San+Francisco%2C+CA&page=2"
            "&s=average_rating");
  EXPECT_EQ(url(with(kAu, "page", "2")),
            "https://www.yellowpages.com.au/search/"
            "listings?clue=plumber&locationClue=cairns%2C+QLD&pageNumber=2");
  EXPECT_EQ(search().route(), "bizdir/search");
}

TEST(YellowPagesSearchShape, PlumbersInCairns) {
  const json b =
      search().shape(testing::recorded("yellowpages/data/search/plumber-cairns_script_output.json"),
                     search().validate(kAu));
  EXPECT_EQ(b["pagination"], (json{{"currentPage", 1}, {"totalResults", 97}, {"nextPage", 2}}));
  ASSERT_EQ(b["places"].size(), 35u);
  const json& first = b["places"][0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["name"], "Alexander Plumbing & Draining");
  EXPECT_EQ(first["phone"], "0418 184 428");
  EXPECT_EQ(first["address"],
            (json{{"locality", "Cairns"}, {"region", "QLD"}, {"postalCode", "4870"}}));
  EXPECT_EQ(first["categories"], (json{"Plumbers & Gas Fitters"}));
  EXPECT_EQ(first["website"], "http://www.alexanderplumbing.com.au/");
  EXPECT_EQ(first["email"], "mrsa50@hotmail.com");
  EXPECT_EQ(first["openingHours"][0], (json{{"day", "Monday"}, {"hours", "7:00am - 6:00pm"}}));
  EXPECT_EQ(first["link"],
            "https://www.yellowpages.com.au/qld/cairns/"
            "alexander-plumbing-draining-11973665-listing.html");
  EXPECT_EQ(first["isAd"], false);
  EXPECT_FALSE(first.contains("rating"));
  const json& fransen = b["places"][6];
  EXPECT_EQ(fransen["name"], "Fransen Plumbing Pty Ltd");
  EXPECT_EQ(fransen["rating"], 5.0);
  EXPECT_EQ(fransen["reviews"], 1);
}

TEST(YellowPagesSearchShape, SanFranciscoRestaurantsFromTheirJsonLd) {
  const json b = search().shape(
      testing::recorded("yellowpages/data/search/san-francisco-restaurants_script_output.json"),
      search().validate(kUs));
  ASSERT_EQ(b["places"].size(), 5u);
  const json& zy = b["places"][0];
  EXPECT_EQ(zy["name"], "Z &Y Restaurant");
  EXPECT_EQ(zy["link"], "https://www.yellowpages.com/san-francisco-ca/mip/z-y-restaurant-4970454");
  EXPECT_EQ(zy["phone"], "(415) 981-8988");
  EXPECT_EQ(zy["address"], (json{{"street", "655 Jackson St"},
                                 {"locality", "San Francisco"},
                                 {"region", "CA"},
                                 {"postalCode", "94133"},
                                 {"country", "US"}}));
  EXPECT_EQ(zy["rating"], 4.5);
  EXPECT_EQ(zy["reviews"], 5);
  EXPECT_EQ(zy["openingHours"][0], (json{{"day", "Monday"}, {"hours", "11:00-21:30"}}));
  EXPECT_EQ(zy["openingHours"][4], (json{{"day", "Friday"}, {"hours", "11:00-22:30"}}));
  EXPECT_EQ(b["places"][1]["name"], "House of Nan King");
  EXPECT_EQ(b["places"][4]["position"], 5);
}

TEST(YellowPagesSearchShape, NothingReadableIsExtractionFailed) {
  EXPECT_EQ(
      testing::error_of_shape(search(), json{{"jsonLd", json::array()}, {"results", json::array()}},
                              search().validate(kUs)),
      ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::yellowpages
