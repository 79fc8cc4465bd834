// GET /scrape/shopify/products without a browser: its parameters, the products document's URL,
// and the shaping of products.js's recorded output on the real mattressguru.biz products.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::shopify {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& products() {
  return products_endpoint();
}
std::string url_of(const QueryParams& q) {
  return products().build_request(products().validate(q)).url;
}

TEST(ShopifyProductsParameters, StoreLimitPageCollection) {
  EXPECT_EQ(rejection(products(), {}), refused(ErrorCode::MissingParameter, "url"));
  EXPECT_EQ(rejection(products(), {{"url", "http://127.0.0.1/"}}),
            refused(ErrorCode::InvalidParameter, "url"));
  EXPECT_EQ(rejection(products(), {{"url", "https://a.test"}, {"limit", "251"}}),
            refused(ErrorCode::InvalidParameter, "limit"));
  EXPECT_EQ(rejection(products(), {{"url", "https://a.test"}, {"collection", "../admin"}}),
            refused(ErrorCode::InvalidParameter, "collection"));
  EXPECT_EQ(url_of({{"url", "https://b2bdemoexperience.myshopify.com"}}),
            "https://b2bdemoexperience.myshopify.com/products.json?limit=1&page=1");
  EXPECT_EQ(url_of({{"url", "https://a.test:8443/x"},
                    {"limit", "50"},
                    {"page", "3"},
                    {"collection", "all"}}),
            "https://a.test:8443/collections/all/products.json?limit=50&page=3");
}

TEST(ShopifyProductsShape, TheRecordedProducts) {
  const json out = testing::recorded("shopify/data/products/mattressguru_script_output.json");
  const auto params = products().validate({{"url", "https://mattressguru.biz/"}, {"limit", "25"}});
  const json body = products().shape(out, params);
  ASSERT_EQ(body["products"].size(), 25u);
  EXPECT_EQ(body["products"][0], out["products"][0]);  // passed through unchanged
  EXPECT_TRUE(products().has_content(body));
  // A page past the last one: the store's own empty list.
  json empty = out;
  empty["products"] = json::array();
  EXPECT_TRUE(products().has_content(products().shape(empty, params)));
  json none = out;
  none["products"] = nullptr;
  EXPECT_EQ(testing::error_of_shape(products(), none, params), ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::shopify
