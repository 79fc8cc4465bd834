// GET /scrape/indeed/listing end to end in real Chromium over the two real Indeed results pages
// kept in pages/jobs (Portland "Data Analyst", 2026; Savannah, 2025): listing.js reads the job
// cards the page embeds.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::indeed {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

TEST(IndeedListingInChromium, PortlandDataAnalystJobsAsAPersonReadsThem) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.indeed.com/jobs?q=Data+Analyst",
      gleaner::testing::site_page(
          "indeed", "jobs/indeed-us-serp-twopane-viewjob-data-analyst-portland-2026-02.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(listing_endpoint(), replay,
                                {{"keyword", "Data Analyst"},
                                 {"location", "Portland, OR"},
                                 {"sort", "date"},
                                 {"start", "0"}});
  EXPECT_EQ(requested(*replay, "https://www.indeed.com/").front(),
            "https://www.indeed.com/jobs?q=Data+Analyst&l=Portland%2C+OR&sort=date");
  const auto& jobs = result.body["jobs"];
  ASSERT_EQ(jobs.size(), 15u);
  EXPECT_EQ(jobs[0]["title"], "Research Data Analyst 1");
  EXPECT_EQ(jobs[0]["company"], "Oregon Health & Science University");
  EXPECT_EQ(jobs[0]["location"], "Portland, OR 97239");
  EXPECT_EQ(jobs[0]["jobKey"], "29dd4196cccd7eaf");
  EXPECT_EQ(jobs[0]["url"], "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf");
  EXPECT_EQ(jobs[0]["date"], "5 days ago");
  EXPECT_EQ(jobs[0]["isoDate"], "2026-02-19T06:00:00Z");
  EXPECT_EQ(jobs[0]["sponsored"], false);
  EXPECT_EQ(jobs[0]["details"], nlohmann::json::array({"Part-time"}));
  EXPECT_EQ(jobs[0]["salary"]["min"], 27.85);
  EXPECT_EQ(jobs[0]["salary"]["max"], 41.77);
  EXPECT_EQ(jobs[0]["salary"]["type"], "HOURLY");
  EXPECT_TRUE(jobs[0]["description"].get<std::string>().starts_with(
      "This person will work with ORCATECH faculty"));
  EXPECT_EQ(result.body["pagination"]["nextPage"],
            "https://www.indeed.com/jobs?q=Data+Analyst&l=Portland%2C+OR&radius=25&start=10");
  EXPECT_EQ(result.body["peopleAlsoSearchFor"][0]["query"], "usa");
}

TEST(IndeedListingInChromium, SavannahsSponsoredCardsAndOpenEndedSalary) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.indeed.com/jobs?q=analyst",
      gleaner::testing::site_page("indeed",
                                  "jobs/indeed-us-serp-twopane-viewjob-savannah-ga-2025-03.html")));
  auto result = run_in_chromium(listing_endpoint(), archive.load(),
                                {{"keyword", "analyst"}, {"location", "Savannah, GA"}});
  const auto& jobs = result.body["jobs"];
  ASSERT_EQ(jobs.size(), 15u);
  EXPECT_EQ(jobs[0]["title"], "Laboratory Analyst");
  EXPECT_EQ(jobs[0]["sponsored"], true);
  // "From $22.38 an hour": Indeed's -1 for the missing end is left out.
  EXPECT_EQ(jobs[0]["salary"]["min"], 22.38);
  EXPECT_FALSE(jobs[0]["salary"].contains("max"));
  EXPECT_EQ(jobs[0]["salary"]["text"], "From $22.38 an hour");
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 14000);
}

}  // namespace
}  // namespace gleaner::extract::indeed
