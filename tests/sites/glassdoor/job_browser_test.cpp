// GET /scrape/careers/job end to end in real Chromium: the endpoint loads the page the job URL
// names, answered from a replay archive with the real 2025 glassdoor.co.in search page whose
// Apollo cache carries the JobView of the job it shows beside the list (no saved /job-listing/
// page has been found), job.js reads it and the C++ shapes it.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::glassdoor {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kIndia = gleaner::testing::site_page(
    "glassdoor", "careers/glassdoor-co-in-data-scientist-jobs-india-2025-06.html");
const std::string kSearch =
    "https://www.glassdoor.co.in/Job/united-states-data-scientist-jobs-SRCH_IL.0,13_KO14,28.htm";

TEST(GlassdoorJobInChromium, PrincipalMemberOfTechnicalStaffAtAthenahealth) {
  TempReplayArchive archive;
  archive.file(kSearch + "?jl=1009722062558", kIndia);
  auto replay = archive.load();
  auto result = run_in_chromium(job_endpoint(), replay,
                                {{"url", kSearch + "?jl=1009722062558&src=GD_JOB_AD&t=SR"}});
  EXPECT_EQ(requested(*replay, "https://www.glassdoor.co.in/Job").front(),
            kSearch + "?jl=1009722062558");
  const auto& job = result.body["job"];
  EXPECT_EQ(job["title"], "Principal Member of technical Staff- AI & Data Engineering");
  EXPECT_EQ(job["employer"]["name"], "Athenahealth");
  EXPECT_EQ(job["employer"]["rating"], 4.1);
  EXPECT_EQ(job["location"], "Chennai");
  EXPECT_EQ(job["address"]["region"], "Tamil Nadu");
  EXPECT_EQ(job["salary"]["min"], 458000);
  EXPECT_EQ(job["salary"]["max"], 818000);
  EXPECT_EQ(job["salary"]["payCurrency"], "INR");
  EXPECT_EQ(job["datePosted"], "2025-05-25");
  EXPECT_EQ(job["ageInDays"], 44);
  EXPECT_NE(job["description"].get<std::string>().find("athenahealth"), std::string::npos);
}

TEST(GlassdoorJobInChromium, ThePageOfAnotherJobIsNotMixedIn) {
  TempReplayArchive archive;
  archive.file(kSearch + "?jl=1009756072142", kIndia);  // the second listing: not the open job
  EXPECT_EQ(
      error_in_chromium(job_endpoint(), archive.load(), {{"url", kSearch + "?jl=1009756072142"}})
          .code(),
      ErrorCode::UpstreamError);
}

TEST(GlassdoorJobInChromium, CloudflareWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file("https://www.glassdoor.com/job-listing/x.htm?jl=1009722062558",
               gleaner::testing::site_page(
                   "glassdoor", "blocks/glassdoor-just-a-moment-humans-only-block-2026-07.html"));
  EXPECT_EQ(
      error_in_chromium(job_endpoint(), archive.load(),
                        {{"url", "https://www.glassdoor.com/job-listing/x.htm?jl=1009722062558"}})
          .code(),
      ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::glassdoor
