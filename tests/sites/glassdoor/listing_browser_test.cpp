// GET /scrape/careers/listing end to end in real Chromium over replay archives of the real
// Glassdoor pages of the fixtures: the 2020 search page of the older layout (its Python bytes
// literal decoded into tests/sites/glassdoor/data/listing/, as the fixtures README says) and the
// 2025 UK page with empty search results.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::glassdoor {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(GlassdoorListingInChromium, HackerrankJobsInAustralia) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.glassdoor.co.in/Job/jobs.htm?",
      std::string(GLEANER_SOURCE_DIR) +
          "/tests/sites/glassdoor/data/listing/hackerrank-australia-2020-decoded.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(listing_endpoint(), replay,
                                {{"keyword", "hackerrank"},
                                 {"location", "Australia"},
                                 {"domain", "www.glassdoor.co.in"},
                                 {"remoteOnly", "false"}});
  EXPECT_EQ(requested(*replay, "https://www.glassdoor.co.in/Job").front(),
            "https://www.glassdoor.co.in/Job/"
            "jobs.htm?sc.keyword=hackerrank&locKeyword=Australia&sortBy=date_desc");
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 43);
  EXPECT_EQ(result.body["jobs"].size(), 30u);
  EXPECT_EQ(result.body["jobs"][0]["company"]["name"], "Uber");
}

TEST(GlassdoorListingInChromium, AnEmptySearchIsAnEmptyList) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.glassdoor.co.uk/Job/jobs.htm?",
      gleaner::testing::site_page("glassdoor",
                                  "careers/glassdoor-uk-jobs-for-you-empty-results-2025-04.html")));
  auto result = run_in_chromium(
      listing_endpoint(), archive.load(),
      {{"keyword", "data analyst"}, {"location", "London"}, {"domain", "glassdoor.co.uk"}});
  EXPECT_EQ(result.body["jobs"], nlohmann::json::array());
}

}  // namespace
}  // namespace gleaner::extract::glassdoor
