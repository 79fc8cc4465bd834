// GET /scrape/careers/listing end to end in real Chromium over replay archives of the real
// Glassdoor pages of the fixtures: the 2020 search page of the older layout (its Python bytes
// literal decoded into tests/sites/glassdoor/data/listing/, as the fixtures README says), the
// 2025 UK page with empty search results and the 2025 co.in search page with thirty results.
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

// The 2025 Next.js search page of glassdoor.co.in with results: the Apollo cache's thirty
// listings, as the cards show them.
TEST(GlassdoorListingInChromium, DataScientistJobsInIndia2025) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.glassdoor.co.in/Job/jobs.htm?",
      gleaner::testing::site_page(
          "glassdoor", "careers/glassdoor-co-in-data-scientist-jobs-india-2025-06.html")));
  auto result = run_in_chromium(
      listing_endpoint(), archive.load(),
      {{"keyword", "data scientist"}, {"location", "India"}, {"domain", "glassdoor.co.in"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 4030);  // "4,030 Data scientist jobs"
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 30u);
  EXPECT_EQ(jobs[0]["position"], 1);
  EXPECT_EQ(jobs[0]["jobId"], "1009722062558");
  EXPECT_EQ(jobs[0]["title"], "Principal Member of technical Staff- AI & Data Engineering");
  // The card's name, not the employer profile's legal name ("athenahealth, Inc.").
  EXPECT_EQ(jobs[0]["company"]["name"], "Athenahealth");
  EXPECT_EQ(jobs[0]["company"]["rating"], 4.1);
  EXPECT_EQ(jobs[0]["location"], "Chennai");
  // "₹5L - ₹8L (Glassdoor Est.)": the estimate's 10th and 90th percentiles.
  EXPECT_EQ(jobs[0]["salary"]["min"], 458000);
  EXPECT_EQ(jobs[0]["salary"]["max"], 818000);
  EXPECT_EQ(jobs[0]["salary"]["currency"], "INR");
  EXPECT_EQ(jobs[0]["salary"]["period"], "year");
  EXPECT_EQ(jobs[0]["ageInDays"], 44);  // the card: "30d+"
  EXPECT_TRUE(jobs[0]["link"].get<std::string>().starts_with(
      "https://www.glassdoor.co.in/partner/jobListing.htm?pos=101"));
  EXPECT_EQ(jobs[1]["company"]["name"], "Expedia Group");
  EXPECT_EQ(jobs[1]["location"], "Gurgaon");
  EXPECT_FALSE(jobs[2].contains("salary"));  // no pay estimate on the card
  // An employer without ratings: no rating shown, none answered; an Easy Apply listing.
  EXPECT_EQ(jobs[4]["company"]["name"], "Rashmi Metaliks Limited");
  EXPECT_FALSE(jobs[4]["company"].contains("rating"));
  EXPECT_EQ(jobs[4]["easyApply"], true);
  EXPECT_TRUE(b["pagination"].contains("nextPageToken"));
}

// Glassdoor's Cloudflare walls: "Security | Glassdoor" (2024, "Help Us Protect Glassdoor") and
// "Just a moment..." (2026, "Humans only"), each a 502 upstream_blocked.
TEST(GlassdoorListingInChromium, CloudflareWallsAreUpstreamBlocked) {
  for (const char* wall : {"blocks/glassdoor-security-cloudflare-challenge-block-2024-09.html",
                           "blocks/glassdoor-just-a-moment-humans-only-block-2026-07.html"}) {
    SCOPED_TRACE(wall);
    TempReplayArchive archive;
    archive.add(prefix_entry("https://www.glassdoor.com/Job/jobs.htm?",
                             gleaner::testing::site_page("glassdoor", wall)));
    EXPECT_EQ(testing::error_in_chromium(listing_endpoint(), archive.load(),
                                         {{"keyword", "nurse"}, {"location", "Boston"}})
                  .code(),
              ErrorCode::UpstreamBlocked);
  }
}

// The App Router search pages (2025 on): the listings in the server components' payload, not in
// __NEXT_DATA__. glassdoor.fr, November 2025, in French: "266 emploi(s) pour Data scientist
// intern, Paris, Île-de-France".
TEST(GlassdoorListingInChromium, DataScientistInternsInParis2025) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.glassdoor.fr/Job/jobs.htm?",
      gleaner::testing::site_page(
          "glassdoor",
          "careers/glassdoor-fr-data-scientist-intern-paris-app-router-2025-11.html")));
  auto result = run_in_chromium(
      listing_endpoint(), archive.load(),
      {{"keyword", "data scientist intern"}, {"location", "Paris"}, {"domain", "glassdoor.fr"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 266);
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 30u);
  EXPECT_EQ(jobs[0]["jobId"], "1009733330019");
  EXPECT_EQ(jobs[0]["title"],
            "Consultant Manager en Modélisation et Risque de Marché | Banque | CDI | H/F");
  EXPECT_EQ(jobs[0]["company"]["name"], "PwC");
  EXPECT_EQ(jobs[0]["company"]["rating"], 3.7);  // "3,7"
  EXPECT_EQ(jobs[0]["location"], "Neuilly");
  EXPECT_EQ(jobs[0]["ageInDays"], 179);  // "30j+"
  EXPECT_TRUE(jobs[0]["link"].get<std::string>().starts_with(
      "https://www.glassdoor.fr/partner/jobListing.htm?pos=101"));
  EXPECT_EQ(jobs[1]["company"]["name"], "Withings");
  EXPECT_EQ(jobs[1]["company"]["rating"], 3.3);
  EXPECT_EQ(jobs[1]["location"], "Issy-les-Moulineaux");
  EXPECT_EQ(jobs[1]["easyApply"], true);
  // "45 k € - 50 k € (fourni par l’employeur)"; an employer without ratings.
  EXPECT_EQ(jobs[10]["company"]["name"], "Réassurez-moi");
  EXPECT_FALSE(jobs[10]["company"].contains("rating"));
  EXPECT_EQ(jobs[10]["salary"]["min"], 45000);
  EXPECT_EQ(jobs[10]["salary"]["max"], 50000);
  EXPECT_EQ(jobs[10]["salary"]["currency"], "EUR");
  EXPECT_EQ(jobs[10]["salary"]["period"], "year");
  EXPECT_EQ(jobs[10]["ageInDays"], 9);  // "9j"
  EXPECT_TRUE(b["pagination"].contains("nextPageToken"));
}

// glassdoor.co.in, July 2026: "213 Software qa engineer jobs in Pune"; the cards name employers
// with a profile by its short name ("ITWorks InfoTech", listed as "Infotech.Works").
TEST(GlassdoorListingInChromium, SoftwareQaEngineersInPune2026) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.glassdoor.co.in/Job/jobs.htm?",
      gleaner::testing::site_page(
          "glassdoor",
          "careers/glassdoor-co-in-software-qa-engineer-pune-app-router-2026-07.html")));
  auto result = run_in_chromium(
      listing_endpoint(), archive.load(),
      {{"keyword", "software qa engineer"}, {"location", "Pune"}, {"domain", "glassdoor.co.in"}});
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["totalResults"], 213);
  const auto& jobs = b["jobs"];
  ASSERT_EQ(jobs.size(), 30u);
  EXPECT_EQ(jobs[0]["title"], "Junior QA Engineer");
  EXPECT_EQ(jobs[0]["company"]["name"], "ITWorks InfoTech");
  EXPECT_EQ(jobs[0]["company"]["rating"], 3.5);
  EXPECT_EQ(jobs[0]["location"], "India");
  // "₹3L - ₹4L (Employer provided)".
  EXPECT_EQ(jobs[0]["salary"]["min"], 300000);
  EXPECT_EQ(jobs[0]["salary"]["max"], 400000);
  EXPECT_EQ(jobs[0]["salary"]["currency"], "INR");
  EXPECT_EQ(jobs[0]["ageInDays"], 6);  // "6d"
  EXPECT_EQ(jobs[0]["easyApply"], true);
  EXPECT_EQ(jobs[3]["company"]["name"], "Checkmarx");
  EXPECT_EQ(jobs[3]["location"], "Pune");
  // An employer without a profile: the listing's name, no rating.
  EXPECT_EQ(jobs[4]["company"]["name"], "SamvadSocial Technologies Pvt Ltd");
  EXPECT_FALSE(jobs[4]["company"].contains("rating"));
  EXPECT_EQ(jobs[5]["company"]["name"], "hubEngage");
  EXPECT_TRUE(b["pagination"].contains("nextPageToken"));
}

}  // namespace
}  // namespace gleaner::extract::glassdoor
