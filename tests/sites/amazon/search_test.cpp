// GET /scrape/amazon/search without a browser: its parameters, the results page's URL for each
// sort and page, and the shaping of search.js's recorded output on the real amazon.com, amazon.nl
// and amazon.es pages.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::amazon {
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

TEST(AmazonSearchParameters, QueryPageAndSort) {
  EXPECT_EQ(rejection(search(), {}), refused(ErrorCode::MissingParameter, "q"));
  EXPECT_EQ(rejection(search(), {{"q", "x"}, {"page", "0"}}),
            refused(ErrorCode::InvalidParameter, "page"));
  EXPECT_EQ(rejection(search(), {{"q", "x"}, {"sortBy", "cheapest"}}),
            refused(ErrorCode::InvalidParameter, "sortBy"));
  EXPECT_EQ(url_of({{"q", "RTX 4090"}}), "https://www.amazon.com/s?k=RTX+4090");
  EXPECT_EQ(url_of({{"q", "RTX 4090"}, {"sortBy", "featured"}}),
            "https://www.amazon.com/s?k=RTX+4090");
  EXPECT_EQ(url_of({{"q", "x"}, {"page", "3"}, {"sortBy", "priceLowToHigh"}}),
            "https://www.amazon.com/s?k=x&page=3&s=price-asc-rank");
  EXPECT_EQ(url_of({{"q", "x"}, {"sortBy", "bestSellers"}, {"domain", "amazon.de"}}),
            "https://www.amazon.de/s?k=x&s=exact-aware-popularity-rank");
}

TEST(AmazonSearchShape, TheRecordedRtx4090Page) {
  const json out = testing::recorded("amazon/data/search/rtx-4090_script_output.json");
  const json body = search().shape(out, search().validate({{"q", "RTX 4090"}}));
  ASSERT_EQ(body["productResults"].size(), 16u);
  EXPECT_EQ(body["productResults"][0]["price"], json({{"symbol", "$"}, {"currentPrice", 3429.99}}));
  EXPECT_EQ(body["pagination"]["totalResults"], 521);
  EXPECT_TRUE(search().has_content(body));
  // A sponsored card's title loses the label screen readers hear first.
  json sponsored = out;
  sponsored["results"][0]["title"] =
      "Sponsored Ad - " + out["results"][0]["title"].get<std::string>();
  sponsored["results"][0]["adHolder"] = true;
  const json ad = search().shape(sponsored, search().validate({{"q", "RTX 4090"}}));
  EXPECT_EQ(ad["productResults"][0]["title"], body["productResults"][0]["title"]);
  EXPECT_EQ(ad["productResults"][0]["isSponsored"], true);
  // A page without cards is one we could not read (no page of no matches was recorded).
  json empty = out;
  empty["results"] = json::array();
  EXPECT_FALSE(search().has_content(search().shape(empty, search().validate({{"q", "x"}}))));
}

// amazon.nl in English ("en-gb"): "€429.00" and "over 10,000 results" are read as the page
// writes them, not in the storefront's comma locale.
TEST(AmazonSearchShape, TheRecordedDutchStorefrontInEnglish) {
  const json out = testing::recorded("amazon/data/search/playstation-5-nl_script_output.json");
  const json body =
      search().shape(out, search().validate({{"q", "PlayStation 5"}, {"domain", "www.amazon.nl"}}));
  const json& first = body["productResults"][0];
  EXPECT_EQ(first["price"],
            json({{"symbol", "€"}, {"currentPrice", 429}, {"beforePrice", 449.99}}));
  EXPECT_EQ(first["badges"],
            json({{"amazonChoice", true}, {"amazonPrime", true}, {"bestSeller", false}}));
  EXPECT_EQ(body["pagination"]["totalResults"], 10000);
}

// amazon.es: "17,04 €", "4,8 de 5 estrellas", "más de 2.000 resultados"; a sponsored card's
// title without its Spanish ad label and its URL the product's, not the ad click's.
TEST(AmazonSearchShape, TheRecordedSpanishPage) {
  const json out = testing::recorded("amazon/data/search/god-of-war-es_script_output.json");
  const json body =
      search().shape(out, search().validate({{"q", "God of War"}, {"domain", "www.amazon.es"}}));
  const json& ad = body["productResults"][0];
  EXPECT_EQ(ad["isSponsored"], true);
  EXPECT_TRUE(ad["title"].get<std::string>().starts_with("UARJIRUHR Póster de God of War"));
  EXPECT_NE(ad["url"].get<std::string>().find("/dp/B0DQPWRJG5/"), std::string::npos);
  EXPECT_EQ(ad["url"].get<std::string>().find("/sspa/click"), std::string::npos);
  EXPECT_EQ(ad["price"], json({{"symbol", "€"}, {"currentPrice", 17.04}}));
  EXPECT_EQ(body["pagination"]["totalResults"], 2000);
}

}  // namespace
}  // namespace gleaner::extract::amazon
