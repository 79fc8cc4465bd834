// GET /scrape/google/immersive-product without a browser: the token's claims opening the product
// page or its seller list, what the parameters refuse, and the shaping of immersive_product.js
// output recorded on the real pt-BR pages of 2021 (tests/sites/google/data/immersive_product/).
#include "extract/sites/google/immersive_product.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/page_token.h"
#include "extract/registry.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

const Endpoint& endpoint() {
  return immersive_product_endpoint();
}

std::string token_for(const json& claims) {
  static const PageTokens tokens("the unit tests' secret, long enough");
  return tokens.mint(1, kImmersiveProductTokenKind, claims);
}

std::string url_for(const QueryParams& query) {
  return endpoint().build_request(endpoint().validate(query)).url;
}

TEST(ImmersiveProduct, AnswersAtTheClientsPathWithItsCostAndRedeemsItsToken) {
  EXPECT_EQ(find_endpoint("/scrape/google/immersive-product"), &endpoint());
  EXPECT_EQ(endpoint().default_cost(), 5);
  ASSERT_EQ(endpoint().page_tokens_taken().size(), 1u);
  EXPECT_EQ(endpoint().page_tokens_taken()[0].parameter, "pageToken");
  EXPECT_EQ(endpoint().page_tokens_taken()[0].kind, kImmersiveProductTokenKind);
}

TEST(ImmersiveProduct, OpensTheProductPageTheTokenNamesWhereItWasSearched) {
  const std::string token =
      token_for({{"productId", "13239497633151178800"}, {"gl", "br"}, {"hl", "pt-BR"}});
  EXPECT_EQ(url_for({{"pageToken", token}}),
            "https://www.google.com/shopping/product/13239497633151178800?gl=br&hl=pt-BR");
  EXPECT_EQ(url_for({{"pageToken", token}, {"moreStores", "true"}}),
            "https://www.google.com/shopping/product/13239497633151178800/online?gl=br&hl=pt-BR");
  EXPECT_EQ(url_for({{"pageToken", token}, {"moreStores", "false"}}),
            "https://www.google.com/shopping/product/13239497633151178800?gl=br&hl=pt-BR");
  // A Shopping request's domain and location come along.
  const ValidatedParams shopping = ValidatedParams(
      json{{"q", "x"}, {"domain", "google.com.br"}, {"location", "Austin,Texas,United States"}});
  EXPECT_EQ(url_for({{"pageToken", token_for(immersive_product_claims("42", shopping))}}),
            "https://www.google.com.br/shopping/product/42"
            "?uule=w%2BCAIQICIaQXVzdGluLFRleGFzLFVuaXRlZCBTdGF0ZXM");
}

TEST(ImmersiveProduct, RefusesWhatIsNoTokenOfOursAndStorePages) {
  EXPECT_EQ(testing::rejection(endpoint(), {{"moreStores", "true"}}).first,
            ErrorCode::MissingParameter);
  // The hosted service's own token shape, and a token of ours naming no product page.
  for (const std::string& bad :
       std::vector<std::string>{"eyJ0b2tlbiI6ImFiYyJ9", token_for({{"productId", "../../x"}}),
                                token_for(json::object())}) {
    SCOPED_TRACE(bad);
    try {
      url_for({{"pageToken", bad}});
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
      EXPECT_EQ(e.parameter().value_or(""), "pageToken");
    }
  }
  const std::string token = token_for({{"productId", "1"}});
  const auto refused = testing::rejection(endpoint(), {{"pageToken", token}, {"nextPageToken", "x"}});
  EXPECT_EQ(refused.first, ErrorCode::InvalidParameter);
  EXPECT_EQ(refused.second, "nextPageToken");
  EXPECT_EQ(testing::rejection(endpoint(), {{"pageToken", token}, {"moreStores", "maybe"}}).second,
            "moreStores");
}

TEST(ImmersiveProductShape, TheProductPage) {
  const json body = shape_immersive_product(
      testing::recorded("google/data/immersive_product/stove.json"), DecimalMark::Unknown);
  const json& product = body["productResults"];
  EXPECT_EQ(product["title"], "Fogão de Piso 4 Bocas Branco Electrolux 52LBU Bivolt");
  EXPECT_EQ(product["brand"], "Electrolux");  // the specification "Marca"
  const json& stores = product["stores"];
  ASSERT_EQ(stores.size(), 10u);
  EXPECT_EQ(stores[0]["name"], "Americanas.com");
  EXPECT_EQ(stores[0]["price"], "R$ 796,10");
  EXPECT_EQ(stores[0]["extractedPrice"], 796.1);  // read as pt-BR writes it
  EXPECT_EQ(stores[0]["extractedTotalPrice"], 796.1);
  EXPECT_EQ(stores[0]["link"].get<std::string>().rfind("https://www.google.com/aclk?", 0), 0u);
  EXPECT_FALSE(stores[0].contains("details"));  // the page's details cell is empty
  EXPECT_EQ(stores[9]["name"], "Submarino");
  const json& about = product["aboutTheProduct"];
  EXPECT_EQ(about["description"].get<std::string>().rfind("Para ter mais praticidade", 0), 0u);
  EXPECT_NE(about["description"].get<std::string>().find("renove o cardápio!"), std::string::npos);
  ASSERT_EQ(about["features"].size(), 3u);
  EXPECT_EQ(about["features"][2], (json{{"title", "GTIN"}, {"value", "07909569000281"}}));
  EXPECT_TRUE(endpoint().has_content(body));
}

TEST(ImmersiveProductShape, TheSellerListWithEveryStore) {
  const json body = shape_immersive_product(
      testing::recorded("google/data/immersive_product/stove-more-stores.json"),
      DecimalMark::Unknown);
  const json& stores = body["productResults"]["stores"];
  ASSERT_EQ(stores.size(), 16u);
  EXPECT_EQ(stores[0]["name"], "Casas Bahia");
  EXPECT_EQ(stores[15]["name"], "Rainha Online");
  EXPECT_EQ(stores[15]["extractedPrice"], 1462.18);  // "R$ 1.462,18"
  EXPECT_FALSE(body["productResults"].contains("aboutTheProduct"));  // the list shows none
}

TEST(ImmersiveProductShape, APageWithoutATitleIsNoContent) {
  EXPECT_FALSE(endpoint().has_content(shape_immersive_product(json::object(), DecimalMark::Comma)));
  EXPECT_FALSE(endpoint().has_content(
      shape_immersive_product(json{{"stores", json::array({{{"name", "A"}}})}}, DecimalMark::Comma)));
}

}  // namespace
}  // namespace gleaner::extract::google
