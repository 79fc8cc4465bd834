// GET /scrape/shop/collections without a browser: store URLs (any host, never one the address
// guard refuses), limit and page, the collections.json URL, and the shaping of collections.js's
// recorded output on a /collections.json written for the test in the format Shopify stores serve
// (no real one is among the fixtures, which keep a store's products.json only).
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::shopify {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& collections() {
  return collections_endpoint();
}

TEST(ShopifyCollectionsParameters, AnyStoreButNeverOurOwnNetwork) {
  EXPECT_EQ(rejection(collections(), {}), refused(ErrorCode::MissingParameter, "url"));
  for (const char* bad :
       {"ftp://store.test/", "file:///etc/passwd", "http://127.0.0.1/", "http://localhost:8080/",
        "http://10.0.0.5/", "http://169.254.169.254/", "http://[::1]/", "http://2130706433/"}) {
    EXPECT_EQ(rejection(collections(), {{"url", bad}}), refused(ErrorCode::InvalidParameter, "url"))
        << bad;
  }
  EXPECT_EQ(rejection(collections(), {{"url", "https://store.test"}, {"limit", "0"}}),
            refused(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(rejection(collections(), {{"url", "https://store.test"}, {"limit", "251"}}),
            refused(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(rejection(collections(), {{"url", "https://store.test"}, {"page", "0"}}),
            refused(ErrorCode::InvalidParameter, "page"));
  auto url = [](const QueryParams& q) {
    return collections().build_request(collections().validate(q)).url;
  };
  EXPECT_EQ(url({{"url", "https://www.mattressguru.com/collections/all?x=1"}}),
            "https://www.mattressguru.com/collections.json?limit=30&page=1");
  EXPECT_EQ(url({{"url", "http://Store.Test:8080"}, {"limit", "250"}, {"page", "3"}}),
            "http://store.test:8080/collections.json?limit=250&page=3");
  EXPECT_EQ(collections().route(), "shop/collections");
}

TEST(ShopifyCollectionsShape, TheDocumentedFormat) {
  const json b = collections().shape(
      testing::recorded("shopify/data/collections/documented-format_script_output.json"),
      collections().validate({{"url", "https://store.test/"}, {"limit", "2"}}));
  ASSERT_EQ(b["collections"].size(), 2u);
  const json& front = b["collections"][0];
  EXPECT_EQ(front["position"], 1);
  EXPECT_EQ(front["id"], 841564295);
  EXPECT_EQ(front["title"], "Home page");
  EXPECT_EQ(front["handle"], "frontpage");
  EXPECT_EQ(front["link"], "https://store.test/collections/frontpage");
  EXPECT_EQ(front["description"], "Our best sellers and new arrivals.");
  EXPECT_EQ(front["descriptionHtml"], "<p>Our <strong>best sellers</strong> and new arrivals.</p>");
  EXPECT_EQ(front["image"]["width"], 800);
  EXPECT_EQ(front["productsCount"], 8);
  EXPECT_EQ(front["publishedAt"], "2023-07-15T14:45:06-04:00");
  EXPECT_FALSE(b["collections"][1].contains("image"));
  EXPECT_EQ(b["pagination"], (json{{"currentPage", 1}, {"limit", 2}, {"nextPage", 2}}));
}

TEST(ShopifyCollectionsShape, NotAStoreIsNotFoundAndAnEmptyPageIsTheLast) {
  EXPECT_EQ(testing::error_of_shape(
                collections(), json{{"isJson", false}, {"json", nullptr}, {"title", "Welcome"}},
                collections().validate({{"url", "https://example.test/"}})),
            ErrorCode::NotFound);
  const json b =
      collections().shape(json{{"json", {{"collections", json::array()}}}},
                          collections().validate({{"url", "https://store.test/"}, {"page", "9"}}));
  EXPECT_EQ(b["collections"], json::array());
  EXPECT_FALSE(b["pagination"].contains("nextPage"));
}

}  // namespace
}  // namespace gleaner::extract::shopify
