// GET /scrape/homes/listing without a browser: every parameter's validation (types, bracketed
// ranges, enumerations, filters that belong to other listing types, dates, booleans), the
// autocomplete request and the search page URL with its `/filter/` segment, and the shaping of
// the real gis search JSON of the fixtures (89 homes[] objects of a Seattle search) in the shape
// listing.js returns it.
#include "extract/sites/redfin/listing.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/pages.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::redfin {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& listing() {
  return listing_endpoint();
}
const QueryParams kSale = {{"keyword", "Seattle, WA"}, {"type", "forSale"}};
const QueryParams kRent = {{"keyword", "Seattle, WA"}, {"type", "forRent"}};
const QueryParams kSold = {{"keyword", "Seattle, WA"}, {"type", "sold"}};

QueryParams with(QueryParams q, std::initializer_list<std::pair<std::string, std::string>> more) {
  for (const auto& [k, v] : more) q.emplace(k, v);
  return q;
}

std::string url_of(const QueryParams& q) {
  return search_url("https://www.redfin.com", "/city/16163/WA/Seattle", listing().validate(q));
}

TEST(RedfinListingParameters, RequiredAndType) {
  EXPECT_EQ(rejection(listing(), {{"type", "forSale"}}),
            refused(ErrorCode::MissingParameter, "keyword"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}}), refused(ErrorCode::MissingParameter, "type"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}, {"type", "lease"}}),
            refused(ErrorCode::InvalidParameter, "type"));
  EXPECT_EQ(rejection(listing(), with(kSale, {{"unknown", "1"}})),
            refused(ErrorCode::InvalidParameter, "unknown"));
  for (const char* type : {"forSale", "forRent", "sold"}) {
    EXPECT_EQ(rejection(listing(), {{"keyword", "x"}, {"type", type}}),
              refused(ErrorCode::Internal, "accepted"));
  }
}

TEST(RedfinListingParameters, RangesAreNumbersAtLeastZeroWithMaxAtLeastMin) {
  for (const char* range : {"price", "monthlyPayment", "cost[pricePerSqft]", "beds",
                            "forSaleSquareFeet", "lotSize", "stories"}) {
    SCOPED_TRACE(range);
    const std::string min = std::string(range) + "[min]";
    const std::string max = std::string(range) + "[max]";
    EXPECT_EQ(rejection(listing(), with(kSale, {{min, "-1"}})),
              refused(ErrorCode::InvalidParameter, min));
    EXPECT_EQ(rejection(listing(), with(kSale, {{max, "abc"}})),
              refused(ErrorCode::InvalidParameter, max));
    EXPECT_EQ(rejection(listing(), with(kSale, {{min, "3"}, {max, "2"}})),
              refused(ErrorCode::InvalidParameter, max));
    EXPECT_EQ(rejection(listing(), with(kSale, {{min, "2"}, {max, "3"}})),
              refused(ErrorCode::Internal, "accepted"));
  }
  EXPECT_EQ(rejection(listing(), with(kRent, {{"forRentSquareFootage[min]", "900"},
                                              {"forRentSquareFootage[max]", "800"}})),
            refused(ErrorCode::InvalidParameter, "forRentSquareFootage[max]"));
  EXPECT_EQ(rejection(listing(), with(kSale, {{"beds[min]", "1.5"}})),
            refused(ErrorCode::InvalidParameter, "beds[min]"));
  EXPECT_EQ(rejection(listing(), with(kSale, {{"yearBuilt[min]", "1500"}})),
            refused(ErrorCode::InvalidParameter, "yearBuilt[min]"));
  EXPECT_EQ(
      rejection(listing(), with(kSale, {{"yearBuilt[min]", "2000"}, {"yearBuilt[max]", "1990"}})),
      refused(ErrorCode::InvalidParameter, "yearBuilt[max]"));
}

TEST(RedfinListingParameters, SingleValues) {
  const std::pair<const char*, const char*> bad[] = {
      {"baths", "-1"},
      {"monthlyPayment[interestRate]", "101"},
      {"monthlyPayment[insuranceRate]", "-0.5"},
      {"monthlyPayment[downPaymentPercent]", "120"},
      {"monthlyPayment[downPaymentAmount]", "-5"},
      {"monthlyPayment[mortgageTerm]", "40-year-fixed"},
      {"cost[hoa]", "-1"},
      {"cost[maxPropertyTaxPerYear]", "x"},
      {"cost[acceptedFinancing]", "cash"},
      {"cost[priceReduced]", "1yr"},
      {"sort", "cheapest"},
      {"timeOnRedfin", "1wk"},
      {"openHouseAndTour[openHouse]", "tomorrow"},
      {"homeFeatures[garageSpotsMin]", "0"},
      {"homeFeatures[garageSpotsMin]", "6"},
      {"homeFeatures[poolType]", "indoor"},
      {"homeFeatures[basement]", "walkout"},
      {"schools[greatSchoolRating]", "0"},
      {"schools[greatSchoolRating]", "11"},
      {"transportScores[walkScore]", "0"},
      {"transportScores[transitScore]", "101"},
      {"transportScores[bikeScore]", "50.5"},
      {"page", "0"},
      {"page", "101"},
  };
  for (const auto& [name, value] : bad) {
    SCOPED_TRACE(std::string(name) + "=" + value);
    EXPECT_EQ(rejection(listing(), with(kSale, {{name, value}})),
              refused(ErrorCode::InvalidParameter, name));
  }
  EXPECT_EQ(rejection(listing(), with(kSale, {{"monthlyPayment[downPaymentPercent]", "20"},
                                              {"monthlyPayment[downPaymentAmount]", "100000"}})),
            refused(ErrorCode::ConflictingParameters, "monthlyPayment[downPaymentAmount]"));
  EXPECT_EQ(
      rejection(listing(), with(kSale, {{"homeFeatures[keywordSearch]", std::string(201, 'a')}})),
      refused(ErrorCode::InvalidParameter, "homeFeatures[keywordSearch]"));
  EXPECT_EQ(rejection(listing(), with(kSold, {{"soldWithinOption", "10yr"}})),
            refused(ErrorCode::InvalidParameter, "soldWithinOption"));
}

TEST(RedfinListingParameters, BooleansAreTrueOrFalseOnly) {
  for (const char* name : {"cost[excludeLandLeases]", "listingType[excludeShortSales]",
                           "listingType[redfinListingsOnly]", "exclude55PlusCommunities",
                           "openHouseAndTour[videoTour]", "schools[includeUnratedSchools]"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(rejection(listing(), with(kSale, {{name, "1"}})),
              refused(ErrorCode::InvalidParameter, name));
    EXPECT_EQ(rejection(listing(), with(kSale, {{name, "yes"}})),
              refused(ErrorCode::InvalidParameter, name));
    EXPECT_EQ(rejection(listing(), with(kSale, {{name, "false"}})),
              refused(ErrorCode::Internal, "accepted"));
  }
  EXPECT_EQ(rejection(listing(), with(kRent, {{"onlyWithDealOrPromotion", "TRUE"}})),
            refused(ErrorCode::InvalidParameter, "onlyWithDealOrPromotion"));
}

TEST(RedfinListingParameters, ListsRepeatedPerValueFromTheSitesValues) {
  const std::pair<const char*, const char*> bad[] = {
      {"homeTypes[]", "castle"},
      {"listingType[category][]", "auction"},
      {"homeFeatures[options][]", "waterfront"},
      {"statusOptions[]", "sold"},
      {"homeFeatures[options][]", "helipad"},
      {"schools[schoolType][]", "college"},
  };
  for (const auto& [name, value] : bad) {
    SCOPED_TRACE(name);
    std::string param = name;
    param.resize(param.size() - 2);
    EXPECT_EQ(rejection(listing(), with(kSale, {{name, value}})),
              refused(ErrorCode::InvalidParameter, param));
  }
  for (const auto& [name, value] : {std::pair{"rentalAmenities[]", "sauna"},
                                    {"rentalOtherTerms[]", "furnished"},
                                    {"pets[]", "birds"}}) {
    std::string param = name;
    param.resize(param.size() - 2);
    EXPECT_EQ(rejection(listing(), with(kRent, {{name, value}})),
              refused(ErrorCode::InvalidParameter, param));
  }
  EXPECT_EQ(rejection(listing(), with(kSale, {{"homeTypes[]", "house"}, {"homeTypes[]", "condo"}})),
            refused(ErrorCode::Internal, "accepted"));
  // Home types by listing type: apartments are rentals; land and multifamily are not.
  EXPECT_EQ(rejection(listing(), with(kSale, {{"homeTypes[]", "apartment"}})),
            refused(ErrorCode::InvalidParameter, "homeTypes"));
  EXPECT_EQ(rejection(listing(), with(kRent, {{"homeTypes[]", "land"}})),
            refused(ErrorCode::InvalidParameter, "homeTypes"));
  EXPECT_EQ(rejection(listing(), with(kRent, {{"homeTypes[]", "apartment"}})),
            refused(ErrorCode::Internal, "accepted"));
  // Sort options by listing type.
  EXPECT_EQ(rejection(listing(), with(kSale, {{"sort", "hi-sale-date"}})),
            refused(ErrorCode::InvalidParameter, "sort"));
  EXPECT_EQ(rejection(listing(), with(kSold, {{"sort", "hi-sale-date"}})),
            refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(rejection(listing(), with(kRent, {{"sort", "hi-lot-sqft"}})),
            refused(ErrorCode::InvalidParameter, "sort"));
}

TEST(RedfinListingParameters, MoveInDateIsARealMmDdYyyyDate) {
  EXPECT_EQ(rejection(listing(), with(kRent, {{"moveInDate", "2030-06-01"}})),
            refused(ErrorCode::InvalidParameter, "moveInDate"));
  EXPECT_EQ(rejection(listing(), with(kRent, {{"moveInDate", "02/30/2030"}})),
            refused(ErrorCode::InvalidParameter, "moveInDate"));
  EXPECT_EQ(rejection(listing(), with(kRent, {{"moveInDate", "13/01/2030"}})),
            refused(ErrorCode::InvalidParameter, "moveInDate"));
  EXPECT_EQ(rejection(listing(), with(kRent, {{"moveInDate", "02/29/2028"}})),
            refused(ErrorCode::Internal, "accepted"));
}

TEST(RedfinListingParameters, FiltersOfOtherListingTypesAreRefused) {
  const std::tuple<const QueryParams*, const char*, const char*> wrong[] = {
      {&kSale, "forRentSquareFootage[min]", "500"},
      {&kSale, "moveInDate", "06/01/2030"},
      {&kSale, "rentalAmenities[]", "has-dishwasher"},
      {&kSale, "rentalOtherTerms[]", "is-furnished"},
      {&kSale, "pets[]", "cats-allowed"},
      {&kSale, "soldWithinOption", "1mo"},
      {&kSale, "onlyWithDealOrPromotion", "true"},
      {&kRent, "forSaleSquareFeet[min]", "500"},
      {&kRent, "soldWithinOption", "1mo"},
      {&kRent, "monthlyPayment[max]", "3000"},
      {&kRent, "monthlyPayment[mortgageTerm]", "30-year-fixed"},
      {&kRent, "cost[hoa]", "100"},
      {&kRent, "lotSize[min]", "5000"},
      {&kRent, "yearBuilt[min]", "1990"},
      {&kRent, "stories[max]", "1"},
      {&kRent, "listingType[category][]", "fsbo"},
      {&kRent, "statusOptions[]", "active"},
      {&kRent, "timeOnRedfin", "less-than-1wk"},
      {&kRent, "homeFeatures[poolType]", "private"},
      {&kRent, "exclude55PlusCommunities", "true"},
      {&kSold, "moveInDate", "06/01/2030"},
      {&kSold, "statusOptions[]", "pending"},
      {&kSold, "cost[acceptedFinancing]", "VA"},
      {&kSold, "openHouseAndTour[openHouse]", "anytime"},
      {&kSold, "timeOnRedfin", "less-than-1wk"},
  };
  for (const auto& [query, name, value] : wrong) {
    std::string param = name;
    if (param.ends_with("[]")) param.resize(param.size() - 2);
    SCOPED_TRACE(param + " with type=" + query->find("type")->second);
    EXPECT_EQ(rejection(listing(), with(*query, {{name, value}})),
              refused(ErrorCode::InvalidParameter, param));
  }
  EXPECT_EQ(rejection(listing(), with(kSold, {{"soldWithinOption", "1mo"}})),
            refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(rejection(listing(), with(kRent, {{"moveInDate", "06/01/2030"},
                                              {"pets[]", "dogs-allowed"},
                                              {"forRentSquareFootage[min]", "500"}})),
            refused(ErrorCode::Internal, "accepted"));
  try {
    listing().validate(with(kSale, {{"moveInDate", "06/01/2030"}}));
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("applies only to type=forRent"), std::string::npos)
        << e.what();
  }
}

TEST(RedfinListingUrl, TheSearchBoxAutocompleteFirst) {
  const auto request = listing().build_request(listing().validate(kSale));
  EXPECT_EQ(request.url,
            "https://www.redfin.com/stingray/do/location-autocomplete?location=Seattle%2C+WA&v=2");
  EXPECT_EQ(autocomplete_url("98122"),
            "https://www.redfin.com/stingray/do/location-autocomplete?location=98122&v=2");
  EXPECT_EQ(listing().route(), "homes/listing");
}

TEST(RedfinListingUrl, RegionPagesByListingType) {
  EXPECT_EQ(url_of(kSale), "https://www.redfin.com/city/16163/WA/Seattle");
  EXPECT_EQ(url_of(kRent), "https://www.redfin.com/city/16163/WA/Seattle/apartments-for-rent");
  EXPECT_EQ(url_of(kSold), "https://www.redfin.com/city/16163/WA/Seattle/filter/include=sold-3mo");
  EXPECT_EQ(url_of(with(kSold, {{"soldWithinOption", "1yr"}, {"page", "2"}})),
            "https://www.redfin.com/city/16163/WA/Seattle/filter/include=sold-1yr/page-2");
  EXPECT_EQ(url_of(with(kSale, {{"page", "3"}})),
            "https://www.redfin.com/city/16163/WA/Seattle/page-3");
  EXPECT_EQ(search_url("https://www.redfin.ca", "/city/3790/BC/Vancouver/",
                       listing().validate(with(kSale, {{"beds[min]", "2"}}))),
            "https://www.redfin.ca/city/3790/BC/Vancouver/filter/min-beds=2");
}

TEST(RedfinListingUrl, FilterSegmentForSale) {
  const QueryParams q = with(kSale, {{"sort", "lo-price"},
                                     {"homeTypes[]", "house"},
                                     {"homeTypes[]", "townhouse"},
                                     {"price[min]", "550000"},
                                     {"price[max]", "2250000"},
                                     {"beds[min]", "2"},
                                     {"beds[max]", "4"},
                                     {"baths", "1.5"},
                                     {"forSaleSquareFeet[min]", "2250"},
                                     {"lotSize[max]", "9500"},
                                     {"yearBuilt[min]", "1980"},
                                     {"stories[max]", "1"},
                                     {"cost[hoa]", "0"},
                                     {"cost[excludeLandLeases]", "true"},
                                     {"cost[acceptedFinancing]", "VA"},
                                     {"listingType[category][]", "forsale"},
                                     {"listingType[category][]", "fsbo"},
                                     {"listingType[category][]", "construction"},
                                     {"listingType[excludeShortSales]", "true"},
                                     {"statusOptions[]", "active"},
                                     {"statusOptions[]", "comingsoon"},
                                     {"exclude55PlusCommunities", "true"},
                                     {"timeOnRedfin", "less-than-1wk"},
                                     {"homeFeatures[garageSpotsMin]", "2"},
                                     {"homeFeatures[poolType]", "either"},
                                     {"homeFeatures[basement]", "finished-or-unfinished"},
                                     {"schools[includeUnratedSchools]", "false"},
                                     {"page", "2"}});
  EXPECT_EQ(url_of(q),
            "https://www.redfin.com/city/16163/WA/Seattle/filter/sort=lo-price,"
            "property-type=house+townhouse,min-price=550k,max-price=2.25M,min-beds=2,max-beds=4,"
            "min-sqft=2.25k-sqft,max-lot-size=9.5k-sqft,min-year-built=1980,max-stories=1,"
            "min-baths=1.5,hoa=0,financing-type=VA,include=forsale+fsbo+construction,status=active+"
            "comingsoon,"
            "max-days-on-market=1wk,min-parking=2,pool-type=either,"
            "basement-type=finished+unfinished,exclude-land-lease,exclude-short-sale,"
            "exclude-age-restricted/page-2");
}

TEST(RedfinListingUrl, FilterItemsOfEveryOtherParameter) {
  auto items = [](const QueryParams& q) { return filter_items(listing().validate(q)); };
  EXPECT_EQ(items(with(kSale, {{"monthlyPayment[min]", "1000"},
                               {"monthlyPayment[max]", "3500"},
                               {"monthlyPayment[interestRate]", "6.5"},
                               {"monthlyPayment[insuranceRate]", "0.3"},
                               {"monthlyPayment[downPaymentPercent]", "20"},
                               {"monthlyPayment[mortgageTerm]", "15-year-fixed"},
                               {"cost[pricePerSqft][min]", "250"},
                               {"cost[maxPropertyTaxPerYear]", "12000"},
                               {"cost[priceReduced]", "1wk"},
                               {"listingType[redfinListingsOnly]", "true"},
                               {"openHouseAndTour[openHouse]", "this-weekend"},
                               {"openHouseAndTour[videoTour]", "true"},
                               {"homeFeatures[options][]", "water-front"},
                               {"homeFeatures[options][]", "air-conditioning"},
                               {"homeFeatures[keywordSearch]", "view deck"},
                               {"schools[greatSchoolRating]", "7"},
                               {"schools[schoolType][]", "elementary"},
                               {"schools[includeUnratedSchools]", "true"},
                               {"transportScores[walkScore]", "70"},
                               {"transportScores[transitScore]", "50"},
                               {"transportScores[bikeScore]", "60"}})),
            (std::vector<std::string>{"min-monthly-payment=1k",
                                      "max-monthly-payment=3.5k",
                                      "min-price-per-sqft=250",
                                      "interest-rate=6.5",
                                      "insurance-rate=0.3",
                                      "down-payment-percent=20",
                                      "mortgage-term=15-year-fixed",
                                      "max-property-tax=12k",
                                      "price-reduced=1wk",
                                      "open-house-time=this-weekend",
                                      "water-front",
                                      "air-conditioning",
                                      "remarks=view%20deck",
                                      "school-rating=7",
                                      "school-types=elementary",
                                      "walk-score=70",
                                      "transit-score=50",
                                      "bike-score=60",
                                      "redfin-listings-only",
                                      "has-video-tour",
                                      "include-unrated-schools"}));
  EXPECT_EQ(items(with(kRent, {{"homeTypes[]", "apartment"},
                               {"forRentSquareFootage[min]", "750"},
                               {"moveInDate", "06/01/2030"},
                               {"rentalAmenities[]", "has-dishwasher"},
                               {"rentalAmenities[]", "has-parking"},
                               {"rentalOtherTerms[]", "is-furnished"},
                               {"pets[]", "cats-allowed"},
                               {"onlyWithDealOrPromotion", "true"}})),
            (std::vector<std::string>{"property-type=apartment", "min-sqft=750-sqft",
                                      "move-in-date=6%2F1%2F2030", "has-dishwasher", "has-parking",
                                      "is-furnished", "cats-allowed", "has-deal"}));
  EXPECT_EQ(items(with(kSale, {{"monthlyPayment[downPaymentAmount]", "100000"}})),
            (std::vector<std::string>{"down-payment=100k"}));
  EXPECT_EQ(items(with(kSale, {{"price[min]", "1234.5"}})),
            (std::vector<std::string>{"min-price=1234.5"}));
  EXPECT_EQ(items(with(kSale, {{"price[min]", "999.125"}, {"price[max]", "1000000"}})),
            (std::vector<std::string>{"min-price=999.125", "max-price=1M"}));
}

// The real gis search JSON of the fixtures (89 homes[] objects, unchanged) in the shape
// listing.js returns a search page's reading.
json seattle_reading(const std::string& url) {
  return {{"kind", "search"},
          {"url", url},
          {"hasState", true},
          {"source", "dataCache"},
          {"resultCode", 0},
          {"homes", testing::read_json_file(gleaner::testing::site_page(
                        "redfin", "homes-listing/redfin-gis-homes-scrapfly.json"))}};
}

TEST(RedfinListingShape, TheRealGisHomesOfASeattleSearch) {
  const json b = listing().shape(seattle_reading("https://www.redfin.com/city/16163/WA/Seattle"),
                                 listing().validate(kSale));
  EXPECT_EQ(b["searchInformation"], (json{{"keyword", "Seattle, WA"}, {"type", "forSale"}}));
  EXPECT_EQ(b["pagination"], (json{{"currentPage", 1}}));
  ASSERT_EQ(b["properties"].size(), 89u);
  const json& first = b["properties"][0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["propertyId"], "46456");
  EXPECT_EQ(first["listingId"], "178262671");
  EXPECT_EQ(first["mlsId"], "2180345");
  EXPECT_EQ(first["link"],
            "https://www.redfin.com/WA/Seattle/506-E-Howell-St-98122/unit-W303/home/46456");
  EXPECT_EQ(first["address"], (json{{"street", "506 E Howell St Unit W303"},
                                    {"city", "Seattle"},
                                    {"state", "WA"},
                                    {"postalCode", "98122"}}));
  EXPECT_EQ(first["price"], "$360,000");
  EXPECT_EQ(first["extractedPrice"], 360000);
  EXPECT_EQ(first["currency"], "USD");
  EXPECT_EQ(first["beds"], 1);
  EXPECT_EQ(first["baths"], 1.0);
  EXPECT_EQ(first["sqft"], 566);
  EXPECT_EQ(first["pricePerSqft"], 636);
  EXPECT_EQ(first["hoa"], 427);
  EXPECT_EQ(first["yearBuilt"], 1992);
  EXPECT_EQ(first["daysOnMarket"], 1);
  EXPECT_EQ(first["status"], "Active");
  EXPECT_EQ(first["broker"], "Redfin");
  EXPECT_EQ(first["location"], (json{{"latitude", 47.6180415}, {"longitude", -122.3249551}}));
  EXPECT_FALSE(first.contains("lotSize"));   // {"level": 1} without a value
  EXPECT_FALSE(first.contains("soldDate"));  // a last sale, not this listing's: for sold only

  const json& second = b["properties"][1];
  EXPECT_EQ(second["address"]["street"], "1105 Spring St #405");
  EXPECT_EQ(second["extractedPrice"], 305000);
  EXPECT_EQ(second["sqft"], 600);
  EXPECT_EQ(second["mlsId"], "2180114");
  const json& third = b["properties"][2];
  EXPECT_EQ(third["address"]["street"], "4626 S Myrtle St");
  EXPECT_EQ(third["address"]["postalCode"], "98118");
  EXPECT_EQ(third["price"], "$774,888");
  EXPECT_EQ(third["beds"], 5);
  EXPECT_EQ(third["baths"], 3.0);
  EXPECT_EQ(third["sqft"], 2070);
  EXPECT_EQ(third["mlsId"], "2176029");
  EXPECT_EQ(third["propertyId"], "173986");
  const json& fourth = b["properties"][3];
  EXPECT_EQ(fourth["address"]["street"], "9657 18th Ave SW");
  EXPECT_EQ(fourth["extractedPrice"], 645000);
  EXPECT_EQ(fourth["baths"], 2.5);
  EXPECT_EQ(fourth["sqft"], 2380);
  EXPECT_EQ(fourth["mlsId"], "2179443");

  int shoreline = 0;
  for (const json& p : b["properties"]) {
    if (p["address"]["city"] == "Shoreline") {
      ++shoreline;
      EXPECT_EQ(p["link"],
                "https://www.redfin.com/WA/Shoreline/14615-12th-Ave-NE-98155/home/86603");
      EXPECT_EQ(p["address"]["postalCode"], "98155");
    }
    EXPECT_TRUE(p["extractedPrice"].is_number()) << p.dump();
    EXPECT_TRUE(p["link"].get<std::string>().starts_with("https://www.redfin.com/WA/")) << p.dump();
  }
  EXPECT_EQ(shoreline, 1);
  EXPECT_EQ(b["properties"][88]["position"], 89);
}

TEST(RedfinListingShape, SoldDatesOnlyForSoldSearchesAndCadOnRedfinCa) {
  const json sold = listing().shape(seattle_reading("https://www.redfin.com/city/16163/WA/Seattle"),
                                    listing().validate(kSold));
  EXPECT_EQ(sold["properties"][0]["soldDate"], "2005-10-31");  // soldDate 1130745600000
  const json ca = listing().shape(seattle_reading("https://www.redfin.ca/city/3790/BC/Vancouver"),
                                  listing().validate(kSale));
  EXPECT_EQ(ca["properties"][0]["currency"], "CAD");
  EXPECT_EQ(ca["properties"][0]["link"],
            "https://www.redfin.ca/WA/Seattle/506-E-Howell-St-98122/unit-W303/home/46456");
}

TEST(RedfinListingShape, NoResultsAndPagesWithoutTheSearchAnswer) {
  const ValidatedParams p = listing().validate(with(kSale, {{"page", "4"}}));
  const json empty = listing().shape(json{{"kind", "search"},
                                          {"url", "https://www.redfin.com/city/16163/WA/Seattle"},
                                          {"resultCode", 0},
                                          {"homes", json::array()}},
                                     p);
  EXPECT_EQ(empty["properties"], json::array());
  EXPECT_EQ(empty["pagination"]["currentPage"], 4);
  EXPECT_TRUE(listing().has_content(empty));
  EXPECT_EQ(testing::error_of_shape(listing(), json{{"kind", "search"}, {"homes", nullptr}}, p),
            ErrorCode::ExtractionFailed);
  EXPECT_EQ(
      testing::error_of_shape(
          listing(), json{{"kind", "search"}, {"resultCode", 100}, {"homes", json::array()}}, p),
      ErrorCode::UpstreamError);
  EXPECT_EQ(testing::error_of_shape(listing(), json{{"kind", "autocomplete"}}, p),
            ErrorCode::Internal);
  EXPECT_TRUE(listing().data_without_text(json{{"homes", json::array()}}));
  EXPECT_FALSE(listing().data_without_text(json{{"homes", nullptr}}));
}

}  // namespace
}  // namespace gleaner::extract::redfin
