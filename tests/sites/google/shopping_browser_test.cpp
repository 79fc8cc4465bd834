// GET /scrape/google/shopping end to end in real Chromium: the endpoint builds the Shopping search
// URL, the real pt-BR results pages of 2021 (tests/sites/google/pages/shopping) are answered from
// a replay archive, shopping.js reads their product blocks and the C++ shapes them.
#include <gtest/gtest.h>

#include "extract/sites/google/shopping.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

std::string page(const std::string& file) {
  return gleaner::testing::site_page("google", "shopping/" + file);
}

const std::string kPrinterUrl =
    "https://www.google.com/search?q=889894929969&gl=br&hl=pt-BR&tbm=shop";

TEST(ShoppingInChromium, ThePrinterSearchWithItsPricesMerchantsAndStars) {
  TempReplayArchive archive;
  archive.file(kPrinterUrl, page("google-scrapper_shop_ean-889894929969_ptBR_2021-01.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(shopping_endpoint(), replay,
                                {{"q", "889894929969"}, {"gl", "br"}, {"hl", "pt-BR"}});
  EXPECT_EQ(requested(*replay).front(), kPrinterUrl);

  const auto& products = result.body["shoppingResults"];
  ASSERT_EQ(products.size(), 2u);  // the sponsored carousel beside them is not a result
  const auto& first = products[0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["title"],
            "Impressora Multifuncional HP DeskJet Ink 3776 - Jato de Tinta Colorida Wi-Fi");
  EXPECT_EQ(first["productId"], "4997777289611787084");
  EXPECT_EQ(first["price"], "R$ 455,05");  // the kit's text turns the no-break space into a space
  EXPECT_EQ(first["extractedPrice"], 455.05);
  EXPECT_EQ(first["source"], "Magazine Luiza");
  EXPECT_EQ(first["rating"], 3.7);
  EXPECT_EQ(first["reviews"], 13);
  EXPECT_EQ(first["link"].get<std::string>().rfind("https://www.google.com/aclk?", 0), 0u);
  EXPECT_EQ(first["productLink"].get<std::string>().rfind(
                "https://www.google.com/shopping/product/4997777289611787084?", 0),
            0u);
  EXPECT_EQ(first["thumbnail"].get<std::string>().rfind("data:image/webp;base64,", 0), 0u);
  ASSERT_EQ(first["extensions"].size(), 10u);
  EXPECT_EQ(first["extensions"][0], "HP");
  EXPECT_EQ(first["extensions"][9], "USB");
  EXPECT_EQ(products[1]["position"], 2);
  EXPECT_EQ(products[1]["source"], "Americanas.com");
  EXPECT_EQ(products[1]["extractedPrice"], 116.99);
  EXPECT_EQ(products[1]["productId"], "9694275463671806941");
  EXPECT_EQ(result.body["pagination"]["current"], 1);
}

TEST(ShoppingInChromium, AThousandsGroupAndADescriptionWithoutAProductPage) {
  TempReplayArchive archive;
  const std::string url = "https://www.google.com/search?q=7898617108027&gl=br&hl=pt-BR&tbm=shop";
  archive.file(url, page("google-scrapper_shop_ean-7898617108027_one-result_ptBR_2021-01.html"));
  auto result = run_in_chromium(shopping_endpoint(), archive.load(),
                                {{"q", "7898617108027"}, {"gl", "br"}, {"hl", "pt-BR"}});
  const auto& products = result.body["shoppingResults"];
  ASSERT_EQ(products.size(), 1u);
  EXPECT_EQ(products[0]["title"],
            "Balanceadora Manual de Bancada Azul Monofasica 220V Aro 10 a 24 Pol MAQUINAS "
            "RIBEIRO");
  EXPECT_EQ(products[0]["price"], "R$ 3.052,95");
  EXPECT_EQ(products[0]["extractedPrice"], 3052.95);
  EXPECT_EQ(products[0]["source"], "Loja do Mecânico");
  EXPECT_EQ(products[0]["snippet"],
            "Balanceadora de rodas de bancada monofásica azul - MR100 Monofásico Azul Rotação "
            "manual (economiza energia) Vários programas ...");
  // Only an ad link, no product page: no productId; no stars shown.
  EXPECT_FALSE(products[0].contains("productId"));
  EXPECT_FALSE(products[0].contains("rating"));
}

TEST(ShoppingInChromium, ASearchWithoutShoppingResults) {
  TempReplayArchive archive;
  const std::string url =
      "https://www.google.com/search?q=7898617108027123142&gl=br&hl=pt-BR&tbm=shop";
  archive.file(url, page("google-scrapper_shop_no-results_ptBR_2021-01.html"));
  auto result = run_in_chromium(shopping_endpoint(), archive.load(),
                                {{"q", "7898617108027123142"}, {"gl", "br"}, {"hl", "pt-BR"}});
  EXPECT_TRUE(result.body["shoppingResults"].empty());
  EXPECT_EQ(result.body["searchInformation"]["noResults"], true);
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 0);
  EXPECT_EQ(result.body["searchInformation"]["noResultsText"],
            "A pesquisa - 7898617108027123142 - não corresponde aos resultados de compras.");
}

TEST(ShoppingInChromium, GooglesCaptchaIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page(kPrinterUrl,
               "<html><head><title>Google Search</title></head><body><form id='captcha-form' "
               "action='/sorry/index'><p>Our systems have detected unusual traffic from your "
               "computer network.</p><div class='g-recaptcha'></div></form></body></html>");
  EXPECT_EQ(error_in_chromium(shopping_endpoint(), archive.load(),
                              {{"q", "889894929969"}, {"gl", "br"}, {"hl", "pt-BR"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
