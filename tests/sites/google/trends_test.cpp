// GET /scrape/google-trends/search without a browser: its parameters as hosted.md #18 declares
// them, the explore call built, and the shaping of trends.js output recorded on the site's real
// answers (tests/sites/google/data/trends/).
#include "extract/sites/google/trends.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

const Endpoint& trends() {
  return trends_endpoint();
}

TEST(Trends, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google-trends/search"), &trends());
  EXPECT_EQ(trends().default_cost(), 5);
}

TEST(Trends, BuildsTheExploreCallAsThePageMakesIt) {
  const PageRequest r = trends().build_request(trends().validate({{"q", "pizza, bagel"},
                                                                  {"geo", "us-ca"},
                                                                  {"cat", "71"},
                                                                  {"gprop", "youtube"},
                                                                  {"tz", "-60"}}));
  const std::string req = nlohmann::json{
      {"comparisonItem",
       {{{"keyword", "pizza"}, {"time", "today 12-m"}, {"geo", "US-CA"}},
        {{"keyword", "bagel"}, {"time", "today 12-m"}, {"geo", "US-CA"}}}},
      {"category", 71},
      {"property", "youtube"}}.dump();
  EXPECT_EQ(r.url,
            "https://trends.google.com/trends/api/explore?hl=en-US&tz=-60&req=" + form_encode(req));
  EXPECT_EQ(r.script_args["dataType"], "timeseries");
}

TEST(Trends, RefusesWhatHostedMdRefuses) {
  const std::vector<QueryParams> refused = {{{"q", "a,b,c,d,e,f"}},
                                            {{"q", "a,b"}, {"dataType", "relatedQueries"}},
                                            {{"q", "a"}, {"region", "city"}},
                                            {{"q", "a"}, {"geo", "USA-CALIFORNIA"}},
                                            {{"q", "a"}, {"cat", "pizza"}},
                                            {{"q", "a"}, {"tz", "1440"}},
                                            {{"q", "a"}, {"gprop", "web"}},
                                            {{"q", "a"}, {"date", "last year"}},
                                            {{"q", " , "}}};
  for (const QueryParams& q : refused) {
    EXPECT_THROW(trends().validate(q), Error) << q.begin()->second;
  }
  for (const QueryParams& q : std::vector<QueryParams>{
           {{"q", "a,b,c,d,e"}, {"dataType", "geoMap"}, {"region", "dma"}, {"geo", "US-AL-630"}},
           {{"q", "a"}, {"date", "2024-01-01T05 2024-01-03T05"}, {"cat", "1133"}},
           {{"q", "a"}, {"date", "now 4-H"}, {"tz", "-1439"}}}) {
    EXPECT_NO_THROW(trends().validate(q));
  }
}

TEST(TrendsShape, RecordedAnswers) {
  const auto series =
      shape_trends(testing::recorded("google/data/trends/pizza-bagel-timeseries.json"),
                   "timeseries", {"pizza", "bagel"});
  EXPECT_EQ(series["interestOverTime"]["timelineData"].size(), 5u);
  EXPECT_TRUE(trends().has_content(series));
  const auto topics =
      shape_trends(testing::recorded("google/data/trends/pizza-related-topics.json"),
                   "relatedTopics", {"pizza"});
  EXPECT_EQ(topics["relatedTopics"]["rising"][1]["value"], "+160%");
  EXPECT_EQ(topics["relatedTopics"]["rising"][1]["topic"]["title"], "Detroit-style pizza");
}

TEST(TrendsShape, NoExploreAnswerIsNoContentAndARefusalIsAWall) {
  EXPECT_FALSE(trends().has_content(shape_trends({{"explore", nullptr}}, "timeseries", {"a"})));
  // A term too rare to chart: the explore answer names no widget for it; an empty answer.
  const auto empty =
      shape_trends({{"explore", {{"widgets", nlohmann::json::array()}}}, {"widget", nullptr}},
                   "relatedQueries", {"a"});
  EXPECT_TRUE(empty["relatedQueries"]["top"].empty());
  EXPECT_TRUE(trends().has_content(empty));
  try {
    shape_trends({{"explore", {{"widgets", {"TIMESERIES"}}}}, {"status", 429}}, "timeseries",
                 {"a"});
    ADD_FAILURE() << "a 429 was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
  }
}

TEST(TrendsTerms, CommaSeparatedAndTrimmed) {
  EXPECT_EQ(trends_terms(" pizza ,bagel,, "), (std::vector<std::string>{"pizza", "bagel"}));
}

}  // namespace
}  // namespace gleaner::extract::google
