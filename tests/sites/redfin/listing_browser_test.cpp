// GET /scrape/homes/listing end to end in real Chromium over replay archives: the search box's
// autocomplete answers (written for these tests in the site's documented shape, under
// tests/sites/redfin/data/listing/), the Seattle search page built from the real gis JSON of the
// fixtures in a minimal document (data/listing/seattle-search-gis.html, see
// build_seattle_search_page.py) and a page that requests the same real JSON itself, the real
// redfin.ca property page of the fixtures for an address, and a block page of the fixtures.
#include <gtest/gtest.h>

#include "extract/sites/redfin/listing.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::redfin {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

const std::string kData = std::string(GLEANER_SOURCE_DIR) + "/tests/sites/redfin/data/listing/";
const std::string kAutocomplete = "https://www.redfin.com/stingray/do/location-autocomplete?";

TEST(RedfinListingInChromium, SeattleFromTheRealGisJsonInAMinimalDocument) {
  TempReplayArchive archive;
  archive.add(prefix_entry(kAutocomplete, kData + "autocomplete-seattle.json"));
  archive.add(prefix_entry("https://www.redfin.com/city/16163/WA/Seattle/",
                           kData + "seattle-search-gis.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(listing_endpoint(), replay,
                                {{"keyword", "Seattle, WA"},
                                 {"type", "forSale"},
                                 {"homeTypes[]", "house"},
                                 {"homeTypes[]", "condo"},
                                 {"price[min]", "300000"},
                                 {"statusOptions[]", "active"},
                                 {"page", "2"}});
  EXPECT_EQ(requested(*replay, "https://www.redfin.com/stingray").front(),
            "https://www.redfin.com/stingray/do/location-autocomplete?location=Seattle%2C+WA&v=2");
  EXPECT_EQ(requested(*replay, "https://www.redfin.com/city").front(),
            "https://www.redfin.com/city/16163/WA/Seattle/filter/property-type=house+condo,"
            "min-price=300k,status=active/page-2");
  EXPECT_EQ(result.url,
            "https://www.redfin.com/city/16163/WA/Seattle/filter/property-type=house+condo,"
            "min-price=300k,status=active/page-2");
  const auto& b = result.body;
  ASSERT_EQ(b["properties"].size(), 89u);
  EXPECT_EQ(b["pagination"]["currentPage"], 2);
  const auto& first = b["properties"][0];
  EXPECT_EQ(first["address"]["street"], "506 E Howell St Unit W303");
  EXPECT_EQ(first["mlsId"], "2180345");
  EXPECT_EQ(first["extractedPrice"], 360000);
  EXPECT_EQ(first["sqft"], 566);
  EXPECT_EQ(b["properties"][2]["address"]["street"], "4626 S Myrtle St");
  EXPECT_EQ(b["properties"][2]["beds"], 5);
}

TEST(RedfinListingInChromium, TheRealSearchPageOfZip98109In2025) {
  // A real redfin.com search page of September 2025 ("98109, WA homes for sale & real estate ·
  // 127 homes · 1800 Taylor Ave N #206, Seattle, WA 98109 $350,000 2 beds 1 bath 798 sq ft"),
  // its gis answer in the page's data cache; the search box's answer for "98109" is written for
  // this test in the site's shape (data/listing/autocomplete-98109.json).
  TempReplayArchive archive;
  archive.add(prefix_entry(kAutocomplete, kData + "autocomplete-98109.json"));
  archive.file("https://www.redfin.com/zipcode/98109",
               gleaner::testing::site_page(
                   "redfin", "homes-listing/redfin-com-zipcode-98109-seattle-search-2025-09.html"));
  auto replay = archive.load();
  const auto result =
      run_in_chromium(listing_endpoint(), replay, {{"keyword", "98109"}, {"type", "forSale"}});
  EXPECT_EQ(requested(*replay, "https://www.redfin.com/zipcode").front(),
            "https://www.redfin.com/zipcode/98109");
  const auto& b = result.body;
  ASSERT_EQ(b["properties"].size(), 127u);
  const auto& first = b["properties"][0];
  EXPECT_EQ(first["propertyId"], "68575");
  EXPECT_EQ(first["mlsId"], "2428466");
  EXPECT_EQ(first["link"],
            "https://www.redfin.com/WA/Seattle/1800-Taylor-Ave-N-98109/unit-206/home/68575");
  EXPECT_EQ(first["address"]["street"], "1800 Taylor Ave N #206");
  EXPECT_EQ(first["address"]["postalCode"], "98109");
  EXPECT_EQ(first["price"], "$350,000");
  EXPECT_EQ(first["currency"], "USD");
  EXPECT_EQ(first["beds"], 2);
  EXPECT_EQ(first["baths"], 1);
  EXPECT_EQ(first["sqft"], 798);
  EXPECT_EQ(first["hoa"], 855);
  EXPECT_EQ(first["yearBuilt"], 1948);
  EXPECT_EQ(first["status"], "Active");
  EXPECT_EQ(first["broker"], "Redfin");
  const auto& warren = b["properties"][2];
  EXPECT_EQ(warren["address"]["street"], "2553 Warren Ave N");
  EXPECT_EQ(warren["extractedPrice"], 1450000);
  EXPECT_EQ(warren["baths"], 1.5);
  EXPECT_EQ(warren["sqft"], 2460);
  EXPECT_EQ(warren["broker"], "Windermere Real Estate Midtown");
}

TEST(RedfinListingInChromium, ARegionTheSiteAnswersPageNotFoundForIsNotFound) {
  // The site's real "Page Not Found | Redfin" page of December 2025 (saved rendered by a project
  // that asked for /city/nashville-tn), served where the search box's row leads: the place is not
  // on the site (404), not a page the reader failed on (502).
  TempReplayArchive archive;
  archive.add(prefix_entry(kAutocomplete, kData + "autocomplete-98109.json"));
  archive.file("https://www.redfin.com/zipcode/98109",
               gleaner::testing::site_page(
                   "redfin", "homes-listing/redfin-com-city-page-not-found-rendered-2025-12.html"));
  EXPECT_EQ(error_in_chromium(listing_endpoint(), archive.load(),
                              {{"keyword", "98109"}, {"type", "forSale"}})
                .code(),
            ErrorCode::NotFound);
}

TEST(RedfinListingInChromium, AGisAnswerThePageRequestsItselfIsReadFromThePage) {
  // A search page without the data cache that requests its gis answer itself, as the site's
  // client does (a minimal document written for this test); the answer is the real gis JSON of
  // the fixtures behind the `{}&&` prefix.
  const nlohmann::json homes = testing::read_json_file(
      gleaner::testing::site_page("redfin", "homes-listing/redfin-gis-homes-scrapfly.json"));
  TempReplayArchive archive;
  archive.add(prefix_entry(kAutocomplete, kData + "autocomplete-seattle.json"));
  archive.page("https://www.redfin.com/city/16163/WA/Seattle/filter/include=sold-1yr",
               "<!DOCTYPE html><html><body><script>const x = new XMLHttpRequest();"
               "x.open('GET', '/stingray/api/gis?region_id=16163&region_type=6', false);"
               "x.send();</script></body></html>");
  TempReplayArchive::Entry gis;
  gis.match = "prefix";
  gis.url = "https://www.redfin.com/stingray/api/gis?";
  gis.body = "{}&&" + nlohmann::json{{"resultCode", 0},
                                     {"errorMessage", "Success"},
                                     {"payload", {{"homes", homes}}}}
                          .dump();
  gis.file_name = "gis.json";
  archive.add(gis);
  auto replay = archive.load();
  auto result =
      run_in_chromium(listing_endpoint(), replay,
                      {{"keyword", "Seattle, WA"}, {"type", "sold"}, {"soldWithinOption", "1yr"}});
  // Once by the page, once by listing.js.
  EXPECT_EQ(requested(*replay, "https://www.redfin.com/stingray/api/gis").size(), 2u);
  const auto& b = result.body;
  ASSERT_EQ(b["properties"].size(), 89u);
  EXPECT_EQ(b["searchInformation"]["type"], "sold");
  EXPECT_EQ(b["properties"][1]["address"]["street"], "1105 Spring St #405");
  EXPECT_EQ(b["properties"][1]["mlsId"], "2180114");
  EXPECT_EQ(b["properties"][0]["soldDate"], "2005-10-31");
}

TEST(RedfinListingInChromium, AnAddressGivesItsPropertyCard) {
  TempReplayArchive archive;
  archive.add(prefix_entry(kAutocomplete, kData + "autocomplete-2083-breezewood.json"));
  archive.file("https://www.redfin.ca/on/ottawa/2083-Breezewood-St-K4A-4R7/home/149567261",
               gleaner::testing::site_page(
                   "redfin", "homes-property/redfin-ca-2083-breezewood-ottawa-raw-2026-02.html"));
  auto result = run_in_chromium(listing_endpoint(), archive.load(),
                                {{"keyword", "2083 Breezewood St, Ottawa"}, {"type", "forSale"}});
  const auto& b = result.body;
  EXPECT_FALSE(b.contains("properties"));
  EXPECT_EQ(b["searchInformation"]["keyword"], "2083 Breezewood St, Ottawa");
  EXPECT_EQ(b["property"]["propertyId"], "149567261");
  EXPECT_EQ(b["property"]["mlsId"], "X12793132");
  EXPECT_EQ(b["property"]["extractedPrice"], 610000);
  EXPECT_EQ(b["property"]["currency"], "CAD");
  EXPECT_EQ(b["property"]["beds"], 3);
}

TEST(RedfinListingInChromium, AnUnknownPlaceIsNotFound) {
  TempReplayArchive archive;
  archive.add(prefix_entry(kAutocomplete, kData + "autocomplete-no-place.json"));
  EXPECT_EQ(error_in_chromium(listing_endpoint(), archive.load(),
                              {{"keyword", "Qwxzv"}, {"type", "forSale"}})
                .code(),
            ErrorCode::NotFound);
}

TEST(RedfinListingInChromium, PerimeterXWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.redfin.com/",
      gleaner::testing::site_page("zillow", "blocks/zillow-px-access-denied-small-2025-04.html")));
  EXPECT_EQ(error_in_chromium(listing_endpoint(), archive.load(),
                              {{"keyword", "Seattle, WA"}, {"type", "forSale"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

TEST(RedfinListingInChromium, ARegionPageWithoutTheSearchAnswerIsExtractionFailed) {
  // The autocomplete answer sent back where the search page was expected: a page of the site
  // without any gis answer is never an empty success.
  TempReplayArchive archive;
  archive.add(prefix_entry(kAutocomplete, kData + "autocomplete-seattle.json"));
  archive.add(prefix_entry("https://www.redfin.com/city/", kData + "autocomplete-seattle.json"));
  EXPECT_EQ(error_in_chromium(listing_endpoint(), archive.load(),
                              {{"keyword", "Seattle, WA"}, {"type", "forSale"}})
                .code(),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::redfin
