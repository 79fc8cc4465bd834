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

// in.indeed.com, 2026: a remote job without salary, one benefit, its company page on the
// country site.
TEST(IndeedJobInChromium, RemoteFlutterDeveloperOnIndeedIndia) {
  TempReplayArchive archive;
  archive.file("https://in.indeed.com/viewjob?jk=b6bab53a3af7b954",
               gleaner::testing::site_page(
                   "indeed", "jobs/indeed-in-serp-flutter-developer-india-2026-05.html"));
  auto result = run_in_chromium(
      job_endpoint(), archive.load(),
      {{"url", "https://in.indeed.com/jobs?q=Flutter+Developer&l=India&vjk=b6bab53a3af7b954"}});
  const auto& job = result.body["job"];
  EXPECT_EQ(job["title"], "Flutter Developer");
  EXPECT_EQ(job["link"], "https://in.indeed.com/viewjob?jk=b6bab53a3af7b954");
  EXPECT_EQ(job["company"]["name"], "Uddhav Innovations");
  EXPECT_EQ(job["company"]["link"], "https://in.indeed.com/cmp/Truediet4me");
  EXPECT_FALSE(job["company"].contains("rating"));
  EXPECT_EQ(job["location"], "Remote");
  EXPECT_EQ(job["remote"], true);
  EXPECT_EQ(job["jobTypes"], (nlohmann::json{"Full-time"}));
  EXPECT_EQ(job["benefits"], (nlohmann::json{"Flexible schedule"}));
  EXPECT_FALSE(job.contains("salary"));
  EXPECT_TRUE(job["postedAt"].get<std::string>().starts_with("2026-05-19T06:51:43"));
  EXPECT_TRUE(job["description"].get<std::string>().starts_with(
      "We are looking for a highly skilled and motivated Flutter Developer"));
  EXPECT_EQ(job["expired"], false);
}

// A 2026 page whose open job was posted in 2022, with no job details section: no job types, no
// benefits; its apply link is the employer's own page.
TEST(IndeedJobInChromium, PhpDeveloperInJonesboroWithoutDetails) {
  TempReplayArchive archive;
  archive.file("https://www.indeed.com/viewjob?jk=b974b400e0228d67",
               gleaner::testing::site_page(
                   "indeed", "jobs/indeed-us-serp-frontend-egypt-ar-two-jobs-2026-07.html"));
  auto result = run_in_chromium(job_endpoint(), archive.load(),
                                {{"url", "https://www.indeed.com/viewjob?jk=b974b400e0228d67"}});
  const auto& job = result.body["job"];
  EXPECT_EQ(job["title"], "PHP Developer – PHP, JavaScript, JSON");
  EXPECT_EQ(job["company"]["name"], "AceOne Technologies");
  EXPECT_EQ(job["company"]["link"], "https://www.indeed.com/cmp/Ace-One-Technologies");
  EXPECT_EQ(job["location"], "Jonesboro, AR 72401");
  EXPECT_EQ(job["remote"], false);
  EXPECT_EQ(job["jobTypes"], nlohmann::json::array());
  EXPECT_FALSE(job.contains("benefits"));
  EXPECT_EQ(job["postedAt"], "2022-08-27T05:00:00Z");
  EXPECT_EQ(job["applyLink"], "https://aceonetechnologies.com/careers");
  EXPECT_TRUE(job["description"].get<std::string>().starts_with(
      "Join the fastest-growing technology services company in Jonesboro, AR."));
}

// Indeed's own Cloudflare page of 2025 ("Security Check - Indeed.com", "Additional Verification
// Required"), another layout than the "Just a moment..." interstitial.
TEST(IndeedJobInChromium, AdditionalVerificationRequiredIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(
      "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf",
      gleaner::testing::site_page(
          "indeed", "blocks/indeed-security-check-additional-verification-block-2025-12.html"));
  EXPECT_EQ(error_in_chromium(job_endpoint(), archive.load(),
                              {{"url", "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

// mx.indeed.com, August 2025, in Spanish: the job open beside the list, pesos a month
// ("$20,000 a $21,000 por mes"), "Tiempo completo".
TEST(IndeedJobInChromium, SoporteTecnicoInCiudadJuarez2025) {
  TempReplayArchive archive;
  archive.file("https://mx.indeed.com/viewjob?jk=9e1f706da53ce2db",
               gleaner::testing::site_page(
                   "indeed", "jobs/indeed-mx-serp-software-ciudad-juarez-es-twopane-2025-08.html"));
  auto result =
      run_in_chromium(job_endpoint(), archive.load(),
                      {{"url", "https://mx.indeed.com/jobs?q=software&vjk=9e1f706da53ce2db"}});
  const auto& job = result.body["job"];
  EXPECT_EQ(job["title"], "Ingeniero de Soporte Técnico");
  EXPECT_EQ(job["link"], "https://mx.indeed.com/viewjob?jk=9e1f706da53ce2db");
  EXPECT_EQ(job["company"]["name"], "Confidencial");
  EXPECT_EQ(job["location"], "Ciudad Juárez, Chih.");
  EXPECT_EQ(job["remote"], false);
  EXPECT_EQ(job["jobTypes"], (nlohmann::json{"Tiempo completo"}));
  EXPECT_EQ(job["salary"]["text"], "$20,000 a $21,000 por mes");
  EXPECT_EQ(job["salary"]["min"], 20000);
  EXPECT_EQ(job["salary"]["max"], 21000);
  EXPECT_EQ(job["salary"]["currency"], "MXN");
  EXPECT_EQ(job["salary"]["period"], "month");
  EXPECT_EQ(job["postedAt"], "2025-07-03T15:46:21Z");
  EXPECT_TRUE(job["description"].get<std::string>().starts_with(
      "ESCOLARIDAD: Ingenieria en Sistemas o afin\nEXPERIENCIA: 1 año en posición similar."));
  EXPECT_EQ(job["expired"], false);
}

// A US search of April 2026 for remote Python jobs, its first job open: a remote job with a
// yearly salary, twelve benefits and the employer's rating.
TEST(IndeedJobInChromium, RemoteResearchScientist2026) {
  TempReplayArchive archive;
  archive.file("https://www.indeed.com/viewjob?jk=4c819be57353b91d",
               gleaner::testing::site_page(
                   "indeed", "jobs/indeed-us-serp-python-remote-twopane-2026-04.html"));
  auto result = run_in_chromium(job_endpoint(), archive.load(),
                                {{"url", "https://www.indeed.com/viewjob?jk=4c819be57353b91d"}});
  const auto& job = result.body["job"];
  EXPECT_EQ(job["title"], "Research Scientist");
  EXPECT_EQ(job["company"]["name"], "Humana");
  EXPECT_EQ(job["company"]["link"], "https://www.indeed.com/cmp/Humana");
  EXPECT_EQ(job["company"]["rating"], 3.6);
  EXPECT_EQ(job["company"]["reviews"], 8503);
  EXPECT_EQ(job["location"], "Remote");
  EXPECT_EQ(job["remote"], true);
  EXPECT_EQ(job["jobTypes"], (nlohmann::json{"Full-time"}));
  EXPECT_EQ(job["salary"]["min"], 78400);
  EXPECT_EQ(job["salary"]["max"], 107800);
  EXPECT_EQ(job["salary"]["period"], "year");
  EXPECT_EQ(job["benefits"].size(), 12u);
  EXPECT_EQ(job["postedAt"], "2026-03-25T05:00:00Z");
  EXPECT_TRUE(job["description"].get<std::string>().starts_with(
      "Become a part of our caring community and help us put health first"));
}

}  // namespace
}  // namespace gleaner::extract::indeed
