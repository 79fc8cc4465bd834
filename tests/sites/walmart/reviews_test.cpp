// GET /scrape/mart/reviews without a browser: every parameter rule of api.md, the review page's
// URL for each combination, and the shaping of reviews.js's recorded output on the real 2026
// product page of the fixtures (Great Value milk, item 10450114), plus the second item of the
// scrapfly extract (a PS5, its reviews object unchanged) given in the script's output shape.
#include "extract/sites/walmart/reviews.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/pages.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::walmart {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& reviews() {
  return reviews_endpoint();
}
json milk() {
  return testing::recorded("walmart/data/reviews/great-value-milk_script_output.json");
}
const std::string kMilkUrl =
    "https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk-Gallon-Plastic-Jug-128-Fl-Oz/"
    "10450114";

std::string url_of(const QueryParams& q) {
  return reviews().build_request(reviews().validate(q)).url;
}

TEST(WalmartReviewsParameters, ItemIdOrUrl) {
  EXPECT_EQ(rejection(reviews(), {}), refused(ErrorCode::MissingParameter, "itemId"));
  EXPECT_EQ(rejection(reviews(), {{"itemId", "10450114"}}),
            refused(ErrorCode::Internal, "accepted"));
  // Numeric on walmart.com, letters and digits on walmart.ca.
  EXPECT_EQ(rejection(reviews(), {{"itemId", "5TQ2C2B0TBRR"}}),
            refused(ErrorCode::InvalidParameter, "itemId"));
  EXPECT_EQ(rejection(reviews(), {{"itemId", "5TQ2C2B0TBRR"}, {"domain", "walmart.ca"}}),
            refused(ErrorCode::Internal, "accepted"));
  EXPECT_EQ(rejection(reviews(), {{"itemId", "1"}, {"domain", "amazon.com"}}),
            refused(ErrorCode::InvalidParameter, "domain"));
  EXPECT_EQ(rejection(reviews(), {{"url", "https://www.amazon.com/ip/x/10450114"}}),
            refused(ErrorCode::InvalidParameter, "url"));
  EXPECT_EQ(rejection(reviews(), {{"url", "https://www.walmart.com/browse/milk"}}),
            refused(ErrorCode::InvalidParameter, "url"));
  EXPECT_EQ(rejection(reviews(), {{"url", "ftp://www.walmart.com/ip/x/1"}}),
            refused(ErrorCode::InvalidParameter, "url"));
  // The url wins over itemId and domain.
  EXPECT_EQ(url_of({{"url", kMilkUrl}, {"itemId", "1"}, {"domain", "walmart.ca"}}),
            "https://www.walmart.com/reviews/product/10450114");
}

TEST(WalmartReviewsParameters, PagingSortingAndFilters) {
  const QueryParams base = {{"itemId", "10450114"}};
  auto with = [&](std::string k, std::string v) {
    QueryParams q = base;
    q.emplace(std::move(k), std::move(v));
    return rejection(reviews(), q);
  };
  EXPECT_EQ(with("page", "0"), refused(ErrorCode::InvalidParameter, "page"));
  EXPECT_EQ(with("page", "x"), refused(ErrorCode::InvalidParameter, "page"));
  EXPECT_EQ(with("sort", "newest"), refused(ErrorCode::InvalidParameter, "sort"));
  EXPECT_EQ(with("rating", "0"), refused(ErrorCode::InvalidParameter, "rating"));
  EXPECT_EQ(with("rating", "6"), refused(ErrorCode::InvalidParameter, "rating"));
  EXPECT_EQ(with("aspectId", "56,48"), refused(ErrorCode::InvalidParameter, "aspectId"));
  EXPECT_EQ(with("verifiedPurchasesOnly", "maybe"),
            refused(ErrorCode::InvalidParameter, "verifiedPurchasesOnly"));
  // A condition only for a variant the url names.
  EXPECT_EQ(with("condition", "NEW"), refused(ErrorCode::InvalidParameter, "condition"));
  EXPECT_EQ(rejection(reviews(), {{"url", kMilkUrl + "?conditionGroupCode=1"}, {"condition", "2"}}),
            refused(ErrorCode::Internal, "accepted"));
  QueryParams twice = base;
  twice.emplace("aspectId", "56");
  twice.emplace("aspectId", "48");
  EXPECT_EQ(rejection(reviews(), twice), refused(ErrorCode::InvalidParameter, "aspectId"));
}

TEST(WalmartReviewsUrl, TheReviewPageAPersonOpens) {
  EXPECT_EQ(url_of({{"itemId", "10450114"}}), "https://www.walmart.com/reviews/product/10450114");
  EXPECT_EQ(url_of({{"itemId", "10450114"},
                    {"page", "3"},
                    {"sort", "lowestRating"},
                    {"rating", "1"},
                    {"aspectId", "56"}}),
            "https://www.walmart.com/reviews/product/10450114?page=3&sort=rating-asc&ratings=1"
            "&aspect=56");
  EXPECT_EQ(url_of({{"itemId", "10450114"}, {"language", "es"}}),
            "https://www.walmart.com/es/reviews/product/10450114");
  // An unsupported language falls back to the storefront's default.
  EXPECT_EQ(url_of({{"itemId", "10450114"}, {"language", "fr"}}),
            "https://www.walmart.com/reviews/product/10450114");
  EXPECT_EQ(url_of({{"itemId", "5TQ2C2B0TBRR"}, {"domain", "www.walmart.ca"}, {"language", "fr"}}),
            "https://www.walmart.ca/fr/reviews/product/5TQ2C2B0TBRR");
  EXPECT_EQ(url_of({{"url", "https://www.walmart.ca/en/ip/apple-airpods/6000204913474"}}),
            "https://www.walmart.ca/en/reviews/product/6000204913474");
  EXPECT_EQ(url_of({{"url", kMilkUrl + "?conditionGroupCode=1&athbdg=L1600"}, {"condition", "2"}}),
            "https://www.walmart.com/reviews/product/10450114?conditionGroupCode=1&condition=2");
  auto req = reviews().build_request(reviews().validate({{"itemId", "1"}, {"language", "es"}}));
  EXPECT_EQ(req.profile.headers.at("Accept-Language"), "es-US");
  EXPECT_EQ(reviews().route(), "mart/reviews");
}

TEST(WalmartReviewsUrl, ItemUrlsOfBothStorefronts) {
  auto item = parse_item_url(kMilkUrl);
  ASSERT_TRUE(item);
  EXPECT_EQ(item->storefront, "walmart.com");
  EXPECT_EQ(item->item_id, "10450114");
  EXPECT_FALSE(item->condition_group);
  item = parse_item_url("https://walmart.com/reviews/product/10450114?page=2");
  ASSERT_TRUE(item);
  EXPECT_EQ(item->item_id, "10450114");
  item = parse_item_url("https://www.walmart.com/ip/10450114?conditionGroupCode=3");
  ASSERT_TRUE(item);
  EXPECT_EQ(item->condition_group, "3");
  EXPECT_FALSE(parse_item_url("https://www.walmart.com/ip/x/5TQ2C2B0TBRR"));  // not numeric
  EXPECT_TRUE(parse_item_url("https://www.walmart.ca/en/ip/x/5TQ2C2B0TBRR"));
  EXPECT_FALSE(parse_item_url("https://www.walmart.com.evil.test/ip/x/1"));
}

TEST(WalmartReviewsShape, TheMilkPage) {
  const json b = reviews().shape(milk(), reviews().validate({{"itemId", "10450114"}}));
  EXPECT_EQ(b["product"]["name"], "Great Value Whole Vitamin D Milk, Gallon");
  EXPECT_EQ(b["product"]["brand"], "Great Value");
  EXPECT_EQ(
      b["product"]["link"],
      "https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk-Gallon-Plastic-Jug-128-Fl-Oz/"
      "10450114");
  const json& info = b["reviewsInformation"];
  EXPECT_EQ(info["averageRating"], 4.6);
  EXPECT_EQ(info["totalRatings"], 350534);
  EXPECT_EQ(info["totalReviews"], 24828);  // the reviews with text
  EXPECT_LE(info["totalReviews"].get<long long>(), info["totalRatings"].get<long long>());
  EXPECT_EQ(info["ratingCounts"],
            (json{{"1", 19705}, {"2", 5441}, {"3", 10205}, {"4", 27235}, {"5", 287948}}));
  EXPECT_EQ(
      b["pagination"],
      (json{{"currentPage", 1}, {"totalPages", 2483}, {"nextPage", 2}, {"totalResults", 24828}}));
  // Star rating lists only the ratings the item has, each value what `rating` takes back.
  ASSERT_EQ(b["filters"]["Star rating"].size(), 5u);
  EXPECT_EQ(b["filters"]["Star rating"][0],
            (json{{"name", "5 stars"}, {"value", "5"}, {"count", 287948}}));
  const json& mentions = b["filters"]["Frequent mentions"];
  EXPECT_EQ(mentions[0], (json{{"name", "Flavor"}, {"value", "56"}, {"count", 1062}}));
  EXPECT_EQ(mentions[1]["name"], "Value For Money");
  EXPECT_EQ(mentions[1]["count"], 767);
  bool expiration = false;
  for (const json& m : mentions) expiration |= m["name"] == "Expiration Date" && m["count"] == 444;
  EXPECT_TRUE(expiration);
  EXPECT_FALSE(b["filters"].contains("Condition"));  // no variant named
  ASSERT_EQ(b["reviews"].size(), 10u);
  const json& second = b["reviews"][1];
  EXPECT_EQ(second["position"], 2);
  EXPECT_EQ(second["author"]["name"], "Melissa");
  EXPECT_EQ(second["rating"], 5);
  EXPECT_EQ(second["title"], "My Milky Experience");
  EXPECT_EQ(second["date"], "2025-11-22");
  EXPECT_EQ(second["verifiedPurchase"], true);
  EXPECT_EQ(second["positiveFeedback"], 3);
  EXPECT_TRUE(
      second["text"].get<std::string>().starts_with("I have been buying great value brand"));
  EXPECT_EQ(b["topNegativeReview"]["author"]["name"], "James");
  EXPECT_EQ(b["topNegativeReview"]["rating"], 1);
  EXPECT_EQ(b["topNegativeReview"]["title"], "Sour a week before Use By Date.");
  EXPECT_EQ(b["topNegativeReview"]["date"], "2026-03-10");
  EXPECT_TRUE(reviews().has_content(b));
}

TEST(WalmartReviewsShape, PagesPositionsAndTheLastPage) {
  json b = reviews().shape(milk(), reviews().validate({{"itemId", "10450114"}, {"page", "3"}}));
  EXPECT_EQ(b["reviews"][0]["position"], 21);
  EXPECT_EQ(b["pagination"]["nextPage"], 4);
  json empty = milk();
  empty["reviews"]["customerReviews"] = json::array();
  EXPECT_EQ(testing::error_of_shape(reviews(), empty,
                                    reviews().validate({{"itemId", "10450114"}, {"page", "2484"}})),
            ErrorCode::NotFound);
}

TEST(WalmartReviewsShape, APageWithoutTheItemIsNotFoundAndWithoutDataIsExtractionFailed) {
  json no_item = {{"hasNextData", true}, {"page", "/ip/[...itemParams]"}, {"reviews", nullptr}};
  EXPECT_EQ(testing::error_of_shape(reviews(), no_item, reviews().validate({{"itemId", "1"}})),
            ErrorCode::NotFound);
  json bare = {{"hasNextData", false}};
  EXPECT_EQ(testing::error_of_shape(reviews(), bare, reviews().validate({{"itemId", "1"}})),
            ErrorCode::ExtractionFailed);
}

TEST(WalmartReviewsShape, ThePs5OfTheScrapflyExtract) {
  // The reviews object of the extract is the page's own, unchanged; the product fields are the
  // extract's subset.
  const json items = testing::read_json_file(gleaner::testing::site_page(
      "walmart", "mart-reviews/scrapfly-walmart-products-nextdata-reviews-extract-2025-08.json"));
  const json out = {
      {"hasNextData", true},
      {"product", {{"name", items[0]["product"]["name"]}, {"brand", items[0]["product"]["brand"]}}},
      {"reviews", items[0]["reviews"]}};
  const json b = reviews().shape(
      out, reviews().validate({{"itemId", "5TQ2C2B0TBRR"}, {"domain", "walmart.ca"}}));
  EXPECT_EQ(b["product"]["brand"], "PlayStation");
  EXPECT_EQ(b["reviewsInformation"]["averageRating"], 4.8);
  EXPECT_EQ(b["reviewsInformation"]["totalRatings"], 4495);
  EXPECT_EQ(b["reviewsInformation"]["totalReviews"], 1091);
  EXPECT_EQ(b["pagination"]["totalPages"], 110);
  EXPECT_EQ(b["reviews"].size(), items[0]["reviews"]["customerReviews"].size());
}

// The same route's reviews objects of 2023 (scrapfly's extract of November 2023, three items),
// unchanged: that year's object has no reviewsWithTextCount, keeps a photo's URL under
// sizes.normal, and writes a brand's reply with the brand as its department and the text between
// line breaks.
json extract_2023(std::size_t index) {
  const json items = testing::read_json_file(gleaner::testing::site_page(
      "walmart", "mart-reviews/scrapfly-walmart-products-nextdata-reviews-extract-2023-11.json"));
  return {
      {"hasNextData", true},
      {"product",
       {{"name", items[index]["product"]["name"]}, {"brand", items[index]["product"]["brand"]}}},
      {"reviews", items[index]["reviews"]}};
}

TEST(WalmartReviewsShape, TheSamsungTelevisionOf2023) {
  const json b = reviews().shape(extract_2023(0), reviews().validate({{"itemId", "1"}}));
  EXPECT_EQ(b["product"]["brand"], "SAMSUNG");
  EXPECT_EQ(b["reviewsInformation"]["averageRating"], 4.5618);
  EXPECT_EQ(b["reviewsInformation"]["totalRatings"], 1141);
  // Without a count of reviews with text, the site's own count is the count of reviews.
  EXPECT_EQ(b["reviewsInformation"]["totalReviews"], 1141);
  EXPECT_EQ(b["pagination"]["totalPages"], 115);
  EXPECT_EQ(b["pagination"]["nextPage"], 2);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["5"], 884);
  EXPECT_EQ(b["reviewsInformation"]["ratingCounts"]["1"], 55);
  EXPECT_FALSE(b["reviewsInformation"].contains("recommendedPercentage"));
  EXPECT_EQ(b["filters"]["Frequent mentions"][0]["name"], "Picture");
  EXPECT_EQ(b["filters"]["Frequent mentions"][0]["count"], 374);
  const json& reviews_list = b["reviews"];
  ASSERT_EQ(reviews_list.size(), 10u);
  EXPECT_EQ(reviews_list[0]["author"]["name"], "HenryH");
  EXPECT_EQ(reviews_list[0]["title"], "Beautiful Display");
  EXPECT_EQ(reviews_list[0]["date"], "2023-05-20");
  EXPECT_EQ(reviews_list[0]["syndicationSource"], "Samsung US");
  EXPECT_EQ(reviews_list[0]["verifiedPurchase"], false);
  EXPECT_EQ(reviews_list[8]["badges"], (json{"Verified Purchase", "Incentivized Review"}));
  const json& reply = reviews_list[8]["clientResponses"][0];
  EXPECT_EQ(reply["author"], "Samsung");
  EXPECT_TRUE(reply["text"].get<std::string>().starts_with("Hi Brandon, I'm very sorry"));
  EXPECT_TRUE(reply["text"].get<std::string>().ends_with("~ Samsung Advisor"));
  EXPECT_FALSE(reply.contains("date"));  // the site gives none
  EXPECT_EQ(b["topNegativeReview"]["author"]["name"], "Angela");
  EXPECT_EQ(b["topNegativeReview"]["date"], "2023-09-04");
}

TEST(WalmartReviewsShape, ThePs5Of2023AndItsPhotos) {
  const json b = reviews().shape(extract_2023(2), reviews().validate({{"itemId", "1"}}));
  EXPECT_EQ(b["reviewsInformation"]["totalRatings"], 3182);
  EXPECT_EQ(b["reviewsInformation"]["totalReviews"], 3182);
  EXPECT_EQ(b["reviews"][0]["author"]["name"], "JohnPaul");
  EXPECT_EQ(b["reviews"][0]["date"], "2022-12-20");
  EXPECT_EQ(b["reviews"][0]["photos"], (json{"https://i5.walmartimages.com/dfw/6e29e393-5944/"
                                             "k2-_8d6ff378-f047-4bed-adbe-32a5b1bbba25.v1.bin"}));
  EXPECT_EQ(b["reviews"][2]["photos"].size(), 2u);
  EXPECT_EQ(b["reviews"][2]["badges"], (json{"Verified Purchase", "Walmart Associate"}));
}

}  // namespace
}  // namespace gleaner::extract::walmart
