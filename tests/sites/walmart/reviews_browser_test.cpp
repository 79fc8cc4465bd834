// GET /scrape/mart/reviews end to end in real Chromium: the endpoint builds the review page's URL,
// the page is answered from a replay archive with the real Walmart product page of the fixtures
// (tests/sites/walmart/pages/mart-reviews: its __NEXT_DATA__ holds the same reviews object the
// site's review pages hold), reviews.js reads it and the C++ shapes it.
#include <gtest/gtest.h>

#include "extract/sites/walmart/reviews.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::walmart {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kMilk = gleaner::testing::site_page(
    "walmart", "mart-reviews/walmart-ip-great-value-milk-10450114-2026.html");

TEST(WalmartReviewsInChromium, MilkReviewsAsAPersonReadsThem) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.walmart.com/reviews/product/10450114", kMilk));
  auto replay = archive.load();
  auto result = run_in_chromium(
      reviews_endpoint(), replay,
      {{"url",
        "https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk-Gallon-Plastic-Jug-"
        "128-Fl-Oz/10450114"},
       {"sort", "newestFirst"},
       {"verifiedPurchasesOnly", "true"}});
  EXPECT_EQ(requested(*replay, "https://www.walmart.com/reviews").front(),
            "https://www.walmart.com/reviews/product/10450114?sort=submission-desc"
            "&filter=verifiedPurchase");
  const auto& b = result.body;
  EXPECT_EQ(b["product"]["name"], "Great Value Whole Vitamin D Milk, Gallon");
  EXPECT_EQ(b["product"]["itemId"], "10450114");
  EXPECT_EQ(b["reviewsInformation"]["averageRating"], 4.6);
  EXPECT_EQ(b["reviewsInformation"]["totalRatings"], 350534);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["5"], 287948);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["1"], 19705);
  EXPECT_EQ(b["reviewsInformation"]["recommendedPercentage"], 83);
  ASSERT_EQ(b["reviews"].size(), 10u);
  EXPECT_EQ(b["reviews"][1]["author"]["name"], "Melissa");
  EXPECT_EQ(b["reviews"][1]["title"], "My Milky Experience");
  EXPECT_EQ(b["reviews"][1]["date"], "2025-11-22");
  EXPECT_EQ(b["topNegativeReview"]["author"]["name"], "James");
  EXPECT_EQ(b["language"], "en");
}

TEST(WalmartReviewsInChromium, RobotOrHumanWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.walmart.com/reviews/product/",
      gleaner::testing::site_page("walmart",
                                  "blocks/walmart-com-robot-or-human-block-2025-03.html")));
  EXPECT_EQ(error_in_chromium(reviews_endpoint(), archive.load(), {{"itemId", "10450114"}}).code(),
            ErrorCode::UpstreamBlocked);
}

TEST(WalmartReviewsInChromium, AMissingItemIsNotFound) {
  TempReplayArchive archive;  // nothing answers: the archive's 404 is the site's "no such item"
  EXPECT_EQ(error_in_chromium(reviews_endpoint(), archive.load(), {{"itemId", "999"}}).code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::walmart
