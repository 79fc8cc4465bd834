// GET /scrape/shop/collections end to end in real Chromium: the real collections of a Romanian
// store (smartinoshop.ro, 2026-08; pages/shop keeps the scraper's array of the document's
// "collections", served here inside the document the store answered), a /collections.json
// written for the test in the format Shopify stores serve, a store's HTML page where the JSON
// should be (not a Shopify store), and a store without the document.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::shopify {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::run_in_chromium;

TEST(ShopifyCollectionsInChromium, ARomanianStoresCollections) {
  std::ifstream in(gleaner::testing::site_page(
      "shopify", "shop/smartinoshop-ro-collections-json-aggregated-2026-08.json"));
  std::stringstream saved;
  saved << in.rdbuf();
  TempReplayArchive archive;
  TempReplayArchive::Entry doc;
  doc.url = "https://www.smartinoshop.ro/collections.json?limit=250&page=1";
  doc.body = "{\"collections\": " + saved.str() + "}";
  doc.file_name = "collections.json";
  archive.add(doc);
  auto result = run_in_chromium(collections_endpoint(), archive.load(),
                                {{"url", "https://www.smartinoshop.ro/"}, {"limit", "250"}});
  EXPECT_EQ(result.road, Road::Plain);  // a document: read without a renderer
  const auto& list = result.body["collections"];
  ASSERT_EQ(list.size(), 204u);
  EXPECT_EQ(list[0]["title"], "Absorbante");
  EXPECT_EQ(list[0]["productsCount"], 5);
  EXPECT_EQ(list[9]["title"], "Bețișoare parfumate");
  EXPECT_EQ(list[9]["link"],
            "https://www.smartinoshop.ro/collections/be%C8%9Bi%C8%99oare-parfumate");
  EXPECT_EQ(list[9]["productsCount"], 0);
  EXPECT_EQ(list[8]["title"], "Best sellers");
  EXPECT_EQ(list[8]["productsCount"], 2034);
  EXPECT_NE(list[190]["description"].get<std::string>().find(
                "activă tensioactivă, care desprinde murdăria"),
            std::string::npos);
  EXPECT_EQ(list[203]["title"], "Șampoane");
  EXPECT_EQ(list[203]["updatedAt"], "2026-07-30T15:13:15+03:00");
  EXPECT_FALSE(result.body["pagination"].contains("nextPage"));
}

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
