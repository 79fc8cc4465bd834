// GET /scrape/shopify/products end to end in real Chromium over the real products of the store
// mattressguru.biz (pages/shop: the 25 products its /products.json answered in 2020, kept by a
// scraper inside a wrapper of its own, served as the store's document), and over a store's HTML
// page where the JSON should be. The document is read on the plain road (no renderer) unless its
// answer there is no document: a Cloudflare wall (a real one, tests/sites/indeed/pages/blocks/)
// sends the request on the browser road.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::shopify {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

TEST(ShopifyProductsInChromium, AStoresProductsAsShopifyWritesThem) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://mattressguru.biz/products.json",
      gleaner::testing::site_page(
          "shopify", "shop/shopify-mattressguru-products-json-aggregated-2020-07.json")));
  auto replay = archive.load();
  auto result = run_in_chromium(products_endpoint(), replay,
                                {{"url", "https://mattressguru.biz/pages/about"}, {"limit", "25"}});
  EXPECT_EQ(requested(*replay, "https://mattressguru.biz/"),
            std::vector<std::string>{"https://mattressguru.biz/products.json?limit=25&page=1"});
  // Read without a renderer, saying it is the Chrome the browser road runs.
  EXPECT_EQ(result.road, Road::Plain);
  const std::string agent = replay->requests().front().user_agent;
  EXPECT_NE(agent.find(" Chrome/"), std::string::npos) << agent;
  EXPECT_EQ(agent.find("Headless"), std::string::npos) << agent;
  const auto& products = result.body["products"];
  ASSERT_EQ(products.size(), 25u);
  EXPECT_EQ(products[0]["id"], 4394415816819);
  EXPECT_EQ(products[0]["title"], "Sealy-Ease 2.0 - Adjustable Base");
  EXPECT_EQ(products[0]["vendor"], "Mega Furniture USA");
  // Shopify's own keys and values, passed through: prices as strings, snake_case.
  EXPECT_EQ(products[0]["variants"][0]["price"], "749.00");
  EXPECT_EQ(products[0]["variants"][0]["title"], "TwinXL");
  EXPECT_TRUE(products[0]["variants"][0]["compare_at_price"].is_null());
  EXPECT_EQ(products[24]["title"], "The Nectar Memory Foam Mattress");
  EXPECT_FALSE(result.body.contains("endpoint_attempted"));  // the scraper's wrapper is not ours
}

TEST(ShopifyProductsInChromium, AWallOnThePlainRoadSendsTheRequestOnTheBrowserRoad) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://mattressguru.biz/products.json",
      gleaner::testing::site_page(
          "shopify", "shop/shopify-mattressguru-products-json-aggregated-2020-07.json")));
  auto replay = archive.load();
  // The store's Cloudflare challenges the plain client (403, "Just a moment..."), not Chromium.
  auto wall = std::make_shared<testing::WallOnce>(
      "https://mattressguru.biz/products.json",
      gleaner::testing::site_page("indeed",
                                  "blocks/indeed-cloudflare-just-a-moment-block-2026-02.html"),
      403);
  auto result = testing::run_with(products_endpoint(), {wall, replay},
                                  {{"url", "https://mattressguru.biz"}, {"limit", "25"}});
  EXPECT_TRUE(wall->walled());
  EXPECT_EQ(result.road, Road::Browser);
  EXPECT_EQ(result.body["products"].size(), 25u);
  EXPECT_EQ(result.body["products"][0]["title"], "Sealy-Ease 2.0 - Adjustable Base");
}

TEST(ShopifyProductsInChromium, ACollectionsProducts) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://mattressguru.biz/collections/mattresses/products.json",
      gleaner::testing::site_page(
          "shopify", "shop/shopify-mattressguru-products-json-aggregated-2020-07.json")));
  auto replay = archive.load();
  run_in_chromium(
      products_endpoint(), replay,
      {{"url", "https://mattressguru.biz"}, {"collection", "mattresses"}, {"page", "2"}});
  EXPECT_EQ(requested(*replay, "https://mattressguru.biz/").front(),
            "https://mattressguru.biz/collections/mattresses/products.json?limit=1&page=2");
}

TEST(ShopifyProductsInChromium, NotAShopifyStoreIsExtractionFailed) {
  TempReplayArchive archive;
  archive.page("https://shop.test/products.json?limit=1&page=1",
               "<html><head><title>Our shop</title></head><body><h1>Welcome to our shop</h1>"
               "<p>Browse our products, visit us in town, or call us any day of the "
               "week.</p></body></html>");
  EXPECT_EQ(
      error_in_chromium(products_endpoint(), archive.load(), {{"url", "https://shop.test"}}).code(),
      ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::shopify
