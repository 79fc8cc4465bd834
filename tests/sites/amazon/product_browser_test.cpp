// GET /scrape/amazon/product end to end in real Chromium: the endpoint builds the /dp/ URL, the
// page is answered from a replay archive with the real product pages kept in pages/amazon-product
// (amazon.com 2025, amazon.in 2025, amazon.es 2025 in Spanish, amazon.com.br 2025 in Portuguese,
// amazon.com.mx 2026 in Spanish, amazon.fr 2026 in French (a book), amazon.sa 2026 in English,
// amazon.de 2019 in German: a Kindle book, a paperback, a deal of the day, amazon.com 2026
// without a featured offer, amazon.com 2026 redacted: sold by Amazon, only a used offer,
// amazon.in 2026 apparel),
// product.js reads them and the C++ shapes them.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::amazon {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kShirt = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-com-dp-B07FNW9FGJ-data-analyst-tshirt-raw-2025-05.html");
const std::string kIphone = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-in-dp-iphone-13-128gb-green-raw-2025-11.html");
const std::string kMonitors = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-es-dp-B07JH148DF-hercules-djmonitor-32-raw-2025-04.html");
const std::string kEchoDot = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-com-br-dp-B09B8VGCR8-echo-dot-5-raw-2025-11.html");
const std::string kBoots = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-com-mx-dp-B0B4W57HC3-cat-work-boots-raw-2026-04.html");
const std::string kEchoDotMax = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-com-br-dp-B0DKLQT9XR-echo-dot-max-mobile-raw-2026-05.html");
const std::string kIncense = gleaner::testing::site_page(
    "amazon",
    "amazon-product/"
    "amazon-co-jp-dp-B002XA6AU4-shoeido-insect-repellent-mobile-prettified-2025-01.html");
const std::string kRyzen = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-com-br-dp-B0D6NN6TM7-ryzen-5-9600x-raw-2025-11.html");
const std::string kTop = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-com-dp-B0D1KHSGRB-darong-womens-top-raw-2025-10.html");
const std::string kAvatarBook = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-fr-dp-0241401127-art-of-avatar-book-raw-2026-03.html");
const std::string kHeadphones = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-sa-en-dp-B0F3PT1VBL-sony-wh-1000xm6-raw-2026-07.html");
const std::string kKindleBook = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-de-dp-B071FCV5KW-die-argonauten-kindle-raw-2019-01.html");
const std::string kWheyDeal = gleaner::testing::site_page(
    "amazon",
    "amazon-product/amazon-de-dp-B07JWMTL6G-maxinutrition-whey-dealprice-raw-2019-01.html");
const std::string kPaperback = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-de-dp-0356510344-tiamats-wrath-paperback-raw-2019-01.html");
const std::string kPressureCooker = gleaner::testing::site_page(
    "amazon", "amazon-product/amazon-com-dp-B00FLYWNYQ-instant-pot-duo-dom-2026-04.html");
const std::string kEchoDotBuyBox = gleaner::testing::site_page(
    "amazon",
    "amazon-product/amazon-com-br-dp-B09B8VGCR8-echo-dot-5-with-buy-box-raw-2025-11.html");

TEST(AmazonProductInChromium, TheShirtAsAPersonReadsIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/dp/B07FNW9FGJ", kShirt));
  auto replay = archive.load();
  auto result = run_in_chromium(product_endpoint(), replay, {{"asin", "B07FNW9FGJ"}});
  EXPECT_EQ(requested(*replay, "https://www.amazon.com/").front(),
            "https://www.amazon.com/dp/B07FNW9FGJ");
  const auto& p = result.body["product"];
  EXPECT_EQ(p["asin"], "B07FNW9FGJ");
  EXPECT_EQ(p["title"], "Got Data Funny Business Data Analyst T-Shirt");
  EXPECT_EQ(p["brand"], "Data Analyst & Business Analytics Tees");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["price"]["symbol"], "$");
  EXPECT_EQ(p["price"]["currentPrice"], 15.99);
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.4);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 22);
  ASSERT_EQ(p["breadcrumbs"].size(), 7u);
  EXPECT_EQ(p["breadcrumbs"].front(), "Clothing, Shoes & Jewelry");
  EXPECT_EQ(p["breadcrumbs"].back(), "T-Shirts");
  ASSERT_EQ(p["featureBullets"].size(), 2u);
  EXPECT_EQ(p["featureBullets"][1],
            "Lightweight, Classic fit, Double-needle sleeve and bottom hem");
  EXPECT_EQ(p["seller"], "Amazon.com");
  EXPECT_EQ(p["specification"]["Department"], "mens");
  EXPECT_NE(p["description"].get<std::string>().find("Got Data is a funny pickup"),
            std::string::npos);
  // The twister's variations: fit type, colour and size of each child ASIN.
  ASSERT_GT(p["variants"].size(), 100u);
  bool sapphire = false;
  for (const auto& v : p["variants"]) {
    if (v["asin"] == "B0D813X6K4") {
      sapphire = true;
      EXPECT_EQ(v["dimensions"]["Fit Type"], "Women");
      EXPECT_EQ(v["dimensions"]["Color"], "Sapphire Blue");
      EXPECT_EQ(v["dimensions"]["Size"], "3X-Large");
    }
  }
  EXPECT_TRUE(sapphire);
  EXPECT_GT(p["totalImages"].get<int>(), 0);
  EXPECT_EQ(p["primaryImage"], p["images"][0]);
}

TEST(AmazonProductInChromium, AnUnavailableIphoneOnAmazonIndiaHasNoPrice) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.in/dp/B09V4B6K53", kIphone));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B09V4B6K53"}, {"domain", "amazon.in"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"], "Apple iPhone 13 (128GB) - Green");
  EXPECT_EQ(p["brand"], "Apple");
  EXPECT_EQ(p["url"], "https://www.amazon.in/dp/B09V4B6K53");
  // "Currently unavailable": the ₹ amounts on the page are other widgets', not a buy box.
  EXPECT_EQ(p["isAvailable"], false);
  EXPECT_FALSE(p.contains("price"));
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.5);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 36265);
  EXPECT_EQ(p["featureBullets"][0], "15 cm (6.1-inch) Super Retina XDR display");
  EXPECT_EQ(p["specification"]["Brand"], "Apple");
  EXPECT_EQ(p["specification"]["Operating System"], "iOS");
  EXPECT_EQ(p["whatIsInTheBox"], nlohmann::json::array({"USB-C to Lightning Cable"}));
  EXPECT_EQ(p["breadcrumbs"].front(), "Electronics");
  EXPECT_EQ(p["breadcrumbs"].back(), "Smartphones");
}

// amazon.es in Spanish, a deal: "52,41€" with "-21 %" off the recommended "66,11€"; the
// "(26,21€ / 2)" beside it is the price per unit, not a list price.
TEST(AmazonProductInChromium, ASpanishDealAsAPersonReadsIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.es/dp/B07JH148DF", kMonitors));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B07JH148DF"}, {"domain", "amazon.es"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["asin"], "B07JH148DF");
  EXPECT_EQ(p["title"],
            "Hercules DJMonitor 32 - 2 altavoces activos de monitorización de 15 vatios RMS");
  EXPECT_EQ(p["brand"], "Hercules");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["price"]["symbol"], "€");
  EXPECT_EQ(p["price"]["currentPrice"], 52.41);
  EXPECT_EQ(p["price"]["beforePrice"], 66.11);
  EXPECT_EQ(p["price"]["discount"], "-21 %");
  EXPECT_EQ(p["availability"], "En stock");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.3);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 972);
  EXPECT_EQ(p["seller"], "Amazon");
  ASSERT_EQ(p["breadcrumbs"].size(), 5u);
  EXPECT_EQ(p["breadcrumbs"].front(), "Instrumentos musicales");
  ASSERT_EQ(p["featureBullets"].size(), 6u);
  EXPECT_TRUE(p["featureBullets"][0].get<std::string>().starts_with("Diseño compacto de 2 vías"));
  EXPECT_EQ(p["specification"]["Número de modelo del producto"], "4780885");
  EXPECT_EQ(p["totalImages"], 8);
}

// amazon.com.br in Portuguese: the page shows no price in its buy box; the "R$362,87" of its
// carousels are other products'. Its colours are the twister's, named as the page names them.
TEST(AmazonProductInChromium, ABrazilianPageWithoutABuyBoxPriceHasNoPrice) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com.br/dp/B09B8VGCR8", kEchoDot));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B09B8VGCR8"}, {"domain", "www.amazon.com.br"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"],
            "Echo Dot (Geração mais recente) | O Echo Dot com o melhor som já lançado | Cor Preta");
  EXPECT_EQ(p["brand"], "Amazon");
  EXPECT_EQ(p["isAvailable"], false);
  EXPECT_FALSE(p.contains("price"));
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.7);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 79598);
  EXPECT_EQ(p["seller"], "Amazon.com.br");
  ASSERT_EQ(p["variants"].size(), 3u);
  bool white = false;
  for (const auto& v : p["variants"]) {
    if (v["asin"] == "B09B8XVSDP") {
      white = true;
      EXPECT_EQ(v["dimensions"]["Cor"], "Branco");
      EXPECT_EQ(v["dimensions"]["Configuração"], "Echo Dot");
    }
  }
  EXPECT_TRUE(white);
}

// amazon.com.br in Portuguese, in stock: "R$ 1.499,99", "4,8 de 5 estrelas", "1.820
// avaliações de clientes".
TEST(AmazonProductInChromium, ABrazilianPriceAsThePageWritesIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com.br/dp/B0D6NN6TM7", kRyzen));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B0D6NN6TM7"}, {"domain", "www.amazon.com.br"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(
      p["title"],
      "Processador AMD Ryzen 5 9600X Box (AM5/ 6 Cores/ 12 Threads/ 5.4GHz/ 38MB Cache/Radeon "
      "Graphics/Sem Cooler)");
  EXPECT_EQ(p["brand"], "AMD");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["price"]["symbol"], "R$");
  EXPECT_EQ(p["price"]["currentPrice"], 1499.99);
  EXPECT_EQ(p["availability"], "Em estoque");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.8);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 1820);
  EXPECT_EQ(p["seller"], "Amazon.com.br");
  EXPECT_EQ(p["breadcrumbs"].back(), "CPUs");
  EXPECT_EQ(p["specification"]["Marca"], "AMD");
}

// The mobile layout (amazon.com.br, 2026-05): the title in its heading, the mobile price block
// ("R$796,81", 6 % off "R$849,00"), the star line's text, the image block's images, the detail
// table's rows as label and value cells.
TEST(AmazonProductInChromium, AMobileLayoutPage) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com.br/dp/B0DKLQT9XR", kEchoDotMax));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B0DKLQT9XR"}, {"domain", "www.amazon.com.br"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["asin"], "B0DKLQT9XR");
  EXPECT_TRUE(p["title"].get<std::string>().starts_with(
      "Amazon Echo Dot Max (Geração mais recente), smart speaker com Alexa"));
  EXPECT_EQ(p["price"]["symbol"], "R$");
  EXPECT_EQ(p["price"]["currentPrice"], 796.81);
  EXPECT_EQ(p["price"]["beforePrice"], 849);
  EXPECT_EQ(p["price"]["discount"], "-6%");
  EXPECT_EQ(p["availability"], "Em estoque");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.4);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 393);
  EXPECT_EQ(p["specification"]["Número do modelo"], "MA49CA");
  EXPECT_EQ(p["totalImages"], 7);
  EXPECT_EQ(p["primaryImage"],
            "https://m.media-amazon.com/images/I/71J0hF-lw+L._UF1000,1000_QL80_FMwebp_.jpg");
  // Its byline links to a category's page (Echo e Alexa), not to a brand's.
  EXPECT_FALSE(p.contains("brand"));
}

// amazon.co.jp in Japanese, the mobile layout of 2025 (saved re-indented): "￥1,638", the star
// line "5つ星のうち4.1" (the scale before the rating), "香源のストアを表示".
TEST(AmazonProductInChromium, AJapaneseMobilePage) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.co.jp/dp/B002XA6AU4", kIncense));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B002XA6AU4"}, {"domain", "www.amazon.co.jp"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["asin"], "B002XA6AU4");
  EXPECT_EQ(p["title"], "香源 松栄堂の防虫香 上品 防虫香 10袋入 #520138");
  EXPECT_EQ(p["brand"], "香源");
  EXPECT_EQ(p["price"]["symbol"], "￥");
  EXPECT_EQ(p["price"]["currentPrice"], 1638);
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.1);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 201);
  EXPECT_EQ(p["specification"]["梱包サイズ"], "8.4 x 7.8 x 3.9 cm; 50 g");
}

// A 2025 amazon.com clothing page asked for by its parent ASIN: the page shows its default child
// (Medium, Grey Blue) at "$25.89", "-10%" off a "List Price: $28.89".
TEST(AmazonProductInChromium, AnApparelParentShowsItsDefaultChildWithItsListPrice) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/dp/B0D1KHSGRB", kTop));
  auto result = run_in_chromium(product_endpoint(), archive.load(), {{"asin", "B0D1KHSGRB"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["asin"], "B0CFR36HR9");
  EXPECT_EQ(p["title"],
            "Darong Women's Casual Long Sleeve Boat Neck Off Shoulder Slim Fit Crop Top Going Out "
            "Blouses Y2K Tight Shirts");
  EXPECT_EQ(p["brand"], "Darong");
  EXPECT_EQ(p["price"]["symbol"], "$");
  EXPECT_EQ(p["price"]["currentPrice"], 25.89);
  EXPECT_EQ(p["price"]["beforePrice"], 28.89);
  EXPECT_EQ(p["price"]["discount"], "-10%");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.3);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 1562);
  EXPECT_EQ(p["breadcrumbs"].back(), "T-Shirts");
  EXPECT_EQ(p["specification"]["Fabric type"], "90% Rayon 10% Spandex");
  bool shown = false;
  for (const auto& v : p["variants"]) {
    if (v["asin"] == "B0CFR36HR9") {
      shown = true;
      EXPECT_EQ(v["dimensions"]["Size"], "Medium");
      EXPECT_EQ(v["dimensions"]["Color"], "Grey Blue");
    }
  }
  EXPECT_TRUE(shown);
}

// amazon.com.mx in Spanish writes its numbers as Mexico does ("$2,281.82", "4.5 de 5
// estrellas", "(5,544)"); its byline names a store ("CATEYEWEAR") other than the brand it shows
// ("Visita la tienda de Cat Footwear").
TEST(AmazonProductInChromium, AMexicanPageInSpanishWithDotDecimals) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com.mx/dp/B0B4W57HC3", kBoots));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B0B4W57HC3"}, {"domain", "www.amazon.com.mx"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"], "Cat Footwear Botas de trabajo impermeables con puntera suave para hombre");
  EXPECT_EQ(p["brand"], "Cat Footwear");
  EXPECT_EQ(p["price"]["symbol"], "$");
  EXPECT_EQ(p["price"]["currentPrice"], 2281.82);
  EXPECT_FALSE(p["price"].contains("beforePrice"));
  EXPECT_EQ(p["availability"], "Disponible");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.5);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 5544);
  EXPECT_EQ(p["seller"], "Amazon Estados Unidos");
  EXPECT_EQ(p["breadcrumbs"].front(), "Ropa, Zapatos y Accesorios");
  EXPECT_EQ(p["specification"]["Marca"], "CAT");
  ASSERT_EQ(p["variants"].size(), 25u);
  for (const auto& v : p["variants"]) {
    EXPECT_TRUE(v["dimensions"].contains("Tamaño")) << v;
    EXPECT_TRUE(v["dimensions"].contains("Color")) << v;
  }
}

// The amazon.com page written as amazon.de writes its prices and ratings ("1.015,99 €",
// "4,4 von 5 Sternen"): read in that storefront's locale.
TEST(AmazonProductInChromium, AGermanStorefrontsPricesReadInItsLocale) {
  TempReplayArchive archive;
  using nlohmann::json;
  const json replace = json::array(
      {json::array({"<span class=\"a-price-symbol\">$</span><span class=\"a-price-whole\">15<span "
                    "class=\"a-price-decimal\">.</span></span><span "
                    "class=\"a-price-fraction\">99</span>",
                    "<span class=\"a-price-whole\">1.015<span class=\"a-price-decimal\">,</span>"
                    "</span><span class=\"a-price-fraction\">99</span><span "
                    "class=\"a-price-symbol\">€</span>"}),
       json::array({"title=\"4.4 out of 5 stars\"", "title=\"4,4 von 5 Sternen\""})});
  archive.add(
      gleaner::testing::rewritten_entry("https://www.amazon.de/dp/B07FNW9FGJ", kShirt, replace));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B07FNW9FGJ"}, {"domain", "www.amazon.de"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["price"]["symbol"], "€");
  EXPECT_EQ(p["price"]["currentPrice"], 1015.99);
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.4);
}

// Amazon's robot check as amazon.co.uk served it for a /dp/ page (2022): a form posting to
// /errors/validateCaptcha instead of the product, so a wall, not a product without data.
TEST(AmazonProductInChromium, TheRobotCheckIsUpstreamBlocked) {
  const std::string check = gleaner::testing::site_page(
      "amazon", "blocks/amazon-co-uk-robot-check-dp-B08H95Y452-2022-01.html");
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.co.uk/dp/B08H95Y452", check));
  EXPECT_EQ(error_in_chromium(product_endpoint(), archive.load(),
                              {{"asin", "B08H95Y452"}, {"domain", "www.amazon.co.uk"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

// amazon.fr in French, a book (2026): its blurb is the book description's expander, not a
// #productDescription; its byline names its author, no brand.
TEST(AmazonProductInChromium, AFrenchBookAsAPersonReadsIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.fr/dp/0241401127", kAvatarBook));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "0241401127"}, {"domain", "www.amazon.fr"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"], "The Art of Avatar The Way of Water");
  EXPECT_FALSE(p.contains("brand"));
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["availability"], "En stock");
  EXPECT_EQ(p["price"]["symbol"], "€");
  EXPECT_EQ(p["price"]["currentPrice"], 33.69);
  EXPECT_EQ(p["price"]["beforePrice"], 40.13);
  EXPECT_EQ(p["price"]["discount"], "-16 %");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.8);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 896);
  EXPECT_EQ(p["seller"], "Amazon");
  EXPECT_EQ(p["breadcrumbs"].front(), "Livres");
  EXPECT_EQ(p["breadcrumbs"].back(), "Film d'animation");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Take an exclusive, behind-the-scenes look at the creative process of James Cameron's "
      "Avatar: The Way of Water. Packed with hundreds"))
      << p["description"];
  EXPECT_EQ(p["specification"]["ISBN-13"], "978-0241401125");
  EXPECT_EQ(p["specification"]["Éditeur"], "DK");
  EXPECT_EQ(p["specification"]["Date de publication"], "16 décembre 2022");
  EXPECT_EQ(p["totalImages"], 7);
  // Its format swatches: the Kindle edition's page and this hardcover ("Relié").
  EXPECT_EQ(p["variants"],
            nlohmann::json::array(
                {{{"asin", "B0BRZKVMMP"}, {"dimensions", {{"Format", "Format Kindle"}}}},
                 {{"asin", "0241401127"}, {"dimensions", {{"Format", "Relié"}}}}}));
}

// amazon.sa read in English (`en-ae`): prices in "SAR 1,279.00" with the list price and savings.
TEST(AmazonProductInChromium, ASaudiPageInEnglishInRiyals) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.sa/dp/B0F3PT1VBL", kHeadphones));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B0F3PT1VBL"}, {"domain", "www.amazon.sa"}});
  const auto& p = result.body["product"];
  EXPECT_TRUE(p["title"].get<std::string>().starts_with(
      "Sony WH-1000XM6 The Best Wireless Noise Canceling Headphones"));
  EXPECT_EQ(p["brand"], "Sony");
  EXPECT_EQ(p["availability"], "In Stock");
  EXPECT_EQ(p["price"]["symbol"], "SAR");
  EXPECT_EQ(p["price"]["currentPrice"], 1279);
  EXPECT_EQ(p["price"]["beforePrice"], 1699);
  EXPECT_EQ(p["price"]["discount"], "-25%");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.4);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 3098);
  EXPECT_EQ(p["seller"], "Amazon.sa");
  EXPECT_EQ(p["breadcrumbs"].back(), "Studio Headphones");
  EXPECT_EQ(p["featureBullets"].size(), 9u);
  EXPECT_EQ(p["specification"]["Model name"], "WH-1000XM6");
  ASSERT_EQ(p["variants"].size(), 4u);
  bool blue = false;
  for (const auto& v : p["variants"]) {
    if (v["asin"] == "B0F3PT1VBL") {
      blue = true;
      EXPECT_EQ(v["dimensions"]["Color"], "Blue");
    }
  }
  EXPECT_TRUE(blue);
  EXPECT_EQ(p["totalImages"], 14);
}

// amazon.de in German, 2019: a Kindle book. Its title has an id of its own, its price is the
// buy box's "Kindle-Preis: EUR 15,99" row, its blurb the <noscript> copy of the description
// frame, its details the "Produktinformation" list, its image the cover's.
TEST(AmazonProductInChromium, AGermanKindleBookOf2019) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.de/dp/B071FCV5KW", kKindleBook));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B071FCV5KW"}, {"domain", "www.amazon.de"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"], "Die Argonauten");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["price"]["symbol"], "EUR");
  EXPECT_EQ(p["price"]["currentPrice"], 15.99);
  EXPECT_EQ(p["reviewsInfo"]["rating"], 3.0);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 1);
  EXPECT_EQ(p["breadcrumbs"],
            nlohmann::json::array({"Kindle-Shop", "Kindle eBooks", "Belletristik"}));
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "Es ist die Geschichte einer Liebe: Maggie Nelson verliebt sich in Harry Dodge, einen "
      "Künstler – oder eine Künstlerin?"))
      << p["description"];
  EXPECT_EQ(p["specification"]["Verlag"], "Hanser Berlin (25. September 2017)");
  EXPECT_EQ(p["specification"]["Seitenzahl der Print-Ausgabe"], "192 Seiten");
  EXPECT_EQ(p["specification"]["Verkauf durch"], "Amazon Media EU S.à r.l.");
  EXPECT_EQ(p["variants"],
            nlohmann::json::array(
                {{{"asin", "B071FCV5KW"}, {"dimensions", {{"Format", "Kindle"}}}},
                 {{"asin", "3446257071"}, {"dimensions", {{"Format", "Gebundenes Buch"}}}}}));
  EXPECT_EQ(p["images"], nlohmann::json::array(
                             {"https://images-eu.ssl-images-amazon.com/images/I/514U2LyjJHL.jpg"}));
}

// amazon.de, 2019: a deal of the day in the legacy price row ("Angebot des Tages: EUR 8,99 (EUR
// 23,05 / kg)": the price per kilo is not the price), the grocery details' labelled cells.
TEST(AmazonProductInChromium, AGermanDealOfTheDayOf2019) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.de/dp/B07JWMTL6G", kWheyDeal));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B07JWMTL6G"}, {"domain", "www.amazon.de"}});
  const auto& p = result.body["product"];
  EXPECT_TRUE(p["title"].get<std::string>().starts_with("MaxiNutrition Whey Protein Pro Vanille"));
  EXPECT_EQ(p["brand"], "MaxiNutrition");
  EXPECT_EQ(p["availability"], "Auf Lager.");
  EXPECT_EQ(p["price"]["symbol"], "EUR");
  EXPECT_EQ(p["price"]["currentPrice"], 8.99);
  EXPECT_EQ(p["reviewsInfo"]["rating"], 3.4);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 3);
  EXPECT_EQ(p["featureBullets"].size(), 5u);
  EXPECT_EQ(p["specification"]["Marke"], "MaxiNutrition");
  EXPECT_EQ(p["specification"]["Netto-Gewicht"], "390 Gramm");
  EXPECT_EQ(p["specification"]["Im Angebot von Amazon.de seit"], "15. Oktober 2018");
  bool shown = false;
  for (const auto& v : p["variants"]) {
    if (v["asin"] == "B07JWMTL6G") {
      shown = true;
      EXPECT_EQ(v["dimensions"]["Stil"], "Vanille");
      EXPECT_EQ(v["dimensions"]["Größe"], "390 g");
    }
  }
  EXPECT_TRUE(shown);
}

// amazon.de, 2019: an English paperback before its release, without ratings. Its blurb (the
// description frame's copy) is read with its line breaks as spaces.
TEST(AmazonProductInChromium, AGermanPaperbackBeforeItsReleaseOf2019) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.de/dp/0356510344", kPaperback));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "0356510344"}, {"domain", "www.amazon.de"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"], "Tiamat's Wrath: Book 8 of the Expanse (now a major TV series on Netflix)");
  EXPECT_EQ(p["price"]["symbol"], "EUR");
  EXPECT_EQ(p["price"]["currentPrice"], 12.99);
  EXPECT_EQ(p["availability"], "Dieser Artikel erscheint am 28. März 2019. Bestellen Sie jetzt.");
  EXPECT_TRUE(p["reviewsInfo"].empty());
  EXPECT_TRUE(p["description"].get<std::string>().starts_with(
      "The action-packed eighth book in the New York Times bestselling Expanse series NOW A MAJOR "
      "TV SERIES FROM NETFLIX"))
      << p["description"];
  EXPECT_EQ(p["specification"]["ISBN-13"], "978-0356510347");
  EXPECT_EQ(p["specification"]["Taschenbuch"], "560 Seiten");
  EXPECT_EQ(p["specification"]["Verlag"], "Orbit (28. März 2019)");
  ASSERT_EQ(p["variants"].size(), 3u);
  EXPECT_EQ(p["variants"][0],
            nlohmann::json({{"asin", "B07DHRMBCJ"}, {"dimensions", {{"Format", "Kindle"}}}}));
  EXPECT_EQ(p["variants"][1], nlohmann::json({{"asin", "0356510352"},
                                              {"dimensions", {{"Format", "Gebundenes Buch"}}}}));
  EXPECT_EQ(p["variants"][2],
            nlohmann::json({{"asin", "0356510344"}, {"dimensions", {{"Format", "Taschenbuch"}}}}));
  ASSERT_EQ(p["images"].size(), 1u);
  EXPECT_NE(p["images"][0].get<std::string>().find("/images/I/61ncIDLR%2BSL."), std::string::npos);
}

// The same Echo Dot on amazon.com.br a few weeks later (another scraper's capture), this time
// with its buy box: "R$ 303,05" off "De: R$ 459,00", "4,7 de 5 estrelas", "80.525 avaliações".
TEST(AmazonProductInChromium, ABrazilianPageWithItsBuyBox) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com.br/dp/B09B8VGCR8", kEchoDotBuyBox));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B09B8VGCR8"}, {"domain", "www.amazon.com.br"}});
  const auto& p = result.body["product"];
  EXPECT_TRUE(p["title"].get<std::string>().starts_with("Echo Dot (Geração mais recente)"));
  EXPECT_EQ(p["brand"], "Amazon");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["price"]["symbol"], "R$");
  EXPECT_EQ(p["price"]["currentPrice"], 303.05);
  EXPECT_EQ(p["price"]["beforePrice"], 459);
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.7);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 80525);
  EXPECT_EQ(p["seller"], "Amazon.com.br");
}

// amazon.com, 2026, saved from the rendered page: no featured offer (the buy box only says
// "See All Buying Options"), so no price; its availability block holds only the other offers'
// script, and its detail table's hidden cells their scripts: none of it is text. The byline's
// store "InstantPot" is the brand the byline writes, "Instant Pot".
TEST(AmazonProductInChromium, AnAmericanPageWithoutAFeaturedOffer) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/dp/B00FLYWNYQ", kPressureCooker));
  auto result = run_in_chromium(product_endpoint(), archive.load(), {{"asin", "B00FLYWNYQ"}});
  const auto& p = result.body["product"];
  EXPECT_TRUE(p["title"].get<std::string>().starts_with(
      "Instant Pot Duo 7-in-1 Electric Pressure Cooker, Slow Cooker, Rice, Steamer"));
  EXPECT_EQ(p["brand"], "Instant Pot");
  EXPECT_EQ(p["isAvailable"], false);
  EXPECT_FALSE(p.contains("price"));
  EXPECT_FALSE(p.contains("availability"));
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.7);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 184046);
  EXPECT_EQ(p["breadcrumbs"].back(), "Slow Cookers");
  EXPECT_EQ(p["featureBullets"].size(), 10u);
  EXPECT_EQ(p["specification"]["Model Number"], "DUO 60");
  const std::string reviews_row = p["specification"]["Customer Reviews"];
  EXPECT_TRUE(reviews_row.starts_with("4.7 4.7 out of 5 stars (184,046)")) << reviews_row;
  EXPECT_EQ(reviews_row.find("dpAcrHasRegisteredArcLinkClickAction"), std::string::npos);
  ASSERT_EQ(p["variants"].size(), 3u);
  EXPECT_EQ(p["variants"][0],
            nlohmann::json({{"asin", "B00FLYWNYQ"}, {"dimensions", {{"Size", "6 Quarts"}}}}));
  EXPECT_EQ(p["totalImages"], 8);
}

// Two amazon.com pages of 2026-08 that a stock monitor keeps as test fixtures, saved by plain
// HTTP and redacted before commit (every script and style emptied, session values blanked, the
// delivery place replaced): the markup a reader needs is whole.
const std::string kBatteries = gleaner::testing::site_page(
    "amazon",
    "amazon-product/amazon-com-dp-B00NTCH52W-amazon-basics-aa-batteries-redacted-2026-08.html");
const std::string kGoPlus = gleaner::testing::site_page(
    "amazon",
    "amazon-product/amazon-com-dp-B0BX2P43PX-pokemon-go-plus-used-buy-box-redacted-2026-08.html");

// In stock and sold by Amazon: "$9.99" beside "($0.50 per count)", "In Stock", "Shipper / Seller
// Amazon.com", "Visit the Amazon Basics Store".
TEST(AmazonProductInChromium, AnAmericanPageOf2026SoldByAmazon) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/dp/B00NTCH52W", kBatteries));
  auto result = run_in_chromium(product_endpoint(), archive.load(), {{"asin", "B00NTCH52W"}});
  const auto& p = result.body["product"];
  EXPECT_TRUE(p["title"].get<std::string>().starts_with(
      "Amazon Basics 20-Pack AA Alkaline Batteries, 1.5 Volt"))
      << p["title"];
  EXPECT_EQ(p["brand"], "Amazon Basics");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["availability"], "In Stock");
  EXPECT_EQ(p["price"]["symbol"], "$");
  EXPECT_EQ(p["price"]["currentPrice"], 9.99);
  // "$0.50 per count" is no list price.
  EXPECT_FALSE(p["price"].contains("beforePrice")) << p["price"];
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.7);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 948746);
  EXPECT_EQ(p["seller"], "Amazon.com");
}

// The only offer is a used one in the used buy box (#usedbuyBox): "$219.00", "Only 10 left in
// stock - order soon.", sold by a marketplace seller; the byline is the platform, no brand.
TEST(AmazonProductInChromium, AnAmericanPageWithOnlyAUsedOffer) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/dp/B0BX2P43PX", kGoPlus));
  auto result = run_in_chromium(product_endpoint(), archive.load(), {{"asin", "B0BX2P43PX"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"], "Pokemon Go Plus +");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["availability"], "Only 10 left in stock - order soon.");
  EXPECT_EQ(p["price"]["currentPrice"], 219.0);
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.6);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 4879);
  EXPECT_EQ(p["seller"], "LO Store (We Record Serial Numbers To avoid FRAUD)");
  EXPECT_FALSE(p.contains("brand")) << p["brand"];
}

// amazon.in, 2026-04, saved from the rendered page: shoes in sizes and colours, the child
// B08WPM5D99 asked for (its canonical is the parent B0B2K7NSHT): "₹1,239" with "-35%" off
// "M.R.P.: ₹1,899", "Visit the Campus Store", sold by Campusactivewear, 37 size/colour children.
TEST(AmazonProductInChromium, AnIndianApparelPageOf2026) {
  const std::string shoes = gleaner::testing::site_page(
      "amazon", "amazon-product/amazon-in-dp-B08WPM5D99-campus-running-shoes-dom-2026-04.html");
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.in/dp/B08WPM5D99", shoes));
  auto result = run_in_chromium(product_endpoint(), archive.load(),
                                {{"asin", "B08WPM5D99"}, {"domain", "www.amazon.in"}});
  const auto& p = result.body["product"];
  EXPECT_EQ(p["title"], "Campus Men First Running Shoes");
  EXPECT_EQ(p["brand"], "Campus");
  EXPECT_EQ(p["url"], "https://www.amazon.in/dp/B08WPM5D99");
  EXPECT_EQ(p["isAvailable"], true);
  EXPECT_EQ(p["availability"], "In stock");
  EXPECT_EQ(p["price"]["symbol"], "₹");
  EXPECT_EQ(p["price"]["currentPrice"], 1239);
  EXPECT_EQ(p["price"]["beforePrice"], 1899);
  EXPECT_EQ(p["price"]["discount"], "-35%");
  EXPECT_EQ(p["reviewsInfo"]["rating"], 4.0);
  EXPECT_EQ(p["reviewsInfo"]["totalReviews"], 16927);
  EXPECT_EQ(p["seller"], "Campusactivewear");
  EXPECT_EQ(p["breadcrumbs"].back(), "Running Shoes");
  EXPECT_EQ(p["specification"]["Colour"], "L.GRY/BLK");
  ASSERT_EQ(p["variants"].size(), 37u);
  EXPECT_EQ(p["variants"][0],
            nlohmann::json({{"asin", "B08WPBH4L7"},
                            {"dimensions", {{"Colour", "BLK/RED"}, {"Size", "10 UK"}}}}));
}

// Amazon's "Sorry! Something went wrong!" page of the Dogs of Amazon (2026, saved as a 200 by a
// scraper it throttled): a wall, not a product page it could not read. Known by its own links and
// image, not only as a page without text (its words are in its images' alt texts), so a variant
// that writes them is a wall too.
TEST(AmazonProductInChromium, TheDogsPageIsUpstreamBlocked) {
  const std::string dogs = gleaner::testing::site_page(
      "amazon", "blocks/amazon-com-sorry-something-went-wrong-dogs-page-2026-08.html");
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/dp/B0F3PT1VBL", dogs));
  const Error e = error_in_chromium(product_endpoint(), archive.load(), {{"asin", "B0F3PT1VBL"}});
  EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
  EXPECT_NE(e.detail().find("amazon wall"), std::string::npos) << e.detail();
}

// The same page as Amazon serves it, with 503: the wall is the answer, not the error status.
TEST(AmazonProductInChromium, TheDogsPageServedWith503IsUpstreamBlocked) {
  TempReplayArchive archive;
  TempReplayArchive::Entry dogs = testing::prefix_entry(
      "https://www.amazon.com/dp/B0F3PT1VBL",
      gleaner::testing::site_page(
          "amazon", "blocks/amazon-com-sorry-something-went-wrong-dogs-page-2026-08.html"));
  dogs.status = 503;
  archive.add(dogs);
  const Error e = error_in_chromium(product_endpoint(), archive.load(), {{"asin", "B0F3PT1VBL"}});
  EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked) << e.detail();
  EXPECT_NE(e.detail().find("amazon wall"), std::string::npos) << e.detail();
  EXPECT_NE(e.detail().find("HTTP 503"), std::string::npos) << e.detail();
}

// The robot check of 2025-26 without a picture ("Click the button below to continue shopping"):
// its form posts to /errors/validateCaptcha as the older one's does.
TEST(AmazonProductInChromium, TheContinueShoppingCheckIsUpstreamBlocked) {
  const std::string check = gleaner::testing::site_page(
      "amazon", "blocks/amazon-com-continue-shopping-captcha-2026-02.html");
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/dp/B07FNW9FGJ", check));
  EXPECT_EQ(error_in_chromium(product_endpoint(), archive.load(), {{"asin", "B07FNW9FGJ"}}).code(),
            ErrorCode::UpstreamBlocked);
}

TEST(AmazonProductInChromium, AMissingAsinIsNotFound) {
  TempReplayArchive archive;  // nothing answers: the archive's 404 is Amazon's "page not found"
  EXPECT_EQ(error_in_chromium(product_endpoint(), archive.load(), {{"asin", "B000000000"}}).code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::amazon
