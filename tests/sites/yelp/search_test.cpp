// GET /scrape/yelp/search without a browser: its parameters (the hosted service's clients' names
// and domains), the search page's URL, and the shaping of search.js's recorded output on the real
// items of a Yelp search page (plumbers in Seattle, WA: 12 ads) in the smallest document that
// carries them (data/search/plumbers-seattle-real-items-in-a-minimal-document.html), and on a
// whole real search page of the 2017 server-drawn layout (pages/local/).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yelp {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& search() {
  return search_endpoint();
}
std::string url_of(const QueryParams& q) {
  return search().build_request(search().validate(q)).url;
}
const QueryParams kPlumbers = {{"keyword", "plumbers"}, {"location", "Seattle, WA"}};
json recording() {
  return testing::recorded("yelp/data/search/plumbers-seattle_script_output.json");
}

TEST(YelpSearchParameters, TheClientsParameters) {
  EXPECT_EQ(rejection(search(), {{"location", "Seattle, WA"}}),
            refused(ErrorCode::MissingParameter, "keyword"));
  EXPECT_EQ(rejection(search(), {{"keyword", "plumbers"}}),
            refused(ErrorCode::MissingParameter, "location"));
  EXPECT_EQ(rejection(search(), {{"keyword", "x"}, {"location", "y"}, {"start", "15"}}),
            refused(ErrorCode::InvalidParameter, "start"));
  EXPECT_EQ(rejection(search(), {{"keyword", "x"}, {"location", "y"}, {"domain", "www.yelp.xyz"}}),
            refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(url_of(kPlumbers),
            "https://www.yelp.com/search?find_desc=plumbers&find_loc=Seattle%2C+WA");
  EXPECT_EQ(url_of({{"keyword", "pizza"},
                    {"location", "Boston"},
                    {"start", "20"},
                    {"l", "g:-71.1,42.3,-71.0,42.4"},
                    {"domain", "fr.yelp.ca"}}),
            "https://fr.yelp.ca/search?find_desc=pizza&find_loc=Boston&start=20&"
            "l=g%3A-71.1%2C42.3%2C-71.0%2C42.4");
  EXPECT_EQ(url_of({{"keyword", "x"}, {"location", "y"}, {"domain", "yelp.co.uk"}}),
            "https://www.yelp.co.uk/search?find_desc=x&find_loc=y");
  EXPECT_EQ(search().route(), "yelp/search");
  EXPECT_EQ(search().default_cost(), 5);
}

// The browser test's page is built from the copied real items; this holds it to them.
TEST(YelpSearchShape, TheMinimalDocumentHoldsTheRealItemsUnchanged) {
  std::ifstream in(gleaner::testing::site_tests_dir("yelp") +
                   "data/search/plumbers-seattle-real-items-in-a-minimal-document.html");
  std::stringstream page;
  page << in.rdbuf();
  const std::string html = page.str();
  const std::string open = "<script data-id=\"react-root-props\">react_root_props = ";
  const auto from = html.find(open);
  const auto to = html.find(";</script>", from);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const json root = json::parse(html.substr(from + open.size(), to - from - open.size()));
  const json items = testing::read_json_file(gleaner::testing::site_page(
      "yelp", "local/scrapfly-yelp-search-react-root-props-items-extract-2026-04.json"));
  ASSERT_EQ(items.size(), 12u);
  EXPECT_EQ(
      root["legacyProps"]["searchAppProps"]["searchPageProps"]["mainContentComponentsListProps"],
      items);
  EXPECT_EQ(root.size(), 1u);
}

TEST(YelpSearchShape, TheRealItemsAreTwelveAds) {
  const json body = search().shape(recording(), search().validate(kPlumbers));
  EXPECT_EQ(body["searchInformation"],
            (json{{"keyword", "plumbers"}, {"location", "Seattle, WA"}}));
  EXPECT_EQ(body["organicResults"], json::array());
  ASSERT_EQ(body["ads"].size(), 12u);
  const json& apollo = body["ads"][0];
  EXPECT_EQ(apollo["placeId"], "vLaVvLoADMsU3e80ol3Z3Q");
  EXPECT_EQ(apollo["placeAlias"], "apollo-plumbing-and-rooter-everett-5");
  EXPECT_EQ(apollo["title"], "Apollo Plumbing and Rooter");
  // Not the /adredir click counter: the page it leads to.
  EXPECT_EQ(apollo["url"],
            "https://www.yelp.com/biz/apollo-plumbing-and-rooter-everett-5?override_cta=Get+"
            "pricing+%26+availability");
  EXPECT_EQ(apollo["rating"], 3.1);
  EXPECT_EQ(apollo["reviews"], 172);
  EXPECT_TRUE(apollo["reviews"].is_number_integer());
  EXPECT_EQ(apollo["categories"][1],
            (json{{"title", "Water Heater Installation/Repair"},
                  {"url",
                   "https://www.yelp.com/search?find_desc=Water+Heater+Installation%2FRepair&"
                   "find_loc=Seattle%2C+WA"}}));
  EXPECT_EQ(apollo["highlights"], (json{"Certified professionals", "Established in 2005"}));
  EXPECT_EQ(apollo["thumbnail"],
            "https://s3-media0.fl.yelpcdn.com/bphoto/uZzksvQjgBdt1c2Br12scw/ls.jpg");
  EXPECT_FALSE(apollo.contains("phone"));  // "" on the page
  EXPECT_FALSE(apollo.contains("position"));
  EXPECT_EQ(body["ads"][1]["highlights"][1], "Locally owned & operated");  // &amp; decoded once
  EXPECT_EQ(body["ads"][6]["highlights"], json::array());
  EXPECT_EQ(body["ads"][11]["title"], "Nu Flow");
  EXPECT_EQ(body["ads"][11]["reviews"], 0);
  // The real items carry no result count: no totalPages or next page is made up.
  EXPECT_EQ(body["pagination"], (json{{"currentPage", 1}, {"perPage", 10}}));
  EXPECT_TRUE(search().has_content(body));
}

// No real organic item exists: the real ad item with its isAd flags cleared stands in for one,
// to check the split and the organic keys (position from start, snippet with its markers).
TEST(YelpSearchShape, AnItemNotMarkedAsAnAdIsAnOrganicResult) {
  json out = recording();
  out["items"][2]["isAd"] = false;
  out["items"][3]["isAd"] = false;
  const json body = search().shape(
      out,
      search().validate({{"keyword", "plumbers"}, {"location", "Seattle, WA"}, {"start", "10"}}));
  ASSERT_EQ(body["organicResults"].size(), 2u);
  EXPECT_EQ(body["ads"].size(), 10u);
  const json& bees = body["organicResults"][0];
  EXPECT_EQ(bees["position"], 11);
  EXPECT_EQ(body["organicResults"][1]["position"], 12);
  EXPECT_EQ(bees["title"], "Bee’s Plumbing and Heating");
  EXPECT_EQ(bees["streetAddress"], "2401 SW Alaska St");
  EXPECT_TRUE(bees["snippet"].get<std::string>().find(
                  "diagnose my [[HIGHLIGHT]]plumbing[[ENDHIGHLIGHT]] problem") != std::string::npos)
      << bees["snippet"];
  EXPECT_EQ(bees["allImagesUrl"], "https://www.yelp.com/biz_photos/LUYswO0CJuO600XgTyTysg");
  EXPECT_FALSE(bees.contains("price"));  // "" on the page
  EXPECT_FALSE(bees.contains("highlights"));
  EXPECT_EQ(body["pagination"]["currentPage"], 2);
}

// The real items' other click counter, the ad's "Get pricing & availability" button, leads to a
// path: taken as an ad's link, the answer gives it on the site asked for.
TEST(YelpSearchShape, AClickCounterLeadingToAPathGivesItOnTheSite) {
  const json items = testing::read_json_file(gleaner::testing::site_page(
      "yelp", "local/scrapfly-yelp-search-react-root-props-items-extract-2026-04.json"));
  json out = recording();
  out["items"][0]["businessUrl"] = items[0]["searchActions"][0]["buttonProps"]["href"];
  const json body = search().shape(
      out, search().validate(
               {{"keyword", "plumbers"}, {"location", "Seattle, WA"}, {"domain", "www.yelp.ca"}}));
  EXPECT_EQ(body["ads"][0]["url"],
            "https://www.yelp.ca/mtb_composer/business/vLaVvLoADMsU3e80ol3Z3Q/entry_point/"
            "mtb_search_ad?source_request_id=1fe22969873cb10f");
}

// The arithmetic of the pager from a count (the real items carry none: the count given here
// stands for the component with props.totalResults).
TEST(YelpSearchShape, PagesFollowTheResultCount) {
  json out = recording();
  out["totalResults"] = 235;
  const auto at_start = [&](const char* start) {
    return search().shape(
        out, search().validate(
                 {{"keyword", "plumbers"}, {"location", "Seattle, WA"}, {"start", start}}));
  };
  const json first = at_start("0");
  EXPECT_EQ(first["searchInformation"]["totalResults"], 235);
  EXPECT_EQ(first["pagination"]["totalPages"], 24);
  EXPECT_EQ(first["pagination"]["nextPageUrl"],
            "https://www.yelp.com/search?find_desc=plumbers&find_loc=Seattle%2C+WA&start=10");
  EXPECT_EQ(at_start("220")["pagination"]["nextPageUrl"],
            "https://www.yelp.com/search?find_desc=plumbers&find_loc=Seattle%2C+WA&start=230");
  EXPECT_FALSE(at_start("230")["pagination"].contains("nextPageUrl"));
}

TEST(YelpSearchShape, APageWithoutTheStateOrItsListIsNotRead) {
  json out = recording();
  out["hasState"] = false;
  EXPECT_EQ(testing::error_of_shape(search(), out, search().validate(kPlumbers)),
            ErrorCode::ExtractionFailed);
  out = recording();
  out["hasList"] = false;
  EXPECT_EQ(testing::error_of_shape(search(), out, search().validate(kPlumbers)),
            ErrorCode::ExtractionFailed);
  out = recording();
  out["items"] = json::array();
  EXPECT_FALSE(search().has_content(search().shape(out, search().validate(kPlumbers))));
}

// The whole real search page of the 2017 server-drawn layout (pages/local/), as search.js reads
// its markup: the ads' click counters are followed to their businesses, the count is the page's.
TEST(YelpSearchShape, TheRealPageOfThe2017LayoutReadFromItsMarkup) {
  const json out =
      testing::recorded("yelp/data/search/fried-chicken-atlanta-2017_script_output.json");
  const json b = search().shape(
      out, search().validate({{"keyword", "fried chicken"}, {"location", "Atlanta, GA"}}));
  EXPECT_EQ(b["searchInformation"]["totalResults"], 1607);
  EXPECT_EQ(b["pagination"]["nextPageUrl"],
            "https://www.yelp.com/search?find_desc=fried+chicken&find_loc=Atlanta%2C+GA&start=10");
  ASSERT_EQ(b["organicResults"].size(), 10u);
  EXPECT_EQ(b["organicResults"][2]["title"], "Mary Mac’s Tea Room");
  EXPECT_EQ(b["organicResults"][2]["reviews"], 2241);
  ASSERT_EQ(b["ads"].size(), 3u);
  EXPECT_EQ(b["ads"][1]["title"], "Red Chili Cafe");
  EXPECT_EQ(b["ads"][1]["phone"], "(470) 239-5798");
  // Without its markup's results (and without the state) the page is not read.
  json empty = out;
  empty["markup"] = false;
  EXPECT_EQ(testing::error_of_shape(search(), empty,
                                    search().validate({{"keyword", "x"}, {"location", "y"}})),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::yelp
