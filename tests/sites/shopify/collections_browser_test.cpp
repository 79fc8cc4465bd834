// GET /scrape/shop/collections end to end in real Chromium: a /collections.json written for the
// test in the format Shopify stores serve, a store's HTML page where the JSON should be (not a
// Shopify store), and a store without the document.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::shopify {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::run_in_chromium;

TEST(ShopifyCollectionsInChromium, AStoresCollections) {
  TempReplayArchive archive;
  archive.file(
      "https://store.test/collections.json?limit=2&page=1",
      std::string(GLEANER_SOURCE_DIR) +
          "/tests/sites/shopify/data/collections/store-collections-documented-format.json");
  auto result = run_in_chromium(collections_endpoint(), archive.load(),
                                {{"url", "https://store.test/"}, {"limit", "2"}});
  EXPECT_EQ(result.body["collections"][1]["title"], "Mattresses");
  EXPECT_EQ(result.body["collections"][1]["productsCount"], 42);
}

TEST(ShopifyCollectionsInChromium, NotAShopifyStoreSaysSo) {
  TempReplayArchive archive;
  archive.page("https://shop.test/collections.json?limit=30&page=1",
               "<html><head><title>Our shop</title></head><body><h1>Welcome to our shop</h1>"
               "<p>Browse our products, visit us in town, or call us any day of the "
               "week.</p></body></html>");
  const Error e =
      error_in_chromium(collections_endpoint(), archive.load(), {{"url", "https://shop.test"}});
  EXPECT_EQ(e.code(), ErrorCode::NotFound);
  EXPECT_NE(std::string(e.what()).find("not a Shopify store"), std::string::npos);
  TempReplayArchive none;  // 404 for /collections.json
  EXPECT_EQ(
      error_in_chromium(collections_endpoint(), none.load(), {{"url", "https://shop.test"}}).code(),
      ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::shopify
