// GET /scrape/mart/reviews end to end in real Chromium: the endpoint builds the review page's URL,
// the page is answered from a replay archive with a real Walmart product page (2026: Great Value
// milk, and the Pokémon GO Plus +; tests/sites/walmart/pages/mart-reviews: its __NEXT_DATA__
// holds the same reviews object the site's review pages hold), reviews.js reads it and the C++
// shapes it.
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

// A 2026 product with few reviews with text (231 of 718 ratings): untitled reviews, the
// "Incentivized Review" badge beside "Verified Purchase", the site's own aspects.
TEST(WalmartReviewsInChromium, PokemonGoPlusReviewsAsAPersonReadsThem) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.walmart.com/reviews/product/1203950273",
      gleaner::testing::site_page(
          "walmart", "mart-reviews/walmart-ip-pokemon-go-plus-plus-nintendo-2026.html")));
  auto result = run_in_chromium(reviews_endpoint(), archive.load(), {{"itemId", "1203950273"}});
  const auto& b = result.body;
  EXPECT_EQ(b["product"]["name"], "Pokémon GO Plus +");
  EXPECT_EQ(b["product"]["brand"], "Nintendo");
  EXPECT_EQ(b["reviewsInformation"]["averageRating"], 4.6);
  EXPECT_EQ(b["reviewsInformation"]["totalRatings"], 718);
  EXPECT_EQ(b["reviewsInformation"]["totalReviews"], 231);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["5"], 588);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["4"], 63);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["3"], 13);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["2"], 14);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["1"], 40);
  EXPECT_EQ(b["reviewsInformation"]["recommendedPercentage"], 37);
  EXPECT_EQ(b["pagination"]["totalPages"], 24);
  EXPECT_EQ(b["filters"]["Frequent mentions"][0]["name"], "Vibration");
  EXPECT_EQ(b["filters"]["Frequent mentions"][0]["value"], "18012");
  EXPECT_EQ(b["filters"]["Frequent mentions"][0]["count"], 14);
  const auto& reviews = b["reviews"];
  ASSERT_EQ(reviews.size(), 10u);
  EXPECT_EQ(reviews[0]["author"]["name"], "Michael");
  EXPECT_EQ(reviews[0]["title"], "I like it!");
  EXPECT_EQ(reviews[0]["rating"], 5);
  EXPECT_EQ(reviews[0]["date"], "2026-07-07");
  EXPECT_EQ(reviews[0]["verifiedPurchase"], true);
  EXPECT_FALSE(reviews[1].contains("title"));
  EXPECT_EQ(reviews[1]["author"]["name"], "WalmartCustomer");
  EXPECT_EQ(reviews[1]["badges"], (nlohmann::json{"Verified Purchase", "Incentivized Review"}));
  EXPECT_EQ(reviews[2]["title"], "harvest shiny pokemon without looking at the phone");
  EXPECT_EQ(reviews[2]["positiveFeedback"], 3);
  EXPECT_EQ(reviews[2]["date"], "2024-08-12");
  EXPECT_EQ(b["topNegativeReview"]["author"]["name"], "Harley");
  EXPECT_EQ(b["topNegativeReview"]["title"], "Walmart Sucks");
  EXPECT_EQ(b["topPositiveReview"]["author"]["name"], "Michael");
}

// The site's walls as scrapers kept them: PerimeterX's "Robot or human?" (2025-03, 2026-04 served
// for a search, and 2025-06 as the browser left it, the challenge's loader injected) and the
// edge's "Request Rejected" page with its support ID (2025-07).
TEST(WalmartReviewsInChromium, TheSitesWallsAreUpstreamBlocked) {
  for (const char* wall : {"blocks/walmart-com-robot-or-human-block-2025-03.html",
                           "blocks/walmart-com-robot-or-human-search-2026-04.html",
                           "blocks/walmart-com-robot-or-human-px-loader-2025-06.html",
                           "blocks/walmart-com-request-rejected-support-id-2025-07.html"}) {
    SCOPED_TRACE(wall);
    TempReplayArchive archive;
    archive.add(testing::prefix_entry("https://www.walmart.com/reviews/product/",
                                      gleaner::testing::site_page("walmart", wall)));
    EXPECT_EQ(
        error_in_chromium(reviews_endpoint(), archive.load(), {{"itemId", "10450114"}}).code(),
        ErrorCode::UpstreamBlocked);
  }
}

TEST(WalmartReviewsInChromium, AMissingItemIsNotFound) {
  TempReplayArchive archive;  // nothing answers: the archive's 404 is the site's "no such item"
  EXPECT_EQ(error_in_chromium(reviews_endpoint(), archive.load(), {{"itemId", "999"}}).code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::walmart
