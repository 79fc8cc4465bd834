// GET /scrape/amazon/search end to end in real Chromium over the real 2026 amazon.com results
// page for "RTX 4090" (pages/amazon-search): search.js reads its 16 `data-asin` cards.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::amazon {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

const std::string kRtx = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-com-search-rtx-4090-raw-2026-04.html");

TEST(AmazonSearchInChromium, TheRtx4090ResultsAsAPersonReadsThem) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/s?k=RTX+4090", kRtx));
  auto replay = archive.load();
  auto result =
      run_in_chromium(search_endpoint(), replay, {{"q", "RTX 4090"}, {"sortBy", "featured"}});
  EXPECT_EQ(requested(*replay, "https://www.amazon.com/").front(),
            "https://www.amazon.com/s?k=RTX+4090");
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 16u);
  const auto& first = b["productResults"][0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["asin"], "B0BGT61797");
  EXPECT_EQ(first["title"],
            "ROG Strix GeForce RTX® 4090 OC Edition Gaming Graphics Card (PCIe 4.0, 24GB GDDR6X, "
            "HDMI 2.1a, DisplayPort 1.4a)");
  EXPECT_EQ(first["price"]["symbol"], "$");
  EXPECT_EQ(first["price"]["currentPrice"], 3429.99);
  EXPECT_EQ(first["reviews"]["rating"], 4.6);
  EXPECT_EQ(first["reviews"]["totalReviews"], 289);
  EXPECT_EQ(first["isSponsored"], false);
  EXPECT_TRUE(first["url"].get<std::string>().starts_with(
      "https://www.amazon.com/ASUS-GeForce-Gaming-Graphics-DisplayPort/dp/B0BGT61797/"));
  EXPECT_EQ(first["image"], "https://m.media-amazon.com/images/I/815d7TTP5UL._AC_UY218_.jpg");
  EXPECT_EQ(first["deliveryInfo"]["freeDelivery"], "FREE delivery Wed, May 6");
  // A card with a struck-through list price ("List: $799.99").
  bool listed = false;
  for (const auto& r : b["productResults"]) {
    if (r["price"].contains("beforePrice")) {
      listed = true;
      EXPECT_EQ(r["price"]["beforePrice"], 799.99);
      EXPECT_LT(r["price"]["currentPrice"].get<double>(), 799.99);
    }
  }
  EXPECT_TRUE(listed);
  EXPECT_EQ(b["pagination"]["totalResults"], 521);
  EXPECT_EQ(b["pagination"]["currentPage"], 1);
  EXPECT_NE(b["pagination"]["nextPageUrl"].get<std::string>().find("/s?k=RTX+4090&page=2"),
            std::string::npos);
}

}  // namespace
}  // namespace gleaner::extract::amazon
