// GET /scrape/google/shopping without a browser: parameters as the hosted client sends them
// (hosted.md #15), the URL built, and the shaping of shopping.js output recorded on the real
// pt-BR Shopping pages of 2021 (tests/sites/google/data/shopping/).
#include "extract/sites/google/shopping.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

std::string url_for(const QueryParams& query) {
  return shopping_endpoint().build_request(shopping_endpoint().validate(query)).url;
}

TEST(Shopping, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google/shopping"), &shopping_endpoint());
  EXPECT_EQ(shopping_endpoint().default_cost(), 10);
}

TEST(Shopping, BuildsTheShoppingSearchUrl) {
  EXPECT_EQ(url_for({{"q", "coffee maker"}}),
            "https://www.google.com/search?q=coffee+maker&tbm=shop");
  EXPECT_EQ(url_for({{"q", "coffee maker"},
                     {"domain", "google.com.br"},
                     {"gl", "br"},
                     {"hl", "pt-BR"},
                     {"start", "40"},
                     {"tbs", "mr:1,price:1,ppr_max:100"},
                     {"shoprs", "CAEYASoJY29mZmVlIG1ha2Vy"}}),
            "https://www.google.com.br/search?q=coffee+maker&gl=br&hl=pt-BR&tbm=shop&start=40"
            "&tbs=mr%3A1%2Cprice%3A1%2Cppr_max%3A100&shoprs=CAEYASoJY29mZmVlIG1ha2Vy");
  EXPECT_EQ(url_for({{"q", "x"}, {"location", "Austin,Texas,United States"}}),
            "https://www.google.com/search?q=x&uule=w%2BCAIQICIaQXVzdGluLFRleGFzLFVuaXRlZCBTdGF0ZXM"
            "&tbm=shop");
  EXPECT_EQ(shopping_endpoint()
                .build_request(shopping_endpoint().validate({{"q", "x"}, {"deviceType", "mobile"}}))
                .profile.device,
            BrowserProfile::Device::Mobile);
}

TEST(Shopping, RefusesWhatHostedMdRefuses) {
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"start", "-40"},
                                                        {"deviceType", "watch"},
                                                        {"shoprs", "not a filter"},
                                                        {"domain", "bing.com"}}) {
    SCOPED_TRACE(name);
    EXPECT_THROW(shopping_endpoint().validate({{"q", "x"}, {name, value}}), Error);
  }
  EXPECT_THROW(shopping_endpoint().validate({{"location", "Austin"}}), Error);  // q is required
}

TEST(ShoppingShape, ThePrinterSearch) {
  const auto body = shape_shopping(testing::recorded("google/data/shopping/printer.json"), 0,
                                   DecimalMark::Unknown);
  const auto& products = body["shoppingResults"];
  ASSERT_EQ(products.size(), 2u);
  EXPECT_EQ(products[0]["extractedPrice"], 455.05);  // "R$ 455,05" read as pt-BR writes it
  EXPECT_EQ(products[0]["rating"], 3.7);             // "3.7 de 5 estrelas"
  EXPECT_EQ(products[0]["reviews"], 13);             // "13 resenhas de produto"
  EXPECT_EQ(products[1]["extractedPrice"], 116.99);
  EXPECT_EQ(body["pagination"]["current"], 1);
  EXPECT_FALSE(body.contains("searchInformation"));
  EXPECT_TRUE(shopping_endpoint().has_content(body));
}

TEST(ShoppingShape, PositionsAndPageContinueFromStart) {
  const auto body = shape_shopping(testing::recorded("google/data/shopping/wrench.json"), 40,
                                   DecimalMark::Unknown);
  const auto& products = body["shoppingResults"];
  ASSERT_EQ(products.size(), 2u);
  EXPECT_EQ(products[0]["position"], 41);
  EXPECT_EQ(products[0]["productId"], "16797439570901513171");
  EXPECT_EQ(products[1]["extractedPrice"], 250.04);
  EXPECT_FALSE(products[1].contains("productId"));  // shown through its merchant's ad link only
  EXPECT_EQ(body["pagination"]["current"], 2);
}

TEST(ShoppingShape, AThousandsGroupInThePagesLanguage) {
  const auto body = shape_shopping(testing::recorded("google/data/shopping/balancer.json"), 0,
                                   DecimalMark::Unknown);
  EXPECT_EQ(body["shoppingResults"][0]["extractedPrice"], 3052.95);  // "R$ 3.052,95"
}

TEST(ShoppingShape, APageWithoutResultsIsContentAndOneWithoutProductsIsNot) {
  const auto none = shape_shopping(testing::recorded("google/data/shopping/no-results.json"), 0,
                                   DecimalMark::Unknown);
  EXPECT_TRUE(none["shoppingResults"].empty());
  EXPECT_EQ(none["searchInformation"]["noResults"], true);
  EXPECT_TRUE(shopping_endpoint().has_content(none));
  EXPECT_FALSE(shopping_endpoint().has_content(shape_shopping(
      nlohmann::json{{"products", nlohmann::json::array()}}, 0, DecimalMark::Unknown)));
}

// Each result with a product page gets a token naming that product and where it was searched;
// the caller's signature is the API layer's (extract/page_token.h), here a stand-in.
TEST(ShoppingTokens, EachResultWithAProductPageGetsItsImmersiveProductToken) {
  const ValidatedParams params =
      shopping_endpoint().validate({{"q", "7891114090307"}, {"gl", "br"}, {"hl", "pt-BR"}});
  auto body = shape_shopping(testing::recorded("google/data/shopping/wrench.json"), 0,
                             DecimalMark::Unknown);
  std::vector<nlohmann::json> minted;
  shopping_endpoint().add_page_tokens(
      body, params, [&](std::string_view kind, const nlohmann::json& claims) {
        EXPECT_EQ(kind, "google/immersive-product");
        minted.push_back(claims);
        return "token-" + std::to_string(minted.size());
      });
  const auto& products = body["shoppingResults"];
  EXPECT_EQ(products[0]["immersiveProductPageToken"], "token-1");
  EXPECT_FALSE(products[1].contains("immersiveProductPageToken"));  // no product page
  ASSERT_EQ(minted.size(), 1u);
  EXPECT_EQ(minted[0], (nlohmann::json{
                           {"productId", "16797439570901513171"}, {"gl", "br"}, {"hl", "pt-BR"}}));
}

}  // namespace
}  // namespace gleaner::extract::google
