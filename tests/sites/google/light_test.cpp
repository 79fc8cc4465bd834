// GET /scrape/google-light/serp without a browser: its parameters (hosted.md #14, as the hosted
// client sends them), the URL of the basic page, the C++ reader of the real no-JS pages
// (tests/sites/google/pages/google-light-serp) as the plain road hands them over, and the shaping
// of what it reads (recorded in tests/sites/google/data/light/).
#include "extract/sites/google/light.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "extract/plain/charset.h"
#include "extract/registry.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
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

// A real page of Google's as the plain road hands it over (`file` under pages/): its bytes decoded
// as a browser decodes them under `content_type`.
Document google_page(const std::string& file, const std::string& url,
                     const std::string& content_type = "text/html") {
  std::ifstream in(gleaner::testing::site_page("google", file), std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  Document page;
  page.url = url;
  page.status = 200;
  page.content_type = "text/html";
  page.text = plain::to_utf8(bytes.str(), plain::sniff_charset(bytes.str(), content_type));
  return page;
}

Document basic_page(const std::string& file, const std::string& url,
                    const std::string& content_type = "text/html") {
  return google_page("google-light-serp/" + file, url, content_type);
}

TEST(LightSerpReader, ReadsThePagesAsRecorded) {
  for (const auto& [file, url, recording] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"serp-parser_nojs_coffee_en_2023-06.html",
            "https://www.google.com/search?q=coffee&gbv=1", "coffee.json"},
           {"serp-parser_nojs_hotels-nyc_en_2023-06.html",
            "https://www.google.com/search?q=hotels+NYC&gbv=1", "hotels-nyc.json"}}) {
    SCOPED_TRACE(file);
    EXPECT_EQ(read_light_page(basic_page(file, url)),
              testing::recorded("google/data/light/" + recording));
  }
}

// Google names ISO-8859-1 in the content-type of its Portuguese basic page, whose meta says UTF-8.
TEST(LightSerpReader, APortuguesePageInIso88591ReadsAsTheUserReadsIt) {
  const auto page = read_light_page(basic_page(
      "serp-parser_nojs_coffee_ptPT_iso-8859-1_2020-10.html",
      "https://www.google.com/search?q=coffee&hl=pt-PT&gbv=1", "text/html; charset=ISO-8859-1"));
  ASSERT_EQ(page["organic"].size(), 10u);
  EXPECT_EQ(page["organic"][2]["title"], "F\u00e1brica Coffee Roasters");
  EXPECT_EQ(page["related"][0]["query"], "coffee (tradu\u00e7\u00e3o)");
}

TEST(LightSerpReader, ResultLinksLeadWhereGooglesRedirectSends) {
  const auto page = read_light_page(basic_page("serp-parser_nojs_the-matrix_en_2020-10.html",
                                               "https://www.google.com/search?q=The+Matrix&gbv=1"));
  EXPECT_EQ(page["organic"][0]["link"], "https://en.wikipedia.org/wiki/The_Matrix");
  EXPECT_EQ(
      page["related"][0]["link"].get<std::string>().rfind("https://www.google.com/search?", 0), 0u);
}

TEST(LightSerpReader, AGooglePageOfAnotherKindHoldsNothing) {
  const Document sorry = google_page("blocks/google-search-sorry-captcha-fr-2025-11.html",
                                     "https://www.google.com/sorry/index?continue=x&q=coffee");
  EXPECT_FALSE(light_endpoint().has_content(light_endpoint().shape(
      read_light_page(sorry), light_endpoint().validate({{"q", "coffee"}}))));
}

}  // namespace
}  // namespace gleaner::extract::google
