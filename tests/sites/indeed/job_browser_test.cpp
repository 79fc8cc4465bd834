// GET /scrape/jobs/job end to end in real Chromium: the endpoint resolves the job URL to the job's
// page, the page is answered from a replay archive with a real Indeed search page of the fixtures
// that carries the job's view model beside the list (no standalone job page is among them),
// job.js reads it and the C++ shapes it.
#include <gtest/gtest.h>

#include "extract/sites/indeed/job.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::indeed {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kPortland = gleaner::testing::site_page(
    "indeed", "jobs/indeed-us-serp-twopane-viewjob-data-analyst-portland-2026-02.html");

TEST(IndeedJobInChromium, ResearchDataAnalystInPortland) {
  TempReplayArchive archive;
  archive.file("https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf", kPortland);
  auto replay = archive.load();
  auto result =
      run_in_chromium(job_endpoint(), replay,
                      {{"url", "https://www.indeed.com/rc/clk?jk=29dd4196cccd7eaf&from=vj"}});
  EXPECT_EQ(requested(*replay, "https://www.indeed.com/viewjob").front(),
            "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf");
  const auto& job = result.body["job"];
  EXPECT_EQ(job["title"], "Research Data Analyst 1");
  EXPECT_EQ(job["company"]["name"], "Oregon Health & Science University");
  EXPECT_EQ(job["company"]["rating"], 3.8);
  EXPECT_EQ(job["company"]["reviews"], 924);
  EXPECT_EQ(job["location"], "Portland, OR 97239");
  EXPECT_EQ(job["jobTypes"], (nlohmann::json{"Part-time"}));
  EXPECT_EQ(job["salary"]["text"], "$27.85 - $41.77 an hour");
  EXPECT_EQ(job["salary"]["min"], 27.85);
  EXPECT_EQ(job["salary"]["max"], 41.77);
  EXPECT_EQ(job["salary"]["period"], "hour");
  EXPECT_EQ(job["expired"], false);
}

TEST(IndeedJobInChromium, ThePageOfAnotherJobIsNotMixedIn) {
  TempReplayArchive archive;
  archive.file("https://www.indeed.com/viewjob?jk=0123456789abcdef", kPortland);
  EXPECT_EQ(error_in_chromium(job_endpoint(), archive.load(),
                              {{"url", "https://www.indeed.com/viewjob?jk=0123456789abcdef"}})
                .code(),
            ErrorCode::UpstreamError);
}

TEST(IndeedJobInChromium, CloudflareInterstitialIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file("https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf",
               gleaner::testing::site_page(
                   "indeed", "blocks/indeed-cloudflare-just-a-moment-block-2026-02.html"));
  EXPECT_EQ(error_in_chromium(job_endpoint(), archive.load(),
                              {{"url", "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

TEST(IndeedJobInChromium, AJobTheSiteNoLongerHasIsNotFound) {
  TempReplayArchive archive;  // the archive's 404 for the job page
  EXPECT_EQ(error_in_chromium(job_endpoint(), archive.load(),
                              {{"url", "https://uk.indeed.com/viewjob?jk=29dd4196cccd7eaf"}})
                .code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::indeed
