// GET /scrape/google-maps/search without a browser: parameters as the hosted client sends them
// (hosted.md #10), the URL built, and the shaping of maps_search.js output recorded on the real
// rendered results feeds (tests/sites/google/data/maps_search/: two fr-MA captures of one search,
// 2025, and two English ones, 2026).
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

const Endpoint& endpoint() {
  return maps_search_endpoint();
}

std::string url_for(const QueryParams& query) {
  return endpoint().build_request(endpoint().validate(query)).url;
}

json shaped(const std::string& recording, const QueryParams& query) {
  return endpoint().shape(testing::recorded("google/data/maps_search/" + recording),
                          endpoint().validate(query));
}

TEST(MapsSearch, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google-maps/search"), &endpoint());
  EXPECT_EQ(endpoint().default_cost(), 5);
}

TEST(MapsSearch, BuildsTheMapsSearchUrl) {
  EXPECT_EQ(url_for({{"q", "Concepteur de sites Web fes"}}),
            "https://www.google.com/maps/search/Concepteur+de+sites+Web+fes");
  EXPECT_EQ(url_for({{"q", "pizza"},
                     {"ll", "@40.7455096,-74.0083012,14z"},
                     {"start", "20"},
                     {"hl", "en"},
                     {"gl", "US"},
                     {"domain", "google.co.uk"}}),
            "https://www.google.co.uk/maps/search/pizza/@40.7455096,-74.0083012,14z?hl=en&gl=us");
  const PageRequest request = endpoint().build_request(endpoint().validate(
      {{"q", "pizza"}, {"ll", "@40.7455096,-74.0083012,14z"}, {"start", "40"}, {"hl", "fr"}}));
  // The feed is scrolled until it holds the third page of 20.
  EXPECT_EQ(request.script_args["limit"], 60);
  EXPECT_EQ(request.profile.headers.at("Accept-Language"), "fr");
  EXPECT_TRUE(request.profile.painted);
}

TEST(MapsSearch, RefusesWhatHostedMdRefuses) {
  // `start` needs `ll` (hosted.md: "Required when start is set").
  EXPECT_EQ(testing::rejection(endpoint(), {{"q", "pizza"}, {"start", "20"}}),
            testing::refused(ErrorCode::MissingParameter, "ll"));
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"ll", "40.7,-74.0"}, {"ll", "@40.7,-74.0"}, {"start", "-20"}, {"gl", "usa"}}) {
    SCOPED_TRACE(name + "=" + value);
    EXPECT_THROW(
        endpoint().validate({{"q", "x"}, {"ll", "@40.7455096,-74.0083012,14z"}, {name, value}}),
        Error);
  }
  EXPECT_EQ(testing::rejection(endpoint(), {}), testing::refused(ErrorCode::MissingParameter, "q"));
}

TEST(MapsSearchShape, TheFrenchFeedAsHostedMdShapesIt) {
  const json body = shaped("concepteur-fes.json", {{"q", "Concepteur de sites Web fes"}});
  const json& results = body["localResults"];
  ASSERT_EQ(results.size(), 8u);
  EXPECT_EQ(
      results[0],
      json::parse(R"({"position": 1, "title": "Appbox", "placeId": "ChIJYwizTz-Lnw0RmYQJbcyLl8w",
              "dataId": "0xd9f8b3f4fb30863:0xcc978bcc6d098499", "kgmid": "/g/11g6blzg5x",
              "address": "N2 immeuble 34.av des FAR.FES MAROC",
              "gpsCoordinates": {"latitude": 34.03098, "longitude": -4.9930138},
              "rating": 4.4, "reviews": 14, "type": "Concepteur de sites Web",
              "types": ["Concepteur de sites Web"], "openState": "Ouvert 24h/24",
              "phone": "0690-402020"})"));
  EXPECT_EQ(results[1]["title"], "Metagroup création site web fés");
  EXPECT_EQ(results[7]["position"], 8);
  EXPECT_TRUE(endpoint().has_content(body));
}

TEST(MapsSearchShape, TheSecondCaptureListsTheSamePlacesInAnotherOrder) {
  const json first = shaped("concepteur-fes.json", {{"q", "x"}});
  const json second = shaped("concepteur-fes-second-capture.json", {{"q", "x"}});
  ASSERT_EQ(second["localResults"].size(), 7u);
  EXPECT_EQ(second["localResults"][0]["title"], "Metagroup création site web fés");
  // The same place in both captures: the same ids, wherever it is listed.
  for (const json& a : first["localResults"]) {
    for (const json& b : second["localResults"]) {
      if (a["placeId"] == b["placeId"]) {
        EXPECT_EQ(a["title"], b["title"]);
      }
    }
  }
}

TEST(MapsSearchShape, StartTakesTheNextPageOfTheFeed) {
  const json all = shaped("griffith.json", {{"q", "griffith"}});
  ASSERT_EQ(all["localResults"].size(), 10u);
  const json from_four = endpoint().shape(
      testing::recorded("google/data/maps_search/griffith.json"),
      endpoint().validate({{"q", "griffith"}, {"ll", "@34.1,-118.3,13z"}, {"start", "4"}}));
  ASSERT_EQ(from_four["localResults"].size(), 6u);
  EXPECT_EQ(from_four["localResults"][0]["position"], 5);
  EXPECT_EQ(from_four["localResults"][0], all["localResults"][4]);
  // Past the end of what the feed held: nothing, which is no content.
  const json past = endpoint().shape(
      testing::recorded("google/data/maps_search/griffith.json"),
      endpoint().validate({{"q", "griffith"}, {"ll", "@34.1,-118.3,13z"}, {"start", "20"}}));
  EXPECT_FALSE(endpoint().has_content(past));
}

TEST(MapsSearchShape, EnglishCardsWithADescriptionLine) {
  const json body = shaped("museums.json", {{"q", "museums in New York"}});
  const json& met = body["localResults"][0];
  EXPECT_EQ(met["description"], "World-class art collection");
  EXPECT_EQ(met["openState"], "Closed · Opens 10 AM");
  EXPECT_EQ(met["kgmid"], "/m/09c7b");
  EXPECT_TRUE(
      met["thumbnail"].get<std::string>().starts_with("https://lh3.googleusercontent.com/"));
  // The Frick's card has no description line: its opening line is not one.
  const json& frick = body["localResults"][7];
  EXPECT_EQ(frick["title"], "The Frick Collection");
  EXPECT_FALSE(frick.contains("description"));
  EXPECT_EQ(frick["openState"], "Closed · Opens 10:30 AM");
}

}  // namespace
}  // namespace gleaner::extract::google
