// GET /scrape/amazon/product without a browser: its parameters, the /dp/ URL of each storefront,
// the price reader of every locale the storefronts write, and the shaping of product.js's
// recorded output on the real amazon.com, amazon.in, amazon.es and amazon.com.br pages.
#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/sites/amazon/storefront.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::amazon {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& product() {
  return product_endpoint();
}

TEST(AmazonProductParameters, AsinAndStorefront) {
  EXPECT_EQ(rejection(product(), {}), refused(ErrorCode::MissingParameter, "asin"));
  EXPECT_EQ(rejection(product(), {{"asin", "B07FNW9FG"}}),
            refused(ErrorCode::InvalidParameter, "asin"));
  EXPECT_EQ(rejection(product(), {{"asin", "B07FNW9FGJ"}, {"domain", "www.amazon.cn"}}),
            refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(rejection(product(), {{"asin", "B07FNW9FGJ"}, {"language", "XX"}}),
            refused(ErrorCode::InvalidParameter, "language"));
  for (const std::string& d : domains()) {
    EXPECT_EQ(rejection(product(), {{"asin", "B07FNW9FGJ"}, {"domain", d}}),
              refused(ErrorCode::Internal, "accepted"))
        << d;
  }
  const auto request = product().build_request(
      product().validate({{"asin", "b07fnw9fgj"}, {"domain", "amazon.co.jp"}, {"language", "JP"}}));
  EXPECT_EQ(request.url, "https://www.amazon.co.jp/dp/B07FNW9FGJ");
  EXPECT_EQ(request.profile.headers.at("Accept-Language"), "ja");
  EXPECT_EQ(product().build_request(product().validate({{"asin", "B07FNW9FGJ"}})).url,
            "https://www.amazon.com/dp/B07FNW9FGJ");
}

TEST(AmazonPrices, EachStorefrontsLocale) {
  struct Case {
    const char* storefront;
    const char* text;
    const char* symbol;
    double amount;
  };
  for (const Case& c :
       {Case{"www.amazon.com", "$15.99", "$", 15.99},
        Case{"www.amazon.com", "$3,429.99", "$", 3429.99},
        Case{"www.amazon.in", "₹52,990.00", "₹", 52990}, Case{"www.amazon.in", "₹2,219", "₹", 2219},
        Case{"www.amazon.sa", "SAR 1,279.00", "SAR", 1279},
        Case{"www.amazon.fr", "33,69 €", "€", 33.69},
        Case{"www.amazon.de", "1.234,50 €", "€", 1234.5},
        Case{"www.amazon.com.br", "R$ 1.299,00", "R$", 1299},
        Case{"www.amazon.co.jp", "￥3,480", "￥", 3480},
        Case{"www.amazon.co.jp", "￥1,980", "￥", 1980},
        Case{"www.amazon.es", "52,41€", "€", 52.41},
        Case{"www.amazon.com.br", "R$1.399,00", "R$", 1399},
        Case{"www.amazon.com.mx", "$1,299.00", "$", 1299},
        Case{"www.amazon.sa", "٣٤٩٫٠٠ ر.س.", "ر.س.", 349},
        Case{"www.amazon.ae", "١٬٢٣٤٫٥٠ د.إ.", "د.إ.", 1234.5}}) {
    SCOPED_TRACE(c.text);
    auto price = parse_price(c.text, decimal_mark_of_storefront(c.storefront));
    ASSERT_TRUE(price);
    EXPECT_EQ(price->symbol, c.symbol);
    EXPECT_DOUBLE_EQ(price->amount, c.amount);
  }
  EXPECT_FALSE(parse_price("Currently unavailable", DecimalMark::Dot));
}

// A page's language says how it writes numbers when it differs from its storefront's: amazon.nl
// in English writes "€1,299.00", amazon.com in Spanish still "$1,299.00", amazon.ca in French
// "1 299,00 $". Without a known language the storefront decides.
TEST(AmazonPrices, ThePagesLanguageBeforeTheStorefront) {
  EXPECT_EQ(decimal_mark_of_page("en-gb", "www.amazon.nl"), DecimalMark::Dot);
  EXPECT_EQ(decimal_mark_of_page("es-us", "www.amazon.com"), DecimalMark::Dot);
  EXPECT_EQ(decimal_mark_of_page("fr-ca", "www.amazon.ca"), DecimalMark::Comma);
  EXPECT_EQ(decimal_mark_of_page("", "www.amazon.de"), DecimalMark::Comma);
  EXPECT_EQ(decimal_mark_of_page("ar-ae", "www.amazon.ae"), DecimalMark::Dot);
  EXPECT_DOUBLE_EQ(parse_price("€1,299", decimal_mark_of_page("en-gb", "www.amazon.nl"))->amount,
                   1299);
  EXPECT_DOUBLE_EQ(
      parse_price("1 299,00 $", decimal_mark_of_page("fr-ca", "www.amazon.ca"))->amount, 1299);
  // Star lines put the rating before or after the scale of 5.
  EXPECT_EQ(parse_rating("4.4 out of 5 stars", DecimalMark::Dot), 4.4);
  EXPECT_EQ(parse_rating("4,3 de 5 estrellas", DecimalMark::Comma), 4.3);
  EXPECT_EQ(parse_rating("5つ星のうち4.1", DecimalMark::Dot), 4.1);
  EXPECT_EQ(parse_rating("5.0 out of 5 stars", DecimalMark::Dot), 5);
  EXPECT_EQ(parse_rating("٤٫٥ من ٥ نجوم", DecimalMark::Dot), 4.5);
  EXPECT_EQ(parse_rating("4.6", DecimalMark::Dot), 4.6);
  EXPECT_FALSE(parse_rating("", DecimalMark::Dot));
}

TEST(AmazonProductShape, TheRecordedShirtPage) {
  const json out = testing::recorded("amazon/data/product/data-analyst-tshirt_script_output.json");
  const json body = product().shape(out, product().validate({{"asin", "B07FNW9FGJ"}}));
  const json& p = body["product"];
  EXPECT_EQ(p["price"], json({{"symbol", "$"}, {"currentPrice", 15.99}}));
  EXPECT_EQ(p["brand"], "Data Analyst & Business Analytics Tees");
  EXPECT_EQ(p["reviewsInfo"], json({{"rating", 4.4}, {"totalReviews", 22}}));
  EXPECT_TRUE(product().has_content(body));
}

TEST(AmazonProductShape, TheRecordedUnavailablePage) {
  const json out = testing::recorded("amazon/data/product/iphone-13-in_script_output.json");
  const json body = product().shape(
      out, product().validate({{"asin", "B09V4B6K53"}, {"domain", "www.amazon.in"}}));
  EXPECT_EQ(body["product"]["isAvailable"], false);
  EXPECT_FALSE(body["product"].contains("price"));
  // Without its title the page is one we could not read.
  json without = out;
  without["title"] = "";
  EXPECT_FALSE(product().has_content(product().shape(
      without, product().validate({{"asin", "B09V4B6K53"}, {"domain", "www.amazon.in"}}))));
}

// amazon.es, a deal: the display block's price, its struck-through recommended price and its
// savings, never the price per unit beside the price ("(26,21€ / 2)").
TEST(AmazonProductShape, TheRecordedSpanishDeal) {
  const json out =
      testing::recorded("amazon/data/product/hercules-djmonitor-es_script_output.json");
  const json body = product().shape(
      out, product().validate({{"asin", "B07JH148DF"}, {"domain", "www.amazon.es"}}));
  const json& p = body["product"];
  EXPECT_EQ(p["price"], json({{"symbol", "€"},
                              {"currentPrice", 52.41},
                              {"beforePrice", 66.11},
                              {"discount", "-21 %"}}));
  EXPECT_EQ(p["reviewsInfo"], json({{"rating", 4.3}, {"totalReviews", 972}}));
  EXPECT_EQ(p["availability"], "En stock");
}

// amazon.com.br: the page shows no price for the item (its buy box is empty); the R$ amounts of
// its carousels are other products'.
TEST(AmazonProductShape, TheRecordedBrazilianPageWithoutABuyBoxPrice) {
  const json out = testing::recorded("amazon/data/product/echo-dot-br_script_output.json");
  const json body = product().shape(
      out, product().validate({{"asin", "B09B8VGCR8"}, {"domain", "www.amazon.com.br"}}));
  const json& p = body["product"];
  EXPECT_EQ(p["isAvailable"], false);
  EXPECT_FALSE(p.contains("price"));
  EXPECT_EQ(p["reviewsInfo"], json({{"rating", 4.7}, {"totalReviews", 79598}}));
  EXPECT_EQ(p["variants"].size(), 3u);
  EXPECT_TRUE(product().has_content(body));
}

// A book's format swatches are its variants when the page has no twister: the selected format's
// ASIN is the page's; a page of one format has none.
TEST(AmazonProductShape, ABooksFormatsAreItsVariants) {
  const json formats =
      json::array({{{"asin", "B07DHRMBCJ"}, {"format", "Kindle"}},
                   {{"asin", nullptr}, {"selected", true}, {"format", " Taschenbuch "}}});
  json out = {{"title", "t"}, {"asin", "0356510344"}, {"formats", formats}};
  const json p = product().shape(out, product().validate({{"asin", "0356510344"}}))["product"];
  EXPECT_EQ(p["variants"],
            json::array({{{"asin", "B07DHRMBCJ"}, {"dimensions", {{"Format", "Kindle"}}}},
                         {{"asin", "0356510344"}, {"dimensions", {{"Format", "Taschenbuch"}}}}}));
  out["formats"] = json::array({formats[0]});
  EXPECT_TRUE(product()
                  .shape(out, product().validate({{"asin", "0356510344"}}))["product"]["variants"]
                  .empty());
}

// The brand: the byline's brand search, else its store when the byline says that name, else the
// byline without the storefront's wording, else the specification's brand row in its language.
TEST(AmazonProductShape, TheBrandOfEveryBylineForm) {
  const auto brand_of = [](const std::string& url, const std::string& byline,
                           const json& spec = json::object()) {
    json out = {
        {"title", "t"}, {"bylineUrl", url}, {"byline", byline}, {"overview", json::array()}};
    for (const auto& [k, v] : spec.items()) out["overview"].push_back({k, v});
    const json p = product().shape(out, product().validate({{"asin", "B07FNW9FGJ"}}))["product"];
    return p.value("brand", std::string());
  };
  EXPECT_EQ(
      brand_of("https://www.amazon.com.br/s/ref=x?field-brandtextbin=Amazon", "Marca: Amazon"),
      "Amazon");
  EXPECT_EQ(brand_of("https://www.amazon.com/stores/Darong/page/F9B8", "Visit the Darong Store"),
            "Darong");
  // The store's name without its space ("InstantPot"): the brand as the byline writes it.
  EXPECT_EQ(
      brand_of("https://www.amazon.com/stores/InstantPot/page/64EB", "Visit the Instant Pot Store"),
      "Instant Pot");
  EXPECT_EQ(brand_of("https://www.amazon.com.mx/stores/CATEYEWEAR/page/BAEC",
                     "Visita la tienda de Cat Footwear"),
            "Cat Footwear");
  EXPECT_EQ(brand_of("https://www.amazon.de/stores/XY/page/1", "Besuche den Bosch-Store"), "Bosch");
  EXPECT_EQ(brand_of("https://www.amazon.co.jp/stores/X/page/1", "香源のストアを表示"), "香源");
  EXPECT_EQ(brand_of("", "", {{"Marke", "Bosch"}}), "Bosch");
  EXPECT_EQ(brand_of("https://www.amazon.com.br/b/?node=19877613011",
                     "Visite a loja de Echo e Alexa da Amazon"),
            "");
  EXPECT_EQ(brand_of("", ""), "");
}

}  // namespace
}  // namespace gleaner::extract::amazon
