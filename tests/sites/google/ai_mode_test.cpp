// GET /scrape/google/ai-mode without a browser: the page it asks for (the results page in AI
// Mode, udm=50, with the search's locale), what the parameters refuse, and the shaping of what
// serp.js reads on it (recorded on the real capture: tests/sites/google/data/ai_mode/).
#include "extract/sites/google/ai_mode.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

const Endpoint& endpoint() {
  return ai_mode_endpoint();
}

std::string url_for(const QueryParams& query) {
  return endpoint().build_request(endpoint().validate(query)).url;
}

TEST(AiMode, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google/ai-mode"), &endpoint());
  EXPECT_EQ(endpoint().default_cost(), 5);
}

TEST(AiMode, AsksTheResultsPageInAiModeWhereTheSearchIsMade) {
  EXPECT_EQ(url_for({{"q", "how to boil eggs"}}),
            "https://www.google.com/search?q=how+to+boil+eggs&udm=50");
  EXPECT_EQ(url_for({{"q", "how to boil eggs"}, {"gl", "us"}, {"hl", "en"}}),
            "https://www.google.com/search?q=how+to+boil+eggs&gl=us&hl=en&udm=50");
  const std::string located = url_for({{"q", "x"}, {"location", "Austin,Texas,United States"}});
  EXPECT_NE(located.find("&uule=w%2BCAIQICI"), std::string::npos) << located;
  EXPECT_NE(located.find("&udm=50"), std::string::npos) << located;
  // The answer's main column is waited for: the served page draws it as the answer streams in.
  const PageRequest request = endpoint().build_request(endpoint().validate({{"q", "x"}}));
  EXPECT_EQ(request.wait.kind, WaitFor::Kind::Selector);
  EXPECT_EQ(request.wait.selector, "[data-subtree=\"aimc\"] [data-container-id=\"main-col\"]");
}

TEST(AiMode, RefusesWhatItCannotAsk) {
  for (const QueryParams& query : std::vector<QueryParams>{
           {}, {{"q", ""}}, {{"q", "x"}, {"location", "Austin"}, {"uule", "w+CAIQICI"}}}) {
    EXPECT_THROW(endpoint().validate(query), Error);
  }
}

TEST(AiMode, APageWithoutAnAnswerShapesToNothingToCharge) {
  const json body = shape_ai_mode(json{{"organic", json::array()}, {"aiOverview", nullptr}});
  EXPECT_EQ(body, (json{{"textBlocks", json::array()}, {"references", json::array()}}));
  EXPECT_FALSE(endpoint().has_content(body));
}

}  // namespace
}  // namespace gleaner::extract::google
