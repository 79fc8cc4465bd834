// GET /scrape/careers/listing without a browser: parameters, the search URL, the service's page
// tokens (alone, with matching and with conflicting parameters), and the shaping of listing.js's
// recorded output on the two real Glassdoor pages of the fixtures: a 2020 search page of the older
// layout (30 job cards, 43 jobs) and a 2025 UK page whose search results are empty.
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/sites/common/text.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::glassdoor {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& listing() {
  return listing_endpoint();
}
const QueryParams kSearch = {
    {"keyword", "hackerrank"}, {"location", "Australia"}, {"domain", "glassdoor.co.in"}};

json hackerrank() {
  return testing::recorded("glassdoor/data/listing/hackerrank-australia-2020_script_output.json");
}

TEST(GlassdoorListingParameters, EveryRule) {
  EXPECT_EQ(rejection(listing(), {{"location", "x"}}),
            refused(ErrorCode::MissingParameter, "keyword"));
  EXPECT_EQ(rejection(listing(), {{"keyword", "x"}}),
            refused(ErrorCode::MissingParameter, "location"));
  auto with = [](std::string k, std::string v) {
    QueryParams q = kSearch;
    q.emplace(std::move(k), std::move(v));
    return rejection(listing(), q);
  };
  EXPECT_EQ(with("sort", "oldest"), refused(ErrorCode::InvalidParameter, "sort"));
  EXPECT_EQ(with("domain", "glassdoor.xyz"), refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(with("datePosted", "0"), refused(ErrorCode::InvalidParameter, "datePosted"));
  EXPECT_EQ(with("radius", "-1"), refused(ErrorCode::InvalidParameter, "radius"));
  EXPECT_EQ(with("radius", "0"), refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(with("minSalary", "-5"), refused(ErrorCode::InvalidParameter, "minSalary"));
  EXPECT_EQ(with("minRating", "5.5"), refused(ErrorCode::InvalidParameter, "minRating"));
  EXPECT_EQ(with("easyApplyOnly", "sure"), refused(ErrorCode::InvalidParameter, "easyApplyOnly"));
  EXPECT_EQ(with("maxSalary", "90000"), refused(ErrorCode::Internal, "accepted"));  // alone
  QueryParams both = kSearch;
  both.emplace("minSalary", "90000");
  both.emplace("maxSalary", "90000");
  EXPECT_EQ(rejection(listing(), both), refused(ErrorCode::InvalidParameter, "maxSalary"));
  EXPECT_EQ(with("nextPageToken", "not a token!"),
            refused(ErrorCode::InvalidParameter, "nextPageToken"));
  EXPECT_EQ(with("nextPageToken", base64url_encode("{\"x\":1}")),
            refused(ErrorCode::InvalidParameter, "nextPageToken"));
}

TEST(GlassdoorListingUrl, TheSearchAPersonMakes) {
  auto url = [](const QueryParams& q) {
    return listing().build_request(listing().validate(q)).url;
  };
  EXPECT_EQ(url(kSearch),
            "https://www.glassdoor.co.in/Job/"
            "jobs.htm?sc.keyword=hackerrank&locKeyword=Australia&sortBy=date_desc");
  EXPECT_EQ(url({{"keyword", "data analyst"},
                 {"location", "New York, NY"},
                 {"sort", "relevant"},
                 {"datePosted", "7"},
                 {"radius", "0"},
                 {"minSalary", "80000"},
                 {"maxSalary", "120000"},
                 {"minRating", "3.5"},
                 {"easyApplyOnly", "true"},
                 {"remoteOnly", "true"}}),
            "https://www.glassdoor.com/Job/"
            "jobs.htm?sc.keyword=data+analyst&locKeyword=New+York%2C+NY&sortBy=relevance"
            "&fromAge=7&radius=0&minSalary=80000&maxSalary=120000&minRating=3.5&applicationType=1&"
            "remoteWorkType=1");
  EXPECT_EQ(listing().route(), "careers/listing");
}

TEST(GlassdoorListingShape, TheOlderLayoutsCards) {
  const json b = listing().shape(hackerrank(), listing().validate(kSearch));
  EXPECT_EQ(b["searchInformation"]["totalResults"], 43);
  ASSERT_EQ(b["jobs"].size(), 30u);
  const json& first = b["jobs"][0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["jobId"], "3480318629");
  EXPECT_EQ(first["title"], "Sr. Strategy & Planning Associate");
  EXPECT_EQ(first["company"], (json{{"name", "Uber"}, {"rating", 3.7}}));
  EXPECT_EQ(first["location"], "Sydney");
  EXPECT_EQ(first["ageInDays"], 3);
  EXPECT_EQ(first["easyApply"], false);
  EXPECT_TRUE(first["link"].get<std::string>().starts_with(
      "https://www.glassdoor.co.in/partner/jobListing.htm?pos=101"));
  EXPECT_EQ(b["jobs"][5]["company"]["name"], "Zendesk");
  EXPECT_EQ(b["jobs"][5]["ageInDays"], 0);  // "24 hr"
  ASSERT_TRUE(b["pagination"].contains("nextPageToken"));
}

TEST(GlassdoorListingShape, ATokenIsEnoughAndRefusesConflictingFilters) {
  const std::string token =
      listing().shape(hackerrank(), listing().validate(kSearch))["pagination"]["nextPageToken"];
  auto url = [](const QueryParams& q) {
    return listing().build_request(listing().validate(q)).url;
  };
  EXPECT_EQ(url({{"nextPageToken", token}}),
            "https://www.glassdoor.co.in/Job/"
            "jobs.htm?sc.keyword=hackerrank&locKeyword=Australia&sortBy=date_desc&p=2");
  EXPECT_EQ(url({{"nextPageToken", token}, {"keyword", "hackerrank"}}),
            url({{"nextPageToken", token}}));  // resending the same filters is fine
  EXPECT_EQ(rejection(listing(), {{"nextPageToken", token}, {"location", "India"}}),
            refused(ErrorCode::ConflictingParameters, "location"));
  EXPECT_EQ(rejection(listing(), {{"nextPageToken", token}, {"remoteOnly", "true"}}),
            refused(ErrorCode::ConflictingParameters, "remoteOnly"));
  // Page 2 continues the positions.
  const json b = listing().shape(hackerrank(), listing().validate({{"nextPageToken", token}}));
  EXPECT_EQ(b["jobs"][0]["position"], 31);
  EXPECT_FALSE(b["pagination"].contains("nextPageToken"));  // 43 jobs: page 2 is the last
}

TEST(GlassdoorListingShape, NoJobsOnlyWhereTheSiteSaysSo) {
  const json empty =
      testing::recorded("glassdoor/data/listing/uk-no-results-2025_script_output.json");
  const json b = listing().shape(
      empty, listing().validate(
                 {{"keyword", "x"}, {"location", "London"}, {"domain", "glassdoor.co.uk"}}));
  EXPECT_EQ(b["jobs"], json::array());
  EXPECT_FALSE(b["pagination"].contains("nextPageToken"));
  EXPECT_EQ(testing::error_of_shape(listing(), json{{"cards", json::array()}},
                                    listing().validate(kSearch)),
            ErrorCode::ExtractionFailed);
}

TEST(GlassdoorListingShape, ApolloListingsInTheSitesDocumentedShape) {
  // Written for this test in the structure the site's JobListingSearchResults use (no search page
  // of 2022 or later with results is among the fixtures): what listing.js returns for one listing.
  const json out = {{"searchFound", true},
                    {"total", 812},
                    {"cursors", {{{"pageNumber", 2}, {"cursor", "AB4AAYEAHgAAAAAAAAAAAAAAAg"}}}},
                    {"listings",
                     {{{"listingId", 1009071234567LL},
                       {"title", "Data Analyst"},
                       {"employer", "Acme"},
                       {"rating", 4.1},
                       {"location", "London"},
                       {"link", "/job-listing/data-analyst-acme-JV_IC2671300.htm?jl=1009071234567"},
                       {"ageInDays", 2},
                       {"easyApply", true},
                       {"payPeriod", "ANNUAL"},
                       {"pay", {{"p10", 38000}, {"p50", 45000}, {"p90", 52000}}},
                       {"payCurrency", "GBP"}}}}};
  const json b = listing().shape(
      out, listing().validate(
               {{"keyword", "x"}, {"location", "London"}, {"domain", "glassdoor.co.uk"}}));
  const json& j = b["jobs"][0];
  EXPECT_EQ(j["jobId"], "1009071234567");
  EXPECT_EQ(j["salary"],
            (json{{"min", 38000}, {"max", 52000}, {"currency", "GBP"}, {"period", "year"}}));
  EXPECT_EQ(j["link"],
            "https://www.glassdoor.co.uk/job-listing/"
            "data-analyst-acme-JV_IC2671300.htm?jl=1009071234567");
  const auto token = base64url_decode(b["pagination"]["nextPageToken"].get<std::string>());
  ASSERT_TRUE(token);
  EXPECT_EQ(json::parse(*token)["c"], "AB4AAYEAHgAAAAAAAAAAAAAAAg");
}

}  // namespace
}  // namespace gleaner::extract::glassdoor
