// GET /scrape/amazon/search end to end in real Chromium over real results pages
// (pages/amazon-search): amazon.com 2026, amazon.in 2025, amazon.co.jp 2026 (in English, prices in
// TWD), amazon.es 2025 (in Spanish), amazon.nl 2025 (in English on a comma storefront) and
// amazon.com.br 2026 (in Portuguese, deals), amazon.fr 2025 (in French, books), amazon.com 2025
// (laptops; and a spelling-corrected query with unit prices) and 2026 (a grid of 48), amazon.in
// 2026 (phones), amazon.co.uk 2025 (in pounds), amazon.de 2026 (in German).
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
const std::string kBuds = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-in-search-cmf-buds-2a-raw-2025-11.html");
const std::string kFasting = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-co-jp-search-fasting-dom-2026-07.html");
const std::string kGodOfWar = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-es-search-god-of-war-dom-2025-11.html");
const std::string kDeals = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-com-br-browse-deals-discount-raw-2026-06.html");
const std::string kBooks = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-fr-search-software-engineering-books-prettified-2025-04.html");
const std::string kPlaystation = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-nl-search-playstation-5-raw-2025-03.html");
const std::string kLaptops = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-com-search-laptop-raw-2025-11.html");
const std::string kIphones = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-in-search-iphone-16-dom-2026-07.html");
const std::string kMovers = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-com-search-movers-grid-dom-2026-02.html");
const std::string kSweatshirts = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-co-uk-search-sweatshirt-raw-2025-06.html");
const std::string kMacbooks = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-de-search-macbook-air-m3-raw-2026-06.html");
const std::string kSunscreen = gleaner::testing::site_page(
    "amazon", "amazon-search/amazon-com-search-suns-creame-spelling-corrected-raw-2025-05.html");

// Every card has a title and a product URL (a sponsored card's too: the /dp/ page its ad click
// leads to), and a position in order.
void expect_every_card_read(const nlohmann::json& results) {
  int position = 0;
  for (const auto& r : results) {
    SCOPED_TRACE(r["asin"].get<std::string>());
    EXPECT_EQ(r["position"], ++position);
    EXPECT_FALSE(r["title"].get<std::string>().empty());
    const std::string url = r["url"];
    EXPECT_NE(url.find("/dp/"), std::string::npos) << url;
    EXPECT_EQ(url.find("/sspa/click"), std::string::npos) << url;
  }
}

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

// Amazon's robot check (amazon.co.uk, 2022) served for a search: a wall, not a page of no results.
TEST(AmazonSearchInChromium, TheRobotCheckIsUpstreamBlocked) {
  const std::string check = gleaner::testing::site_page(
      "amazon", "blocks/amazon-co-uk-robot-check-dp-B08H95Y452-2022-01.html");
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.co.uk/s?k=", check));
  EXPECT_EQ(testing::error_in_chromium(search_endpoint(), archive.load(),
                                       {{"q", "ps5"}, {"domain", "www.amazon.co.uk"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

// amazon.in: sponsored cards first ("Sponsored Ad - " only in their headings' labels), prices
// in rupees with their struck-through M.R.P.
TEST(AmazonSearchInChromium, AnIndianPageWithSponsoredCards) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.in/s?k=CMF", kBuds));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "CMF by Nothing Buds 2a"}, {"domain", "www.amazon.in"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 22u);
  expect_every_card_read(b["productResults"]);
  const auto& ad = b["productResults"][0];
  EXPECT_EQ(ad["asin"], "B0DNPZFSV4");
  EXPECT_EQ(ad["isSponsored"], true);
  EXPECT_TRUE(ad["title"].get<std::string>().starts_with("realme Buds Wireless 5 ANC"));
  EXPECT_TRUE(ad["url"].get<std::string>().starts_with(
      "https://www.amazon.in/realme-Wireless-Bluetooth-Headphones-Connection/dp/B0DNPZFSV4/"));
  EXPECT_EQ(ad["price"]["symbol"], "₹");
  EXPECT_EQ(ad["price"]["currentPrice"], 1499);
  EXPECT_EQ(ad["price"]["beforePrice"], 2799);
  EXPECT_EQ(ad["reviews"]["rating"], 3.8);
  EXPECT_EQ(ad["reviews"]["totalReviews"], 3590);
  const auto& third = b["productResults"][2];
  EXPECT_EQ(third["asin"], "B0FFN4GPJG");
  EXPECT_EQ(third["isSponsored"], false);
  EXPECT_EQ(third["title"],
            "CMF by Nothing Buds 2a Truly Wireless Bluetooth in Ear Earbuds with 42 dB ANC, 12.4mm "
            "Driver, Dirac-tuned, Ultra Bass Tech, 35.5 hrs playback (Dark Grey)");
  EXPECT_EQ(third["price"]["currentPrice"], 2219);
  EXPECT_EQ(third["boughtInPastMonth"], "600+");
  EXPECT_EQ(b["pagination"]["totalResults"], 306);
}

// amazon.co.jp read in English from Taiwan: Japanese titles, prices in "TWD 372.40".
TEST(AmazonSearchInChromium, AJapanesePageInEnglishWithTaiwanDollars) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.co.jp/s?k=", kFasting));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "ファスティング"}, {"domain", "www.amazon.co.jp"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 51u);
  expect_every_card_read(b["productResults"]);
  const auto& book = b["productResults"][4];
  EXPECT_EQ(book["asin"], "4065325552");
  EXPECT_EQ(
      book["title"],
      "3日で変わる からだが目覚める「食べない力」 細胞レベルで整う、生命科学者が実践するシンプルな"
      "習慣");
  EXPECT_EQ(book["price"]["symbol"], "TWD");
  EXPECT_EQ(book["price"]["currentPrice"], 372.4);
  EXPECT_EQ(b["productResults"][2]["isSponsored"], true);
  EXPECT_EQ(b["productResults"][2]["price"]["currentPrice"], 79.26);
  EXPECT_EQ(b["pagination"]["totalResults"], 435);
}

// amazon.es in Spanish: "17,04 €", "4,8 de 5 estrellas", "1-48 de más de 2.000 resultados"; the
// sponsored cards' headings say "Anuncio patrocinado: ", their titles do not.
TEST(AmazonSearchInChromium, ASpanishPageAsAPersonReadsIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.es/s?k=God", kGodOfWar));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "God of War"}, {"domain", "www.amazon.es"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 60u);
  expect_every_card_read(b["productResults"]);
  for (const auto& r : b["productResults"]) {
    EXPECT_FALSE(r["title"].get<std::string>().starts_with("Anuncio patrocinado")) << r["title"];
  }
  const auto& ad = b["productResults"][0];
  EXPECT_EQ(ad["isSponsored"], true);
  EXPECT_EQ(ad["price"]["currentPrice"], 17.04);
  EXPECT_TRUE(ad["url"].get<std::string>().starts_with("https://www.amazon.es/UARJIRUHR-"));
  const auto& hits = b["productResults"][3];
  EXPECT_EQ(hits["asin"], "B07YY2YVK5");
  EXPECT_EQ(hits["title"], "Playstation GOW Hits");
  EXPECT_EQ(hits["isSponsored"], false);
  EXPECT_EQ(hits["price"]["symbol"], "€");
  EXPECT_EQ(hits["price"]["currentPrice"], 15.99);
  EXPECT_EQ(hits["price"]["beforePrice"], 19.99);
  EXPECT_EQ(hits["reviews"]["rating"], 4.8);
  EXPECT_EQ(hits["reviews"]["totalReviews"], 7319);
  EXPECT_EQ(hits["boughtInPastMonth"], "100+");
  EXPECT_EQ(b["pagination"]["totalResults"], 2000);
}

// amazon.nl in English: "€429.00" on a storefront whose own language writes "429,00 €"; the
// Amazon's Choice and Best Seller badges by their ids.
TEST(AmazonSearchInChromium, ADutchStorefrontInEnglish) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.nl/s?k=PlayStation", kPlaystation));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "PlayStation 5"}, {"domain", "www.amazon.nl"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 60u);
  expect_every_card_read(b["productResults"]);
  const auto& first = b["productResults"][0];
  EXPECT_EQ(first["asin"], "B0CLTBHXWQ");
  EXPECT_EQ(first["title"], "Playstation®5 Konsole Digital-Edition (Slim)");
  EXPECT_EQ(first["price"]["symbol"], "€");
  EXPECT_EQ(first["price"]["currentPrice"], 429);
  EXPECT_EQ(first["price"]["beforePrice"], 449.99);
  EXPECT_EQ(first["badges"]["amazonChoice"], true);
  EXPECT_EQ(first["badges"]["amazonPrime"], true);
  // Its delivery lines are the recipe's first row, without the udm messages' classes.
  EXPECT_EQ(first["deliveryInfo"]["freeDelivery"], "Get it Friday 21 Mar FREE Delivery by Amazon");
  EXPECT_EQ(b["productResults"][3]["price"]["currentPrice"], 795);
  EXPECT_EQ(b["productResults"][3]["reviews"]["totalReviews"], 563);
  int best = 0;
  for (const auto& r : b["productResults"]) best += r["badges"]["bestSeller"] == true;
  EXPECT_EQ(best, 2);
  EXPECT_EQ(b["pagination"]["totalResults"], 10000);
  EXPECT_NE(b["pagination"]["nextPageUrl"].get<std::string>().find("page=2"), std::string::npos);
}

// amazon.com.br in Portuguese, a results page of deals: "R$ 75,83" off "De: R$ 84,00",
// "4,0 de 5 estrelas", "1.288 classificações", "mais de 400.000 resultados".
TEST(AmazonSearchInChromium, ABrazilianPageOfDeals) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com.br/s?k=ofertas", kDeals));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "ofertas"}, {"domain", "www.amazon.com.br"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 48u);
  expect_every_card_read(b["productResults"]);
  const auto& first = b["productResults"][0];
  EXPECT_EQ(first["asin"], "B0GH7YZB7B");
  EXPECT_EQ(first["title"],
            "Kit 12 Envelopes de Figurinhas da Copa do Mundo da FIFA 2026™ + Cartela");
  EXPECT_EQ(first["price"]["symbol"], "R$");
  EXPECT_EQ(first["price"]["currentPrice"], 75.83);
  EXPECT_EQ(first["price"]["beforePrice"], 84);
  EXPECT_EQ(first["reviews"]["rating"], 4.0);
  EXPECT_EQ(first["reviews"]["totalReviews"], 1288);
  const auto& kindle = b["productResults"][1];
  EXPECT_EQ(kindle["asin"], "B0CP31L73X");
  EXPECT_EQ(kindle["price"]["currentPrice"], 649);
  EXPECT_EQ(kindle["reviews"]["totalReviews"], 28044);
  // "Mais de 5 mil compras no mês passado" is the English line's "5K+".
  EXPECT_EQ(kindle["boughtInPastMonth"], "5K+");
  EXPECT_EQ(b["productResults"][7]["boughtInPastMonth"], "10K+");
  EXPECT_EQ(b["productResults"][8]["boughtInPastMonth"], "100+");
  // The badge capsule's "Mais vendido" (BEST_SELLER) on 23 of its cards.
  int best = 0;
  for (const auto& r : b["productResults"]) best += r["badges"]["bestSeller"] == true;
  EXPECT_EQ(best, 23);
  EXPECT_EQ(b["pagination"]["totalResults"], 400000);
}

// amazon.fr in French, books: "28,67 €", "4,7 sur 5 étoiles", "6 306 évaluations" (grouped by
// a no-break space), "plus de 50 000 résultats", the "N°1 des ventes" badge.
TEST(AmazonSearchInChromium, AFrenchPageOfBooks) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.fr/s?k=Software", kBooks));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "Software Engineering"}, {"domain", "www.amazon.fr"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 16u);
  expect_every_card_read(b["productResults"]);
  const auto& first = b["productResults"][0];
  EXPECT_EQ(first["asin"], "0137314914");
  EXPECT_TRUE(first["title"].get<std::string>().starts_with(
      "Modern Software Engineering: Doing What Works to Build Better Software Faster"));
  EXPECT_EQ(first["price"]["symbol"], "€");
  EXPECT_EQ(first["price"]["currentPrice"], 37.43);
  EXPECT_EQ(first["price"]["beforePrice"], 38.48);
  EXPECT_EQ(first["reviews"]["rating"], 4.5);
  EXPECT_EQ(first["reviews"]["totalReviews"], 594);
  const auto& clean = b["productResults"][1];
  EXPECT_EQ(clean["asin"], "0132350882");
  EXPECT_EQ(clean["price"]["currentPrice"], 28.67);
  EXPECT_EQ(clean["reviews"]["rating"], 4.7);
  EXPECT_EQ(clean["reviews"]["totalReviews"], 6306);
  EXPECT_EQ(clean["badges"]["bestSeller"], true);
  EXPECT_EQ(b["pagination"]["totalResults"], 50000);
}

// amazon.com, "laptop" (2025-11, read from Canada): the 2025 badge capsule ("Best Seller in
// Traditional Laptop Computers"), delivery lines without the udm messages ("Delivery Mon, Dec 1",
// then "Ships to Canada", a note), cards with "No featured offers available" and no price.
TEST(AmazonSearchInChromium, TheLaptopResultsOf2025) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/s?k=laptop", kLaptops));
  auto result = run_in_chromium(search_endpoint(), archive.load(), {{"q", "laptop"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 22u);
  expect_every_card_read(b["productResults"]);
  const auto& ad = b["productResults"][0];
  EXPECT_EQ(ad["asin"], "B0FL25VDFJ");
  EXPECT_EQ(ad["isSponsored"], true);
  EXPECT_EQ(ad["price"]["currentPrice"], 329.99);
  EXPECT_EQ(ad["price"]["beforePrice"], 719.99);
  const auto& choice = b["productResults"][2];
  EXPECT_EQ(choice["asin"], "B0DT7FC9B7");
  EXPECT_EQ(choice["isSponsored"], false);
  EXPECT_EQ(choice["badges"]["amazonChoice"], true);
  EXPECT_EQ(choice["price"]["currentPrice"], 199.99);
  EXPECT_EQ(choice["price"]["beforePrice"], 297.18);  // "Typical: $297.18"
  EXPECT_EQ(choice["reviews"]["rating"], 4.4);
  EXPECT_EQ(choice["reviews"]["totalReviews"], 271);
  EXPECT_EQ(choice["boughtInPastMonth"], "10K+");
  EXPECT_EQ(choice["deliveryInfo"]["freeDelivery"], "Delivery Thu, Dec 4");
  const auto& macbook = b["productResults"][3];
  EXPECT_EQ(macbook["asin"], "B0DZD9S5GC");
  EXPECT_TRUE(macbook["title"].get<std::string>().starts_with(
      "Apple 2025 MacBook Air 13-inch Laptop with M4 chip"));
  EXPECT_EQ(macbook["badges"]["bestSeller"], true);
  EXPECT_EQ(macbook["badges"]["amazonChoice"], false);
  EXPECT_FALSE(macbook.contains("price"));  // "No featured offers available"
  EXPECT_EQ(macbook["reviews"]["rating"], 4.8);
  int best = 0;
  for (const auto& r : b["productResults"]) best += r["badges"]["bestSeller"] == true;
  EXPECT_EQ(best, 1);
  const auto& chromebook = b["productResults"][19];
  EXPECT_EQ(chromebook["asin"], "B09S3HNMHF");
  EXPECT_EQ(chromebook["price"]["currentPrice"], 187.98);
  EXPECT_EQ(chromebook["price"]["beforePrice"], 299.99);
  EXPECT_FALSE(chromebook.contains("reviews"));
  EXPECT_EQ(chromebook["boughtInPastMonth"], "5K+");
  EXPECT_EQ(chromebook["deliveryInfo"], nlohmann::json({{"freeDelivery", "Delivery Mon, Dec 1"}}));
  EXPECT_EQ(b["pagination"]["totalResults"], 100000);  // "1-16 of over 100,000 results"
  EXPECT_NE(b["pagination"]["nextPageUrl"].get<std::string>().find("/s?k=laptop&page=2"),
            std::string::npos);
}

// amazon.in, "iphone 16" (2026-07, saved from the rendered page): sponsored cards first,
// "₹59,900", "(1.1K)" ratings counted in full (1,199), both delivery lines.
TEST(AmazonSearchInChromium, AnIndianPhoneSearchOf2026) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.in/s?k=iphone", kIphones));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "iphone 16"}, {"domain", "www.amazon.in"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 22u);
  expect_every_card_read(b["productResults"]);
  const auto& ad = b["productResults"][0];
  EXPECT_EQ(ad["asin"], "B0DXQH1DBS");
  EXPECT_EQ(ad["isSponsored"], true);
  EXPECT_TRUE(ad["title"].get<std::string>().starts_with("iPhone 16e 128 GB: Built for Apple"));
  EXPECT_EQ(ad["price"]["symbol"], "₹");
  EXPECT_EQ(ad["price"]["currentPrice"], 59900);
  EXPECT_FALSE(ad["price"].contains("beforePrice"));
  EXPECT_EQ(ad["reviews"]["rating"], 4.5);
  EXPECT_EQ(ad["reviews"]["totalReviews"], 1199);
  EXPECT_EQ(ad["boughtInPastMonth"], "100+");
  EXPECT_EQ(ad["deliveryInfo"]["freeDelivery"], "FREE delivery Fri, 3 Jul");
  EXPECT_EQ(ad["deliveryInfo"]["fastestDelivery"], "Or fastest delivery Tomorrow, 2 Jul");
  const auto& pixel = b["productResults"][2];
  EXPECT_EQ(pixel["asin"], "B0FNPNL2D8");
  EXPECT_EQ(pixel["isSponsored"], false);
  EXPECT_EQ(pixel["price"]["currentPrice"], 64983);
  EXPECT_EQ(pixel["price"]["beforePrice"], 79999);
  EXPECT_EQ(b["pagination"]["totalResults"], 50000);
}

// amazon.com, "Movers" (2026-02, saved from the rendered page): the grid of 48 cards, five of
// them best sellers by the badge capsule, a Kindle book among the dollies ("$0.00" with Kindle
// Unlimited, "Or $3.99 to buy"), ad widgets that are no result cards.
TEST(AmazonSearchInChromium, AGridOf48ResultsOf2026) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/s?k=Movers", kMovers));
  auto result = run_in_chromium(search_endpoint(), archive.load(), {{"q", "Movers"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 48u);
  expect_every_card_read(b["productResults"]);
  const auto& first = b["productResults"][0];
  EXPECT_EQ(first["asin"], "B0CY5GX239");
  EXPECT_EQ(first["badges"]["amazonChoice"], true);
  EXPECT_EQ(first["price"]["currentPrice"], 31.98);
  EXPECT_EQ(first["price"]["beforePrice"], 49.99);
  EXPECT_EQ(first["reviews"]["rating"], 4.2);
  EXPECT_EQ(first["reviews"]["totalReviews"], 1127);
  EXPECT_EQ(first["boughtInPastMonth"], "1K+");
  EXPECT_EQ(first["deliveryInfo"]["freeDelivery"],
            "FREE delivery Wed, Feb 18 on $35 of items shipped by Amazon");
  EXPECT_EQ(first["deliveryInfo"]["fastestDelivery"], "Or fastest delivery Tomorrow, Feb 14");
  const auto& dolly = b["productResults"][1];
  EXPECT_EQ(dolly["asin"], "B0BPFYNSDT");
  EXPECT_EQ(dolly["badges"]["bestSeller"], true);  // "Best Seller in Dollies"
  EXPECT_EQ(dolly["price"]["currentPrice"], 37.99);
  EXPECT_EQ(dolly["reviews"]["totalReviews"], 2230);  // "(2.2K)"
  const auto& kindle = b["productResults"][27];
  EXPECT_EQ(kindle["asin"], "B0FVK8J7YN");
  EXPECT_TRUE(kindle["title"].get<std::string>().starts_with("Movers: MM Billionaire Romance"));
  EXPECT_EQ(kindle["price"]["currentPrice"], 0);
  EXPECT_EQ(kindle["badges"]["bestSeller"], true);
  int best = 0;
  int sponsored = 0;
  for (const auto& r : b["productResults"]) {
    best += r["badges"]["bestSeller"] == true;
    sponsored += r["isSponsored"] == true;
  }
  EXPECT_EQ(best, 5);
  EXPECT_EQ(sponsored, 0);
  EXPECT_EQ(b["pagination"]["totalResults"], 30000);  // "1-48 of over 30,000 results"
}

// Amazon's Dogs of Amazon page ("Sorry! Something went wrong!", 2026) served for a search.
TEST(AmazonSearchInChromium, TheDogsPageIsUpstreamBlocked) {
  const std::string dogs = gleaner::testing::site_page(
      "amazon", "blocks/amazon-com-sorry-something-went-wrong-dogs-page-2026-08.html");
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/s?k=", dogs));
  EXPECT_EQ(testing::error_in_chromium(search_endpoint(), archive.load(), {{"q", "laptop"}}).code(),
            ErrorCode::UpstreamBlocked);
}

// amazon.co.uk, "sweatshirt" (2025-06, raw): pounds, "Was: £12.50" struck through, sponsored
// cards first (their headings' labels say "Sponsored Ad – " with an en dash), both delivery lines.
TEST(AmazonSearchInChromium, ABritishPageInPounds) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.co.uk/s?k=sweatshirt", kSweatshirts));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "sweatshirt"}, {"domain", "www.amazon.co.uk"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 60u);
  expect_every_card_read(b["productResults"]);
  const auto& ad = b["productResults"][0];
  EXPECT_EQ(ad["asin"], "B085YWB5TP");
  EXPECT_EQ(ad["isSponsored"], true);
  EXPECT_EQ(ad["title"], "Men's Fleece Crew Neck Sweatshirt (Available in Big & Tall)");
  EXPECT_EQ(ad["price"]["symbol"], "£");
  EXPECT_EQ(ad["price"]["currentPrice"], 11.0);
  EXPECT_EQ(ad["price"]["beforePrice"], 12.5);
  EXPECT_EQ(ad["reviews"]["rating"], 4.3);
  EXPECT_EQ(ad["reviews"]["totalReviews"], 29529);
  EXPECT_EQ(ad["deliveryInfo"]["freeDelivery"],
            "FREE delivery Tue, 3 Jun on your first eligible order to UK or Ireland");
  EXPECT_EQ(ad["deliveryInfo"]["fastestDelivery"], "Or fastest delivery Mon, 2 Jun");
  int sponsored = 0;
  for (const auto& r : b["productResults"]) sponsored += r["isSponsored"] == true;
  EXPECT_GT(sponsored, 2);
  EXPECT_EQ(b["pagination"]["totalResults"], 10000);  // "1-48 of over 10,000 results"
  EXPECT_NE(b["pagination"]["nextPageUrl"].get<std::string>().find(
                "https://www.amazon.co.uk/s?k=sweatshirt&page=2"),
            std::string::npos);
}

// amazon.com, "suns creame" (2025-05, raw): Amazon answers the corrected query ("Showing results
// for sunscreen"). Most cards write a price per unit beside the price ("($1.16/ounce)") in the
// same grey price style as the struck-through list price ("List: $18.99"): only the struck one
// is the price before.
TEST(AmazonSearchInChromium, ASpellingCorrectedSearchWithUnitPrices) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.com/s?k=suns", kSunscreen));
  auto result = run_in_chromium(search_endpoint(), archive.load(), {{"q", "suns creame"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 48u);
  expect_every_card_read(b["productResults"]);
  const auto& first = b["productResults"][0];
  EXPECT_EQ(first["asin"], "B01MQXX9US");
  EXPECT_EQ(first["price"]["currentPrice"], 13.97);
  EXPECT_EQ(first["price"]["beforePrice"], 18.99);  // not its "$1.16/ounce"
  EXPECT_EQ(first["reviews"]["rating"], 4.7);
  EXPECT_EQ(first["reviews"]["totalReviews"], 20372);
  EXPECT_EQ(first["boughtInPastMonth"], "40K+");
  // $42.00 at "$24.71/ounce", no list price: no price before.
  const auto& unit_only = b["productResults"][11];
  EXPECT_EQ(unit_only["asin"], "B00J5KDCO2");
  EXPECT_EQ(unit_only["price"]["currentPrice"], 42.0);
  EXPECT_FALSE(unit_only["price"].contains("beforePrice")) << unit_only["price"];
  // Units dearer than the item: $7.45 at "$14.90/fluid ounce", "List: $8.79"; $12.35 at
  // "$23.30/ounce" and no list price.
  const auto& small = b["productResults"][19];
  EXPECT_EQ(small["asin"], "B083VXQ7MG");
  EXPECT_EQ(small["price"]["currentPrice"], 7.45);
  EXPECT_EQ(small["price"]["beforePrice"], 8.79);
  const auto& dear_unit = b["productResults"][36];
  EXPECT_EQ(dear_unit["asin"], "B0BQCSMD63");
  EXPECT_EQ(dear_unit["price"]["currentPrice"], 12.35);
  EXPECT_FALSE(dear_unit["price"].contains("beforePrice")) << dear_unit["price"];
  EXPECT_EQ(b["pagination"]["totalResults"], 30000);  // "1-48 of over 30,000 results"
  EXPECT_NE(b["pagination"]["nextPageUrl"].get<std::string>().find("/s?k=sunscreen&page=2"),
            std::string::npos);
}

// amazon.de, "MacBook Air M3" (2026-06, raw, German, read from Lithuania): "1.013,76 €" off
// "UVP: 1.127,64 €", "4,7 von 5 Sternen", "2.125 Bewertungen", cards without a featured offer,
// "GRATIS Lieferung Do., 14. Mai" (its "Wird versendet nach Litauen" a note), "1-16 von 833
// Ergebnissen oder Vorschlägen".
TEST(AmazonSearchInChromium, AGermanPageOf2026) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.amazon.de/s?k=MacBook", kMacbooks));
  auto result = run_in_chromium(search_endpoint(), archive.load(),
                                {{"q", "MacBook Air M3"}, {"domain", "www.amazon.de"}});
  const auto& b = result.body;
  ASSERT_EQ(b["productResults"].size(), 19u);
  expect_every_card_read(b["productResults"]);
  const auto& first = b["productResults"][0];
  EXPECT_EQ(first["asin"], "B0DZDFWPDP");
  EXPECT_EQ(first["title"],
            "Apple MacBook Air (13\", Apple M4 Chip mit 10‑Core CPU und 10‑Core GPU, 16GB "
            "Gemeinsamer Arbeitsspeicher, 512 GB) - Mitternacht");
  EXPECT_EQ(first["price"]["symbol"], "€");
  EXPECT_EQ(first["price"]["currentPrice"], 1013.76);
  EXPECT_EQ(first["price"]["beforePrice"], 1127.64);
  EXPECT_EQ(first["reviews"]["rating"], 4.7);
  EXPECT_EQ(first["reviews"]["totalReviews"], 2125);
  EXPECT_EQ(first["boughtInPastMonth"], "200+");
  EXPECT_EQ(first["deliveryInfo"],
            nlohmann::json({{"freeDelivery", "GRATIS Lieferung Do., 14. Mai"}}));
  EXPECT_EQ(b["productResults"][1]["asin"], "B0DZDBVCS8");
  EXPECT_FALSE(b["productResults"][1].contains("price"));  // no featured offer
  EXPECT_EQ(b["pagination"]["totalResults"], 833);
  EXPECT_EQ(b["pagination"]["nextPageUrl"],
            "https://www.amazon.de/s?k=MacBook+Air+M3&page=2&xpid=EBDxCO-YiN2N5&qid=1778397838"
            "&ref=sr_pg_1");
}

// The compact template of the Dogs of Amazon page that the other storefronts serve for a search:
// amazon.ca's in English and French ("Something Went Wrong / Quelque chose s'est mal passé",
// 2026-06, saved from the DOM) and amazon.com.br's in Portuguese ("Algo deu errado", 2025-11).
// It has none of amazon.com's cs_503 links or its 500_503 image: its words are in its title
// image (/error/500-title._TTD_.png) beside the error logo. Known as Amazon's wall by those
// images, not only as a page without text.
void expect_amazon_wall(const std::string& page, const std::string& prefix,
                        const std::string& domain) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(prefix, page));
  const Error e = testing::error_in_chromium(search_endpoint(), archive.load(),
                                             {{"q", "laptop"}, {"domain", domain}});
  EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked) << e.detail();
  EXPECT_NE(e.detail().find("amazon wall"), std::string::npos) << e.detail();
}

TEST(AmazonSearchInChromium, TheCanadianBilingualDogsPageIsUpstreamBlocked) {
  expect_amazon_wall(
      gleaner::testing::site_page(
          "amazon", "blocks/amazon-ca-something-went-wrong-bilingual-dogs-page-dom-2026-06.html"),
      "https://www.amazon.ca/s?k=", "www.amazon.ca");
}

TEST(AmazonSearchInChromium, TheBrazilianDogsPageIsUpstreamBlocked) {
  expect_amazon_wall(gleaner::testing::site_page(
                         "amazon", "blocks/amazon-com-br-algo-deu-errado-dogs-page-2025-11.html"),
                     "https://www.amazon.com.br/s?k=", "www.amazon.com.br");
}

}  // namespace
}  // namespace gleaner::extract::amazon
