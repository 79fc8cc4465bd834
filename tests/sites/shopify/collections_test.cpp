// GET /scrape/shop/collections without a browser: store URLs (any host, never one the address
// guard refuses), limit and page, the collections.json URL, and the shaping of collections.js's
// recorded output on a /collections.json written for the test in the format Shopify stores serve,
// and on the real collections of smartinoshop.ro (a Romanian store, 204 collections of 2026-08,
// tests/sites/shopify/pages/shop) given as the script returns the store's document.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
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

// The store's /collections.json?limit=250&page=1 as collections.js returns it: the kept file is
// the scraper's array of the document's "collections", unchanged.
json smartino_output() {
  return {{"url", "https://www.smartinoshop.ro/collections.json?limit=250&page=1"},
          {"isJson", true},
          {"json",
           {{"collections",
             testing::read_json_file(gleaner::testing::site_page(
                 "shopify", "shop/smartinoshop-ro-collections-json-aggregated-2026-08.json"))}}}};
}

TEST(ShopifyCollectionsShape, TheRomanianStoresCollections) {
  const json b = collections().shape(
      smartino_output(),
      collections().validate({{"url", "https://www.smartinoshop.ro/"}, {"limit", "250"}}));
  const json& list = b["collections"];
  ASSERT_EQ(list.size(), 204u);
  EXPECT_EQ(list[0]["id"], 675582247293);
  EXPECT_EQ(list[0]["title"], "Absorbante");
  EXPECT_EQ(list[0]["productsCount"], 5);
  EXPECT_EQ(list[0]["publishedAt"], "2025-11-06T22:52:04+02:00");
  EXPECT_FALSE(list[0].contains("image"));  // the store gives none
  // A handle in Romanian letters, its link as the store's address writes it; an empty collection.
  EXPECT_EQ(list[9]["title"], "Bețișoare parfumate");
  EXPECT_EQ(list[9]["link"],
            "https://www.smartinoshop.ro/collections/be%C8%9Bi%C8%99oare-parfumate");
  EXPECT_EQ(list[9]["productsCount"], 0);
  // The front page's description is null, the others' "".
  EXPECT_EQ(list[50]["handle"], "frontpage");
  EXPECT_EQ(list[50]["description"], "");
  EXPECT_FALSE(list[50].contains("descriptionHtml"));
  EXPECT_EQ(list[203]["title"], "Șampoane");
  EXPECT_EQ(list[203]["position"], 204);
  EXPECT_FALSE(b["pagination"].contains("nextPage"));  // 204 of 250: the last page
}

// The one collection with a description: paragraphs with bold words inside sentences and empty
// paragraphs holding comments. Bold words run on in their sentence ("tensioactivă, care").
TEST(ShopifyCollectionsShape, ADescriptionReadsAsItsText) {
  const json b = collections().shape(
      smartino_output(),
      collections().validate({{"url", "https://www.smartinoshop.ro/"}, {"limit", "250"}}));
  const json& acti = b["collections"][190];
  ASSERT_EQ(acti["title"], "Sleepy Easy Clean Acti Foam");
  const std::string text = acti["description"];
  EXPECT_TRUE(text.starts_with(
      "Noile produse Sleepy Easy Clean cu spumă activă reunesc soluțiile esențiale"))
      << text;
  EXPECT_NE(text.find("calcar. Formula lor naturală"), std::string::npos) << text;
  EXPECT_NE(text.find("spumă activă tensioactivă, care desprinde murdăria, și White Micro "
                      "Cyclone, care captează"),
            std::string::npos)
      << text;
  EXPECT_TRUE(text.ends_with("capete de duș).")) << text;
  EXPECT_TRUE(acti["descriptionHtml"].get<std::string>().starts_with("<p data-start=\"256\""));
}

TEST(ShopifyCollectionsShape, EntitiesReadAsTheirCharacters) {
  const json doc = {{"collections",
                     {{{"id", 1},
                       {"title", "Bed & Bath"},
                       {"handle", "bed-bath"},
                       {"description",
                        "<p>Towels&nbsp;&amp; robes &#8211; 100&#x25; cotton, &quot;soft&quot;"
                        "</p><ul><li>Bath</li><li>Beach</li></ul>A&B; x &eacute;t&eacute; "
                        "&hellip;<script>var x = 1;</script><style>p{}</style>"}}}}};
  const json b = collections().shape(json{{"json", doc}},
                                     collections().validate({{"url", "https://store.test/"}}));
  EXPECT_EQ(b["collections"][0]["description"],
            "Towels & robes \u2013 100% cotton, \"soft\" Bath Beach A&B; x \u00e9t\u00e9 \u2026");
}

}  // namespace
}  // namespace gleaner::extract::shopify
