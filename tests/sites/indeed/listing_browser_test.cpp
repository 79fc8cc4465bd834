// GET /scrape/indeed/listing end to end in real Chromium over the real Indeed results pages kept
// in pages/jobs (Portland "Data Analyst", 2026; Savannah, 2025; in.indeed.com "Flutter Developer",
// 2026; "Frontend" in Egypt, AR, 2026; "usa", 2024, saved re-indented): listing.js reads the job
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
  // The page hides its count line; its data carries the count.
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 79);
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

// in.indeed.com, 2026: rupee salaries, "Up to" ranges, and a page that hides its job count line
// (the count is the one its data carries).
TEST(IndeedListingInChromium, FlutterDevelopersOnIndeedIndia) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://in.indeed.com/jobs?q=Flutter+Developer",
      gleaner::testing::site_page("indeed",
                                  "jobs/indeed-in-serp-flutter-developer-india-2026-05.html")));
  auto result = run_in_chromium(
      listing_endpoint(), archive.load(),
      {{"keyword", "Flutter Developer"}, {"location", "India"}, {"domain", "in.indeed.com"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 29);
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 15u);
  EXPECT_EQ(jobs[0]["title"], "Flutter Developer");
  EXPECT_EQ(jobs[0]["company"], "Uddhav Innovations");
  EXPECT_EQ(jobs[0]["location"], "Remote");
  EXPECT_EQ(jobs[0]["url"], "https://in.indeed.com/viewjob?jk=b6bab53a3af7b954");
  EXPECT_EQ(jobs[0]["date"], "1 day ago");
  EXPECT_EQ(jobs[0]["isoDate"], "2026-05-19T05:00:00Z");
  EXPECT_EQ(jobs[0]["details"], nlohmann::json::array({"Full-time", "Remote"}));
  EXPECT_EQ(jobs[0]["benefits"], nlohmann::json::array({"Flexible schedule"}));
  EXPECT_FALSE(jobs[0].contains("salary"));
  EXPECT_EQ(jobs[1]["salary"]["text"], "From ₹40,000 a month");
  EXPECT_EQ(jobs[1]["salary"]["min"], 40000);
  EXPECT_FALSE(jobs[1]["salary"].contains("max"));
  EXPECT_EQ(jobs[1]["salary"]["currency"], "INR");
  EXPECT_EQ(jobs[1]["salary"]["type"], "MONTHLY");
  // "Up to ₹3,200 a month": Indeed's 0 for the missing start is left out.
  EXPECT_EQ(jobs[2]["title"], "Senior Flutter Mobile Developer");
  EXPECT_EQ(jobs[2]["salary"]["text"], "Up to ₹3,200 a month");
  EXPECT_FALSE(jobs[2]["salary"].contains("min"));
  EXPECT_EQ(jobs[2]["salary"]["max"], 3200);
  EXPECT_EQ(b["pagination"]["nextPage"],
            "https://in.indeed.com/jobs?q=Flutter+Developer&l=India&radius=25&fromage=1&start=10");
  EXPECT_EQ(b["peopleAlsoSearchFor"][0]["query"], "react js developer");
  EXPECT_EQ(b["peopleAlsoSearchFor"][0]["link"],
            "https://in.indeed.com/q-react-js-developer-jobs.html?from=relatedQueries&saIdx=1&rqf=1"
            "&parentQnorm=Flutter+Developer");
}

// A 2026 search that matches two jobs: the page still lists fifteen cards (the two, then others
// further away), hides its count line and has no next page.
TEST(IndeedListingInChromium, FrontendInEgyptArkansasFindsTwoJobs) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.indeed.com/jobs?q=Frontend",
      gleaner::testing::site_page("indeed",
                                  "jobs/indeed-us-serp-frontend-egypt-ar-two-jobs-2026-07.html")));
  auto result = run_in_chromium(listing_endpoint(), archive.load(),
                                {{"keyword", "Frontend"}, {"location", "Egypt, AR"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 2);
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 15u);
  EXPECT_EQ(jobs[0]["title"], "PHP Developer – PHP, JavaScript, JSON");
  EXPECT_EQ(jobs[0]["company"], "AceOne Technologies");
  EXPECT_EQ(jobs[0]["location"], "Jonesboro, AR 72401");
  EXPECT_EQ(jobs[0]["date"], "30+ days ago");
  EXPECT_EQ(jobs[0]["isoDate"], "2022-08-27T05:00:00Z");
  EXPECT_TRUE(jobs[0]["description"].get<std::string>().starts_with(
      "We are seeking PHP & MySQL Developer(s)"));
  EXPECT_EQ(jobs[2]["title"], "Temporary Website developer, Salesforce professional");
  EXPECT_EQ(jobs[2]["sponsored"], true);
  EXPECT_EQ(jobs[2]["details"], nlohmann::json::array({"Temporary", "Remote"}));
  EXPECT_FALSE(b["pagination"].contains("nextPage"));
  EXPECT_FALSE(b.contains("peopleAlsoSearchFor"));
}

// January 2024, saved re-indented by the scraper that kept it: the count line shows "224,532 jobs".
TEST(IndeedListingInChromium, UsaJobsOf2024) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.indeed.com/jobs?q=usa",
      gleaner::testing::site_page("indeed", "jobs/indeed-us-serp-usa-prettified-2024-01.html")));
  auto result = run_in_chromium(listing_endpoint(), archive.load(),
                                {{"keyword", "usa"}, {"location", "United States"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 224532);
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 15u);
  EXPECT_EQ(jobs[0]["title"], "Auto Techs, $4,000 - $12,000/month, Paid Training!");
  EXPECT_EQ(jobs[0]["company"], "Colonial Buick GMC");
  EXPECT_EQ(jobs[0]["location"], "Loganville, GA 30052");
  EXPECT_EQ(jobs[0]["date"], "3 days ago");
  EXPECT_EQ(jobs[0]["isoDate"], "2024-01-12T06:00:00Z");
  EXPECT_EQ(jobs[1]["title"], "Caregiver");
  EXPECT_EQ(jobs[1]["date"], "Today");
  EXPECT_EQ(jobs[1]["details"], nlohmann::json::array({"Part-time", "Full-time"}));
  EXPECT_EQ(jobs[1]["benefits"], nlohmann::json::array({"Paid training", "Paid time off",
                                                        "Flexible schedule", "Referral program"}));
  EXPECT_EQ(jobs[1]["salary"]["min"], 19);
  EXPECT_EQ(jobs[1]["salary"]["type"], "HOURLY");
  EXPECT_EQ(jobs[2]["details"], nlohmann::json::array({"Full-time", "Night shift"}));
  EXPECT_EQ(jobs[2]["salary"]["min"], 19);
  EXPECT_EQ(jobs[2]["salary"]["max"], 21.5);
  EXPECT_EQ(jobs[2]["salary"]["text"], "$19.00 - $21.50 an hour");
  EXPECT_EQ(b["pagination"]["nextPage"], "https://www.indeed.com/jobs?q=usa&start=10");
  EXPECT_EQ(b["peopleAlsoSearchFor"][0]["query"], "jobs usa");
}

// id.indeed.com, May 2022, in Indonesian: the older layout, whose cards carry no publication
// time and no currency, whose count is the line "Halaman 1 dari 154 lowongan" (page 1 of 154
// jobs) and whose pager has no next button (the head's rel=next names the next page).
TEST(IndeedListingInChromium, LaravelDevelopersOnIndeedIndonesia2022) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://id.indeed.com/jobs?q=Laravel+Developer",
      gleaner::testing::site_page("indeed",
                                  "jobs/indeed-id-serp-laravel-developer-indonesia-2022-05.html")));
  auto result = run_in_chromium(
      listing_endpoint(), archive.load(),
      {{"keyword", "Laravel Developer"}, {"location", "Indonesia"}, {"domain", "id.indeed.com"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 154);
  EXPECT_EQ(b["pagination"]["nextPage"],
            "https://id.indeed.com/jobs?q=Laravel+Developer&l=Indonesia&start=10");
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 15u);
  EXPECT_EQ(jobs[0]["title"], "Back End Developer");
  EXPECT_EQ(jobs[0]["company"], "Appsensi");
  EXPECT_EQ(jobs[0]["location"], "Jakarta");
  EXPECT_EQ(jobs[0]["date"], "Hari Ini");  // "Today"
  EXPECT_FALSE(jobs[0].contains("isoDate"));
  // "Rp. 6.000.000 - Rp. 8.000.000 per bulan": rupiahs a month.
  EXPECT_EQ(jobs[0]["salary"]["min"], 6000000);
  EXPECT_EQ(jobs[0]["salary"]["max"], 8000000);
  EXPECT_EQ(jobs[0]["salary"]["currency"], "IDR");
  EXPECT_EQ(jobs[0]["salary"]["type"], "MONTHLY");
  EXPECT_EQ(jobs[1]["title"], "Programmer");
  EXPECT_EQ(jobs[1]["date"], "22 hari yang lalu");
  EXPECT_EQ(jobs[1]["salary"]["min"], 3500000);
  EXPECT_FALSE(jobs[2].contains("salary"));  // HACKLAB ROCKS's card shows no pay
}

// A US search of March 2022 with two results ("Page 1 of 2 jobs"): no next page.
TEST(IndeedListingInChromium, TwoResultsOfMarch2022) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.indeed.com/jobs?q=Pyhton+Developer",
      gleaner::testing::site_page(
          "indeed", "jobs/indeed-us-serp-pyhton-developer-new-york-two-jobs-2022-03.html")));
  auto result = run_in_chromium(listing_endpoint(), archive.load(),
                                {{"keyword", "Pyhton Developer"}, {"location", "New York State"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 2);
  EXPECT_FALSE(b["pagination"].contains("nextPage"));
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0]["title"], "Solutions Consultant, MarTech");
  EXPECT_EQ(jobs[0]["company"], "Actable");
  EXPECT_EQ(jobs[0]["location"], "New York, NY 10004");
  EXPECT_EQ(jobs[0]["date"], "30+ days ago");
  EXPECT_EQ(jobs[1]["company"], "Lamont-Doherty Earth Observatory at Columbia University");
  EXPECT_EQ(jobs[1]["date"], "4 days ago");
  EXPECT_EQ(jobs[1]["details"], nlohmann::json::array({"Full-time"}));
}

// mx.indeed.com, August 2025, in Spanish: peso salaries "por mes", "hace 30+ días", the count
// line "25+ empleos" and related searches on the Mexican site.
TEST(IndeedListingInChromium, SoftwareJobsInCiudadJuarez2025) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://mx.indeed.com/jobs?q=software",
      gleaner::testing::site_page(
          "indeed", "jobs/indeed-mx-serp-software-ciudad-juarez-es-twopane-2025-08.html")));
  auto result = run_in_chromium(
      listing_endpoint(), archive.load(),
      {{"keyword", "software"}, {"location", "Ciudad Juárez, Chih."}, {"domain", "mx.indeed.com"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 25);
  EXPECT_EQ(
      b["pagination"]["nextPage"],
      "https://mx.indeed.com/jobs?q=software&l=ciudad+Ju%C3%A1rez%2C+chih.&radius=25&start=10");
  EXPECT_EQ(b["peopleAlsoSearchFor"][0]["query"], "programador");
  EXPECT_TRUE(b["peopleAlsoSearchFor"][0]["link"].get<std::string>().starts_with(
      "https://mx.indeed.com/q-programador-l-ciudad-ju%c3%a1rez,-chih.-empleos.html"));
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 15u);
  EXPECT_EQ(jobs[0]["title"], "Ingeniero de Soporte Técnico");
  EXPECT_EQ(jobs[0]["company"], "Confidencial");
  EXPECT_EQ(jobs[0]["location"], "Ciudad Juárez, Chih.");
  EXPECT_EQ(jobs[0]["date"], "hace 30+ días");
  EXPECT_EQ(jobs[0]["isoDate"], "2025-07-03T05:00:00Z");
  EXPECT_EQ(jobs[0]["sponsored"], true);
  EXPECT_EQ(jobs[0]["details"], nlohmann::json::array({"Tiempo completo", "Turno de 10 horas"}));
  EXPECT_EQ(jobs[0]["salary"]["min"], 20000);
  EXPECT_EQ(jobs[0]["salary"]["max"], 21000);
  EXPECT_EQ(jobs[0]["salary"]["currency"], "MXN");
  EXPECT_EQ(jobs[0]["salary"]["text"], "$20,000 a $21,000 por mes");
  EXPECT_EQ(jobs[1]["benefits"], nlohmann::json::array({"Estacionamiento para empleados",
                                                        "Estacionamiento de la empresa"}));
}

// A US search of April 2026 for remote Python jobs: a salaried remote card with twelve
// benefits, and the count the page's data carries.
TEST(IndeedListingInChromium, RemotePythonJobs2026) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.indeed.com/jobs?q=Python",
      gleaner::testing::site_page("indeed",
                                  "jobs/indeed-us-serp-python-remote-twopane-2026-04.html")));
  auto result = run_in_chromium(listing_endpoint(), archive.load(),
                                {{"keyword", "Python"}, {"location", "Remote"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 6217);
  EXPECT_EQ(b["pagination"]["nextPage"],
            "https://www.indeed.com/jobs?q=Python&l=Remote&radius=50&start=10");
  const auto& jobs = b["jobs"];
  ASSERT_FALSE(jobs.empty());
  EXPECT_EQ(jobs[0]["title"], "Research Scientist");
  EXPECT_EQ(jobs[0]["company"], "Humana");
  EXPECT_EQ(jobs[0]["location"], "Remote");
  EXPECT_EQ(jobs[0]["date"], "15 days ago");
  EXPECT_EQ(jobs[0]["isoDate"], "2026-03-25T05:00:00Z");
  EXPECT_EQ(jobs[0]["details"], nlohmann::json::array({"Full-time", "Remote"}));
  EXPECT_EQ(jobs[0]["benefits"].size(), 12u);
  EXPECT_EQ(jobs[0]["salary"]["min"], 78400);
  EXPECT_EQ(jobs[0]["salary"]["max"], 107800);
  EXPECT_EQ(jobs[0]["salary"]["type"], "YEARLY");
  EXPECT_EQ(jobs[0]["salary"]["text"], "$78,400 - $107,800 a year");
}

// The site's pages of no matches (May 2022): "The search Python Developer jobs in Indonesia did
// not match any jobs.", and for a place of another country's site "Find Python Developer jobs in
// "Indonesia" on id.indeed.com": an empty search, 200, no jobs.
TEST(IndeedListingInChromium, ASearchWithoutMatchesIsAnEmptyList) {
  for (const char* page : {"jobs/indeed-us-serp-no-matches-python-developer-indonesia-2022-05.html",
                           "jobs/indeed-us-serp-no-results-place-of-another-site-2022-05.html"}) {
    SCOPED_TRACE(page);
    TempReplayArchive archive;
    archive.add(testing::prefix_entry("https://www.indeed.com/jobs?",
                                      gleaner::testing::site_page("indeed", page)));
    auto result = run_in_chromium(listing_endpoint(), archive.load(),
                                  {{"keyword", "Python Developer"}, {"location", "Indonesia"}});
    EXPECT_EQ(result.body["jobs"], nlohmann::json::array());
    EXPECT_EQ(result.body["searchInformation"]["totalResults"], 0);
    EXPECT_FALSE(result.body["pagination"].contains("nextPage"));
  }
}

// Cloudflare's walls as other scrapers kept them: the hCaptcha "Please Wait... | Cloudflare" page
// (2022), "Just a moment..." (2023) and Indeed's "Security Check" page re-indented (2026).
TEST(IndeedListingInChromium, OtherCloudflareWallsAreUpstreamBlocked) {
  for (const char* wall : {"blocks/indeed-cloudflare-please-wait-hcaptcha-block-2022-09.html",
                           "blocks/indeed-cloudflare-just-a-moment-block-2023-01.html",
                           "blocks/indeed-security-check-prettified-block-2026-01.html"}) {
    SCOPED_TRACE(wall);
    TempReplayArchive archive;
    archive.add(testing::prefix_entry("https://www.indeed.com/jobs?",
                                      gleaner::testing::site_page("indeed", wall)));
    EXPECT_EQ(testing::error_in_chromium(listing_endpoint(), archive.load(),
                                         {{"keyword", "nurse"}, {"location", "Austin, TX"}})
                  .code(),
              ErrorCode::UpstreamBlocked);
  }
}

}  // namespace
}  // namespace gleaner::extract::indeed
