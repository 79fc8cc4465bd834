// GET /scrape/estate/listing end to end in real Chromium over a replay archive of the real 04011
// rentals page of the fixtures, and Zillow's PerimeterX wall of the fixtures.
#include <gtest/gtest.h>

#include "extract/sites/zillow/listing.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::zillow {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

const std::string kPages = std::string(GLEANER_FIXTURES_DIR) + "/pages/";

TEST(ZillowListingInChromium, RentalsIn04011) {
  TempReplayArchive archive;
  archive.add(prefix_entry("https://www.zillow.com/homes/for_rent/",
                           kPages + "estate-listing/zillow-search-04011-nextdata-2025-06.html"));
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

TEST(ZillowListingInChromium, PerimeterXWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.add(prefix_entry("https://www.zillow.com/homes/",
                           kPages + "blocks/zillow-px-access-denied-small-2025-04.html"));
  EXPECT_EQ(
      error_in_chromium(listing_endpoint(), archive.load(), {{"keyword", "x"}, {"type", "forSale"}})
          .code(),
      ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::zillow
