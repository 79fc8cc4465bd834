// GET /scrape/homes/property end to end in real Chromium over a replay archive of a real 2026
// redfin.ca page of the fixtures, and the PerimeterX wall of the fixtures.
#include <gtest/gtest.h>

#include "extract/sites/redfin/property.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::redfin {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

TEST(RedfinPropertyInChromium, EightTwentyNineEastFourteenth) {
  TempReplayArchive archive;
  archive.file("https://www.redfin.ca/bc/vancouver/829-E-14th-Ave-V5T-2N5/home/155809679",
               gleaner::testing::site_page(
                   "redfin", "homes-property/redfin-home-829-e14th-vancouver-2026.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(
      property_endpoint(), replay,
      {{"url", "https://redfin.ca/bc/vancouver/829-E-14th-Ave-V5T-2N5/home/155809679/"}});
  EXPECT_EQ(requested(*replay, "https://www.redfin.ca/bc").front(),
            "https://www.redfin.ca/bc/vancouver/829-E-14th-Ave-V5T-2N5/home/155809679");
  const auto& p = result.body["property"];
  EXPECT_EQ(p["address"]["street"], "829 E 14th Ave");
  EXPECT_EQ(p["mlsId"], "R3090427");
  EXPECT_EQ(p["extractedPrice"], 2198000);
  EXPECT_EQ(p["currency"], "CAD");
  EXPECT_EQ(p["beds"], 5);
  EXPECT_EQ(p["yearBuilt"], 1911);
  EXPECT_EQ(p["agents"][0]["name"], "Jen Hickey");
  EXPECT_TRUE(p["description"].get<std::string>().starts_with("CHARACTER! Beautiful pre-WW1 home"));
}

TEST(RedfinPropertyInChromium, PerimeterXWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(
      "https://www.redfin.com/WA/Seattle/1-Main-St-98101/home/12345",
      gleaner::testing::site_page("zillow", "blocks/zillow-px-access-denied-small-2025-04.html"));
  EXPECT_EQ(
      error_in_chromium(property_endpoint(), archive.load(),
                        {{"url", "https://www.redfin.com/WA/Seattle/1-Main-St-98101/home/12345"}})
          .code(),
      ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::redfin
