// GET /scrape/estate/listing end to end in real Chromium over a replay archive of the real 04011
// rentals page of the fixtures (whole, and with its search state taken out), the rendered Boston
// pages of 2025 and 2026 (cards only), and Zillow's PerimeterX wall of the fixtures.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::zillow {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(ZillowListingInChromium, RentalsIn04011) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.zillow.com/homes/for_rent/",
                   gleaner::testing::site_page(
                       "zillow", "estate-listing/zillow-search-04011-nextdata-2025-06.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(listing_endpoint(), replay,
                                {{"keyword", "04011"}, {"type", "forRent"}, {"pets[]", "cats"}});
  EXPECT_EQ(
      requested(*replay, "https://www.zillow.com/homes").front(),
      "https://www.zillow.com/homes/for_rent/?searchQueryState=%7B%22filterState%22%3A%7B%22"
      "isAuction%22%3A%7B%22value%22%3Afalse%7D%2C%22isComingSoon%22%3A%7B%22value%22%3Afalse"
      "%7D%2C%22isForRent%22%3A%7B%22value%22%3Atrue%7D%2C%22isForSaleByAgent%22%3A%7B%22value"
      "%22%3Afalse%7D%2C%22isForSaleByOwner%22%3A%7B%22value%22%3Afalse%7D%2C%22isForSale"
      "Foreclosure%22%3A%7B%22value%22%3Afalse%7D%2C%22isNewConstruction%22%3A%7B%22value%22"
      "%3Afalse%7D%2C%22onlyRentalCatsAllowed%22%3A%7B%22value%22%3Atrue%7D%7D%2C%22isList"
      "Visible%22%3Atrue%2C%22usersSearchTerm%22%3A%2204011%22%7D");
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 91);
  ASSERT_EQ(b["properties"].size(), 36u);
  EXPECT_EQ(b["properties"][3]["price"], "$1,699/mo");
  EXPECT_EQ(b["properties"][3]["address"]["street"], "41 River Rd #A9");
}

// Every card a person sees has its link and its price read from the markup, and the list
// header's count is the total.
void expect_cards_read(const nlohmann::json& b, std::size_t cards, long long total) {
  EXPECT_EQ(b["searchInformation"]["totalResults"], total);
  ASSERT_EQ(b["properties"].size(), cards);
  for (const nlohmann::json& p : b["properties"]) {
    SCOPED_TRACE(p.dump());
    EXPECT_TRUE(p.value("link", "").starts_with("https://www.zillow.com/"));
    EXPECT_GT(p.value("extractedPrice", 0.0), 0);
    EXPECT_FALSE(p["address"].value("street", "").empty());
  }
}

TEST(ZillowListingInChromium, ARenderedPageWithoutTheSearchStateIsReadFromItsCards) {
  // The real 04011 page with `searchPageState` taken out of its __NEXT_DATA__ (a page built from
  // the real one; every tag kept): its 9 server-rendered cards and "91 rentals available".
  TempReplayArchive archive;
  archive.add(gleaner::testing::rewritten_entry(
      "https://www.zillow.com/homes/for_rent/",
      gleaner::testing::site_page("zillow",
                                  "estate-listing/zillow-search-04011-nextdata-2025-06.html"),
      nlohmann::json::array({{"\"searchPageState\"", "\"removedPageState\""}})));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"keyword", "04011"}, {"type", "forRent"}})
                     .body;
  expect_cards_read(b, 9, 91);
  EXPECT_EQ(b["properties"][0]["link"],
            "https://www.zillow.com/b/building/43.90381,-69.918846_ll/");
  EXPECT_EQ(b["properties"][0]["extractedPrice"], 2225);
}

TEST(ZillowListingInChromium, TheRenderedBostonPageIsReadFromItsCards) {
  // A real page saved after rendering, without scripts: 41 cards, "9,316 rentals available".
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.zillow.com/homes/for_rent/",
                   gleaner::testing::site_page(
                       "zillow", "estate-listing/zillow-search-boston-rentals-dom-2025-11.html")));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"keyword", "Boston, MA"}, {"type", "forRent"}})
                     .body;
  expect_cards_read(b, 41, 9316);
  EXPECT_EQ(b["properties"][0]["link"],
            "https://www.zillow.com/apartments/boston-ma/95-saint/CkBG9z/");
  EXPECT_EQ(b["properties"][0]["extractedPrice"], 4919);
}

TEST(ZillowListingInChromium, The2026CardsOfBostonRentals) {
  // A real page of April 2026, kept by its project without its head and list header: nine cards
  // of the 2026 layout, whose links are on the price and the address, whose price is followed by
  // notes ("$1,950+/mo Fees may apply"), and whose buildings are named by where they stand
  // ("zpid_42.264652--71.15673") and addressed "Rockingham Glen | 30 Rockingham Ave, West
  // Roxbury, MA".
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.zillow.com/homes/for_rent/",
      gleaner::testing::site_page(
          "zillow", "estate-listing/zillow-search-boston-rentals-cards-2026-04.html")));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"keyword", "Boston, MA"}, {"type", "forRent"}})
                     .body;
  ASSERT_EQ(b["properties"].size(), 9u);
  for (const nlohmann::json& p : b["properties"]) {
    SCOPED_TRACE(p.dump());
    EXPECT_TRUE(p.value("link", "").starts_with("https://www.zillow.com/apartments/"));
    EXPECT_GT(p.value("extractedPrice", 0.0), 0);
    EXPECT_EQ(p["address"]["state"], "MA");
  }
  const auto& glen = b["properties"][0];
  EXPECT_EQ(glen["link"],
            "https://www.zillow.com/apartments/west-roxbury-ma/rockingham-glen/5XjW9P/");
  EXPECT_EQ(glen["price"], "$2,045+ 1 bd");
  EXPECT_EQ(glen["extractedPrice"], 2045);
  EXPECT_EQ(glen["address"]["street"], "30 Rockingham Ave");
  EXPECT_EQ(glen["address"]["city"], "West Roxbury");
  EXPECT_EQ(glen["isBuilding"], true);
  EXPECT_EQ(glen["zpid"], "42.264652--71.15673");
  EXPECT_EQ(glen["location"]["latitude"], 42.264652);
  EXPECT_EQ(glen["location"]["longitude"], -71.15673);
  const auto& river = b["properties"][2];
  EXPECT_EQ(river["zpid"], "459362582");
  EXPECT_EQ(river["price"], "$1,950+/mo");
  EXPECT_EQ(river["extractedPrice"], 1950);
  EXPECT_EQ(river["beds"], 1);
  EXPECT_EQ(river["baths"], 1);
  EXPECT_EQ(river["status"], "Apartment for rent");
  EXPECT_EQ(river["address"]["postalCode"], "02126");
  const auto& malvern = b["properties"][6];
  EXPECT_EQ(malvern["zpid"], "2072000832");
  EXPECT_EQ(malvern["price"], "$3,000/mo");
  EXPECT_EQ(malvern["livingArea"], 800);
  EXPECT_EQ(malvern["address"]["street"], "Malvern Place Apartments, 40 Malvern St #105");
  EXPECT_EQ(malvern["address"]["city"], "Allston");
}

const char* const kColumbus = "estate-listing/zillow-search-columbus-oh-for-sale-2025-06.html";
// The search the endpoint makes, and no more: the page was saved whole, and a prefix would also
// answer its saved sub-resources ("./215 Stockbridge Rd, … _files/…", some 200) with the page.
const char* const kForSaleSearch =
    R"(https://www\.zillow\.com/homes/for_sale/\?searchQueryState=.*)";

// The Columbus page answering the search, whole or `rewritten` as rewritten_page() takes it.
TempReplayArchive::Entry columbus_search(const nlohmann::json& rewritten = nullptr) {
  TempReplayArchive::Entry entry;
  entry.match = "regex";
  entry.url = kForSaleSearch;
  entry.source = gleaner::testing::site_page("zillow", kColumbus);
  if (!rewritten.is_null()) {
    entry.body = gleaner::testing::rewritten_page(entry.source, rewritten);
    entry.source.clear();
    entry.file_name = "rewritten-columbus.html";
  }
  return entry;
}

TEST(ZillowListingInChromium, HomesForSaleInColumbus2025) {
  // A for-sale search of June 2025 ("Columbus OH Real Estate & Homes For Sale · 672 results",
  // 41 homes a page, page 1 of 17), saved with one home's details open over it: its search state
  // is the list's. "215 Stockbridge Rd, Columbus, OH 43207 $250,000 4 bds 2 ba 1,861 sqft - House
  // for sale · KELLER WILLIAMS GREATER COLS".
  TempReplayArchive archive;
  archive.add(columbus_search());
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"keyword", "Columbus, OH"}, {"type", "forSale"}})
                     .body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 672);
  EXPECT_EQ(b["pagination"],
            nlohmann::json({{"currentPage", 1}, {"totalPages", 17}, {"nextPage", 2}}));
  ASSERT_EQ(b["properties"].size(), 41u);
  const auto& first = b["properties"][0];
  EXPECT_EQ(first["zpid"], "33902101");
  EXPECT_EQ(first["link"],
            "https://www.zillow.com/homedetails/215-Stockbridge-Rd-Columbus-OH-43207/"
            "33902101_zpid/");
  EXPECT_EQ(first["address"], nlohmann::json({{"street", "215 Stockbridge Rd"},
                                              {"city", "Columbus"},
                                              {"state", "OH"},
                                              {"postalCode", "43207"}}));
  EXPECT_EQ(first["price"], "$250,000");
  EXPECT_EQ(first["extractedPrice"], 250000);
  EXPECT_EQ(first["beds"], 4);
  EXPECT_EQ(first["baths"], 2);
  EXPECT_EQ(first["livingArea"], 1861);
  EXPECT_EQ(first["lotArea"], nlohmann::json({{"value", 0.25}, {"unit", "acres"}}));
  EXPECT_EQ(first["homeType"], "SINGLE_FAMILY");
  EXPECT_EQ(first["status"], "House for sale");
  EXPECT_EQ(first["brokerName"], "Keller Williams Greater Cols");
  EXPECT_EQ(first["zestimate"], 247200);
  const auto& last = b["properties"][40];
  EXPECT_EQ(last["position"], 41);
  EXPECT_EQ(last["address"]["street"], "2165 Amherst Ave");
  EXPECT_EQ(last["extractedPrice"], 145000);
  EXPECT_EQ(last["brokerName"], "Red 1 Realty");
}

TEST(ZillowListingInChromium, HomesForSaleInColumbusFromTheirCards) {
  // The same page with `searchPageState` taken out of its __NEXT_DATA__ (every tag kept): the nine
  // for-sale cards its list had rendered ("215 Stockbridge Rd, Columbus, OH 43207 · KELLER
  // WILLIAMS GREATER COLS, Alexander Richard Mayle · $250,000 · 4 bds 2 ba 1,861 sqft - House
  // for sale") and its header's "672 results". The map's pop-up repeats the first home's card
  // over the map: not a tenth result.
  TempReplayArchive archive;
  archive.add(
      columbus_search(nlohmann::json::array({{"\"searchPageState\"", "\"removedPageState\""}})));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"keyword", "Columbus, OH"}, {"type", "forSale"}})
                     .body;
  expect_cards_read(b, 9, 672);
  const auto& first = b["properties"][0];
  EXPECT_EQ(first["zpid"], "33902101");
  EXPECT_EQ(first["address"]["street"], "215 Stockbridge Rd");
  EXPECT_EQ(first["address"]["postalCode"], "43207");
  EXPECT_EQ(first["extractedPrice"], 250000);
  EXPECT_EQ(first["beds"], 4);
  EXPECT_EQ(first["baths"], 2);
  EXPECT_EQ(first["livingArea"], 1861);
  EXPECT_EQ(first["status"], "House for sale");
  // The card's photo, not the blurred placeholder under it (the page keeps both as saved files).
  EXPECT_TRUE(
      first["photo"].get<std::string>().ends_with("d7d66a911dce8679c4839f3fe389a0d5-p_e.jpg"));
  const auto& coming = b["properties"][7];
  EXPECT_EQ(coming["address"]["street"], "280 Chatterly Ln");
  EXPECT_EQ(coming["baths"], 3);
  EXPECT_EQ(coming["status"], "Coming soon");
  EXPECT_EQ(b["properties"][8]["address"]["street"], "1111 Viewpointe Dr");
}

// PerimeterX's "Access to this page has been denied" of 2025-04 and its 2026-02 form (the captcha
// script's URL carries the page asked for; the assignments set in another order).
TEST(ZillowListingInChromium, PerimeterXWallIsUpstreamBlocked) {
  for (const std::string file :
       {"zillow-px-access-denied-small-2025-04.html", "zillow-px-access-denied-2026-02.html"}) {
    TempReplayArchive archive;
    archive.add(prefix_entry("https://www.zillow.com/homes/",
                             gleaner::testing::site_page("zillow", "blocks/" + file)));
    EXPECT_EQ(error_in_chromium(listing_endpoint(), archive.load(),
                                {{"keyword", "x"}, {"type", "forSale"}})
                  .code(),
              ErrorCode::UpstreamBlocked)
        << file;
  }
}

}  // namespace
}  // namespace gleaner::extract::zillow
