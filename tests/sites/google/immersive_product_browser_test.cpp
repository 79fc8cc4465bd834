// GET /scrape/google/immersive-product end to end in real Chromium: the token's claims name
// Google's product page (or, with moreStores, its seller list), the real pt-BR pages of 2021
// (tests/sites/google/pages/shopping-product) are answered from a replay archive,
// immersive_product.js reads the product and its stores and the C++ shapes them. Google's block
// pages are the contract's (sites_contract_browser_tests: every kept block page, every endpoint).
#include <gtest/gtest.h>

#include "extract/page_token.h"
#include "extract/sites/google/immersive_product.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using nlohmann::json;
using testing::requested;
using testing::run_in_chromium;

std::string page(const std::string& file) {
  return gleaner::testing::site_page("google", "shopping-product/" + file);
}

const std::string kProductUrl =
    "https://www.google.com/shopping/product/13239497633151178800?gl=br&hl=pt-BR";
const std::string kStoresUrl =
    "https://www.google.com/shopping/product/13239497633151178800/online?gl=br&hl=pt-BR";

// What /scrape/google/shopping hands out for this product searched with gl=br&hl=pt-BR.
std::string stove_token() {
  static const PageTokens tokens("the browser tests' secret, long enough");
  return tokens.mint(
      1, kImmersiveProductTokenKind,
      {{"productId", "13239497633151178800"}, {"gl", "br"}, {"hl", "pt-BR"}});
}

TEST(ImmersiveProductInChromium, TheProductPageWithItsStoresAndDetails) {
  TempReplayArchive archive;
  archive.file(kProductUrl, page("google-scrapper_product_13239497633151178800_ptBR_2021-01.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(immersive_product_endpoint(), replay, {{"pageToken", stove_token()}});
  EXPECT_EQ(requested(*replay).front(), kProductUrl);

  const json& product = result.body["productResults"];
  EXPECT_EQ(product["title"], "Fogão de Piso 4 Bocas Branco Electrolux 52LBU Bivolt");
  EXPECT_EQ(product["brand"], "Electrolux");
  const json& stores = product["stores"];
  ASSERT_EQ(stores.size(), 10u);
  EXPECT_EQ(stores[0]["name"], "Americanas.com");
  EXPECT_EQ(stores[0]["price"], "R$ 796,10");  // the kit's text turns the no-break space into a space
  EXPECT_EQ(stores[0]["extractedPrice"], 796.1);
  EXPECT_EQ(stores[0]["totalPrice"], "R$ 796,10");
  EXPECT_EQ(stores[0]["link"].get<std::string>().rfind("https://www.google.com/aclk?", 0), 0u);
  EXPECT_EQ(stores[7]["name"], "Ferreira Costa");  // its "90% positivos (10.793)" is not a name
  EXPECT_EQ(stores[7]["extractedPrice"], 899.0);
  EXPECT_EQ(stores[9]["name"], "Submarino");
  const json& about = product["aboutTheProduct"];
  EXPECT_EQ(about["description"].get<std::string>().rfind("Para ter mais praticidade", 0), 0u);
  EXPECT_NE(about["description"].get<std::string>().find("renove o cardápio!"), std::string::npos);
  ASSERT_EQ(about["features"].size(), 3u);
  EXPECT_EQ(about["features"][0], (json{{"title", "Marca"}, {"value", "Electrolux"}}));
  EXPECT_EQ(about["features"][2], (json{{"title", "GTIN"}, {"value", "07909569000281"}}));
}

TEST(ImmersiveProductInChromium, MoreStoresReadsTheSellerList) {
  TempReplayArchive archive;
  archive.file(kStoresUrl,
               page("google-scrapper_product-online-stores_13239497633151178800_ptBR_2021-01.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(immersive_product_endpoint(), replay,
                                {{"pageToken", stove_token()}, {"moreStores", "true"}});
  EXPECT_EQ(requested(*replay).front(), kStoresUrl);
  const json& product = result.body["productResults"];
  EXPECT_EQ(product["title"], "Fogão de Piso 4 Bocas Branco Electrolux 52LBU Bivolt");
  const json& stores = product["stores"];
  ASSERT_EQ(stores.size(), 16u);
  EXPECT_EQ(stores[0]["name"], "Casas Bahia");
  EXPECT_EQ(stores[0]["extractedPrice"], 849.0);
  EXPECT_EQ(stores[15]["name"], "Rainha Online");
  EXPECT_EQ(stores[15]["price"], "R$ 1.462,18");
  EXPECT_EQ(stores[15]["extractedPrice"], 1462.18);
}

}  // namespace
}  // namespace gleaner::extract::google
