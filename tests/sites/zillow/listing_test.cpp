// GET /scrape/estate/listing without a browser: the parameters (types, bracketed ranges, filter
// lists, type-specific filters), the search URL with its searchQueryState, and the shaping of
// listing.js's recorded output on the real Zillow pages of the fixtures (the 04011 rentals page
// with its Next.js state, the reduced Boston rentals DOM with cards only) and of the real Los
// Angeles search state (cat1 unchanged, in the shape listing.js returns it).
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::zillow {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& listing() {
  return listing_endpoint();
}
const QueryParams kRent = {{"keyword", "Brunswick, ME 04011"}, {"type", "forRent"}};

QueryParams with(QueryParams q, const std::string& k, const std::string& v) {
  q.emplace(k, v);
  return q;
}

json state_of(const QueryParams& q) {
  const std::string url = listing().build_request(listing().validate(q)).url;
  const auto at = url.find("searchQueryState=");
  return json::parse(form_decode(url.substr(at + 17)));
}

TEST(ZillowListingParameters, EveryRule) {
  EXPECT_EQ(rejection(listing(), {{"type", "forSale"}}),
            refused(ErrorCode::MissingParameter, "keyword"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}}), refused(ErrorCode::MissingParameter, "type"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}, {"type", "lease"}}),
            refused(ErrorCode::InvalidParameter, "type"));
  EXPECT_EQ(rejection(listing(), with(kRent, "price[min]", "-1")),
            refused(ErrorCode::InvalidParameter, "price[min]"));
  EXPECT_EQ(rejection(listing(), with(with(kRent, "price[min]", "2000"), "price[max]", "1000")),
            refused(ErrorCode::InvalidParameter, "price[max]"));
  EXPECT_EQ(rejection(listing(), with(with(kRent, "beds[min]", "3"), "beds[max]", "2")),
            refused(ErrorCode::InvalidParameter, "beds[max]"));
  EXPECT_EQ(rejection(listing(), with(kRent, "yearBuilt[min]", "1500")),
            refused(ErrorCode::InvalidParameter, "yearBuilt[min]"));
  EXPECT_EQ(rejection(listing(), with(kRent, "homeTypes[]", "castles")),
            refused(ErrorCode::InvalidParameter, "homeTypes"));
  EXPECT_EQ(rejection(listing(), with(kRent, "sort", "cheapest")),
            refused(ErrorCode::InvalidParameter, "sort"));
  EXPECT_EQ(rejection(listing(), with(kRent, "singleStoryOnly", "yes")),
            refused(ErrorCode::InvalidParameter, "singleStoryOnly"));
  EXPECT_EQ(rejection(listing(), with(kRent, "daysOnZillow", "5")),
            refused(ErrorCode::InvalidParameter, "daysOnZillow"));
  EXPECT_EQ(rejection(listing(), with(kRent, "moveInDate", "06/01/2030")),
            refused(ErrorCode::InvalidParameter, "moveInDate"));
  EXPECT_EQ(rejection(listing(), with(kRent, "page", "0")),
            refused(ErrorCode::InvalidParameter, "page"));
  // Filters that belong to one listing type.
  EXPECT_EQ(rejection(listing(), with(kRent, "listingPublishOptions[]", "ownerPosted")),
            refused(ErrorCode::InvalidParameter, "listingPublishOptions"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}, {"type", "forSale"}, {"pets[]", "cats"}}),
            refused(ErrorCode::InvalidParameter, "pets"));
  EXPECT_EQ(
      rejection(listing(), {{"keyword", "x"}, {"type", "sold"}, {"moveInDate", "2030-06-01"}}),
      refused(ErrorCode::InvalidParameter, "moveInDate"));
  EXPECT_EQ(rejection(listing(), with(with(kRent, "pets[]", "cats"), "pets[]", "largeDogs")),
            refused(ErrorCode::Internal, "accepted"));
}

TEST(ZillowListingUrl, TheSearchTheSiteBoxMakes) {
  const std::string url = listing().build_request(listing().validate(kRent)).url;
  EXPECT_TRUE(url.starts_with("https://www.zillow.com/homes/for_rent/?searchQueryState=")) << url;
  json s = state_of(kRent);
  EXPECT_EQ(s["usersSearchTerm"], "Brunswick, ME 04011");
  EXPECT_EQ(s["filterState"]["isForRent"], (json{{"value", true}}));
  EXPECT_EQ(s["filterState"]["isForSaleByAgent"], (json{{"value", false}}));
  EXPECT_FALSE(s.contains("pagination"));
  EXPECT_TRUE(listing()
                  .build_request(listing().validate({{"keyword", "x"}, {"type", "sold"}}))
                  .url.starts_with("https://www.zillow.com/homes/recently_sold/"));
  QueryParams sale = {{"keyword", "Los Angeles, CA"},
                      {"type", "forSale"},
                      {"price[min]", "500000"},
                      {"price[max]", "900000"},
                      {"beds[min]", "2"},
                      {"yearBuilt[min]", "1990"},
                      {"homeTypes[]", "houses"},
                      {"homeTypes[]", "condos"},
                      {"sort", "priceLowToHigh"},
                      {"views[]", "water"},
                      {"hoa", "300"},
                      {"mustHaveGarage", "true"},
                      {"daysOnZillow", "7"},
                      {"page", "3"}};
  s = state_of(sale);
  const json& f = s["filterState"];
  EXPECT_EQ(f["price"], (json{{"min", 500000.0}, {"max", 900000.0}}));
  EXPECT_EQ(f["beds"], (json{{"min", 2.0}}));
  EXPECT_EQ(f["built"], (json{{"min", 1990.0}}));
  EXPECT_EQ(f["isSingleFamily"]["value"], true);
  EXPECT_EQ(f["isCondo"]["value"], true);
  EXPECT_EQ(f["isTownhouse"]["value"], false);
  EXPECT_EQ(f["sortSelection"]["value"], "pricea");
  EXPECT_EQ(f["isWaterView"]["value"], true);
  EXPECT_EQ(f["hoa"], (json{{"max", 300.0}}));
  EXPECT_EQ(f["hasGarage"]["value"], true);
  EXPECT_EQ(f["doz"]["value"], "7");
  EXPECT_EQ(s["pagination"], (json{{"currentPage", 3}}));
  EXPECT_EQ(listing().route(), "estate/listing");
}

// The hosted service's clients' words reach the site as the site's own filter keys, and their
// indexed arrays as lists (docs/endpoints/zillow/listing.md).
TEST(ZillowListingUrl, TheHostedClientsWordsAreTheSitesFilters) {
  QueryParams rent = {{"keyword", "Boston, MA"},     {"type", "forRent"},
                      {"homeTypes[][0]", "house"},   {"homeTypes[][1]", "apartment"},
                      {"pets[][0]", "allowsCats"},   {"otherAmenities[][0]", "inUnitLaundry"},
                      {"otherAmenities[][1]", "ac"}, {"otherAmenities[][2]", "apartmentCommunity"},
                      {"tours[][0]", "3d"},          {"sort", "paymentHighToLow"},
                      {"daysOnZillow", "180"}};
  json f = state_of(rent)["filterState"];
  EXPECT_EQ(f["isSingleFamily"]["value"], true);
  EXPECT_EQ(f["isApartment"]["value"], true);
  EXPECT_EQ(f["isCondo"]["value"], false);
  EXPECT_EQ(f["onlyRentalCatsAllowed"]["value"], true);
  EXPECT_EQ(f["onlyRentalInUnitLaundry"]["value"], true);
  EXPECT_EQ(f["hasAirConditioning"]["value"], true);
  EXPECT_EQ(f["onlyRentalFeaturedMultiFamilyBuilding"]["value"], true);
  EXPECT_EQ(f["is3dHome"]["value"], true);
  EXPECT_EQ(f["sortSelection"]["value"], "paymentd");
  // The site's filter takes months past 90 days.
  EXPECT_EQ(f["doz"]["value"], "6m");
  QueryParams sale = {{"keyword", "Boston, MA"},
                      {"type", "forSale"},
                      {"propertyStatus[][0]", "pendingAndUnderContract"},
                      {"listingType", "byOwner"},
                      {"sort", "verifiedSource"}};
  f = state_of(sale)["filterState"];
  EXPECT_EQ(f["isPendingListingsSelected"]["value"], true);
  EXPECT_EQ(f["isForSaleByAgent"]["value"], false);
  EXPECT_EQ(f["sortSelection"]["value"], "featured");
  // Words of neither kind are still refused, naming the list.
  EXPECT_EQ(rejection(listing(), with(kRent, "homeTypes[][0]", "castle")),
            refused(ErrorCode::InvalidParameter, "homeTypes"));
}

TEST(ZillowListingShape, RentalsIn04011FromTheSearchState) {
  const json b =
      listing().shape(testing::recorded("zillow/data/listing/rentals-04011_script_output.json"),
                      listing().validate(kRent));
  EXPECT_EQ(b["searchInformation"],
            (json{{"keyword", "Brunswick, ME 04011"}, {"type", "forRent"}, {"totalResults", 91}}));
  EXPECT_EQ(b["pagination"], (json{{"currentPage", 1}, {"totalPages", 1}}));
  ASSERT_EQ(b["properties"].size(), 36u);
  const json& building = b["properties"][0];
  EXPECT_EQ(building["zpid"], "43.90381--69.918846");  // a building's zpid, as the site gives it
  EXPECT_EQ(building["price"], "$2,225+");
  EXPECT_EQ(building["status"], "Atlantic Pointe");
  EXPECT_EQ(building["link"], "https://www.zillow.com/b/building/43.90381,-69.918846_ll/");
  const json& apartment = b["properties"][3];
  EXPECT_EQ(apartment["zpid"], "343985606");
  EXPECT_EQ(apartment["price"], "$1,699/mo");
  EXPECT_EQ(apartment["extractedPrice"], 1699);
  EXPECT_EQ(apartment["address"], (json{{"street", "41 River Rd #A9"},
                                        {"city", "Brunswick"},
                                        {"state", "ME"},
                                        {"postalCode", "04011"}}));
  EXPECT_EQ(apartment["beds"], 2);
  EXPECT_EQ(apartment["baths"], 1);
  EXPECT_EQ(apartment["livingArea"], 700);
  EXPECT_EQ(apartment["homeType"], "APARTMENT");
  EXPECT_EQ(apartment["daysOnZillow"], 31);
  EXPECT_EQ(apartment["position"], 4);
}

TEST(ZillowListingShape, BostonRentalsFromTheCards) {
  const json b =
      listing().shape(testing::recorded("zillow/data/listing/rentals-boston_script_output.json"),
                      listing().validate({{"keyword", "Boston, MA"}, {"type", "forRent"}}));
  ASSERT_EQ(b["properties"].size(), 41u);
  const json& first = b["properties"][0];
  EXPECT_EQ(first["zpid"], "2059247552");
  EXPECT_EQ(first["price"], "$4,919+/mo");
  EXPECT_EQ(first["extractedPrice"], 4919);
  EXPECT_EQ(first["address"]["city"], "Roxbury Crossing");
  EXPECT_EQ(first["address"]["postalCode"], "02120");
  EXPECT_EQ(first["beds"], 1);
  EXPECT_EQ(first["baths"], 2.5);
  EXPECT_EQ(first["livingArea"], 801);
  EXPECT_EQ(first["status"], "Apartment for rent");
  // No search state: the total is the list header's "9,316 rentals available".
  EXPECT_EQ(b["searchInformation"]["totalResults"], 9316);
}

TEST(ZillowListingShape, LosAngelesForSaleFromTheRealSearchState) {
  // The site's search page state for /los-angeles-ca/ page 1: cat1 unchanged.
  const json state = testing::read_json_file(gleaner::testing::site_page(
      "zillow", "estate-listing/zillow-searchpagestate-los-angeles-p1-2024-11.json"));
  const json out = {{"hasState", true},
                    {"results", state["cat1"]["searchResults"]["listResults"]},
                    {"list", state["cat1"]["searchList"]}};
  const json b = listing().shape(
      out, listing().validate({{"keyword", "Los Angeles, CA"}, {"type", "forSale"}}));
  EXPECT_EQ(b["searchInformation"]["totalResults"], 7406);
  EXPECT_EQ(b["pagination"]["nextPage"], 2);
  ASSERT_EQ(b["properties"].size(), 41u);
  const json& first = b["properties"][0];
  EXPECT_EQ(first["zpid"], "19998955");
  EXPECT_EQ(first["price"], "$499,000");
  EXPECT_EQ(first["extractedPrice"], 499000);
  EXPECT_EQ(first["address"]["street"], "7941 Rhodes Ave");
  EXPECT_EQ(first["homeType"], "SINGLE_FAMILY");
  EXPECT_EQ(first["brokerName"], "TruLine Realty");
  EXPECT_EQ(first["lotArea"], (json{{"value", 8842.68}, {"unit", "sqft"}}));
  EXPECT_EQ(first["daysOnZillow"], 5);
}

TEST(ZillowListingShape, NoResultsOnlyWhereTheSiteSaysSo) {
  EXPECT_EQ(
      listing().shape(
          json{{"hasState", true}, {"results", json::array()}, {"list", {{"totalResultCount", 0}}}},
          listing().validate(kRent))["properties"],
      json::array());
  EXPECT_EQ(
      testing::error_of_shape(listing(), json{{"cards", json::array()}}, listing().validate(kRent)),
      ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::zillow
