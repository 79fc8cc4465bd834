// GET /scrape/google-light/serp without a browser: its parameters (hosted.md #14, as the hosted
// client sends them), the URL of the basic page, and the shaping of light.js output recorded on
// the two real no-JS pages (tests/sites/google/data/light/).
#include "extract/sites/google/light.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

std::string url_for(const QueryParams& query) {
  return light_endpoint().build_request(light_endpoint().validate(query)).url;
}

TEST(LightSerp, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google-light/serp"), &light_endpoint());
  EXPECT_EQ(light_endpoint().default_cost(), 5);
}

TEST(LightSerp, BuildsTheBasicPagesUrl) {
  EXPECT_EQ(url_for({{"q", "coffee"}}), "https://www.google.com/search?q=coffee&gbv=1");
  EXPECT_EQ(url_for({{"q", "hotels NYC"},
                     {"domain", "google.co.uk"},
                     {"gl", "uk"},
                     {"hl", "en"},
                     {"start", "20"},
                     {"num", "20"},
                     {"tbs", "qdr:d10"},
                     {"safe", "active"},
                     {"filter", "0"},
                     {"lr[0]", "lang_de"},
                     {"lr[1]", "lang_fr"}}),
            "https://www.google.co.uk/search?q=hotels+NYC&gl=uk&hl=en&start=20&num=20&filter=0"
            "&safe=active&tbs=qdr%3Ad10&lr=lang_de%7Clang_fr&gbv=1");
  const PageRequest request =
      light_endpoint().build_request(light_endpoint().validate({{"q", "x"}}));
  EXPECT_FALSE(request.profile.run_scripts);
}

TEST(LightSerp, RefusesWhatHostedMdRefuses) {
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"num", "101"},
                                                        {"filter", "2"},
                                                        {"safe", "strict"},
                                                        {"start", "-10"},
                                                        {"tbm", "isch"}}) {
    SCOPED_TRACE(name);
    try {
      light_endpoint().validate({{"q", "x"}, {name, value}});
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    }
  }
}

TEST(LightSerpShape, CoffeePage) {
  const auto body = shape_light(testing::recorded("google/data/light/coffee.json"), 0);
  ASSERT_EQ(body["organicResults"].size(), 10u);
  EXPECT_EQ(body["organicResults"][6]["date"], "Apr 29, 2023");
  EXPECT_EQ(body["organicResults"][6]["source"], "www.britannica.com");
  EXPECT_FALSE(body["organicResults"][1].contains("date"));
  EXPECT_TRUE(light_endpoint().has_content(body));
  EXPECT_FALSE(light_endpoint().has_content(shape_light(nlohmann::json::object(), 0)));
}

}  // namespace
}  // namespace gleaner::extract::google
