// GET /scrape/careers/job end to end in real Chromium: the endpoint loads the page the job URL
// names, answered from a replay archive with real search pages that carry the job they show
// beside the list (no saved /job-listing/ page has been found): the 2025 glassdoor.co.in page
// (its Apollo cache's JobView), and the App Router pages of glassdoor.fr (2025) and
// glassdoor.co.in (2026) (their server components' payload); job.js reads it, the C++ shapes it.
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

// The App Router pages (2025 on) stream the open job's details in their server components'
// payload, not in __NEXT_DATA__. glassdoor.fr, November 2025, in French: the first listing open,
// reached by the search page's own link to it (its search path in French).
TEST(GlassdoorJobInChromium, ConsultantManagerAtPwcOnGlassdoorFrance2025) {
  const std::string page =
      "https://www.glassdoor.fr/Emploi/"
      "neuilly-manager-conseil-hf-emplois-SRCH_IL.0,7_IC3041419_KO8,26.htm?jl=1009733330019";
  TempReplayArchive archive;
  archive.file(
      page,
      gleaner::testing::site_page(
          "glassdoor", "careers/glassdoor-fr-data-scientist-intern-paris-app-router-2025-11.html"));
  auto result =
      run_in_chromium(job_endpoint(), archive.load(), {{"url", page + "&srs=JV_APPLYPANE"}});
  const auto& job = result.body["job"];
  EXPECT_EQ(job["id"], "1009733330019");
  EXPECT_EQ(job["title"],
            "Consultant Manager en Modélisation et Risque de Marché | Banque | CDI | H/F");
  EXPECT_TRUE(job["url"].get<std::string>().starts_with(
      "https://www.glassdoor.fr/job-listing/consultant-manager-en-mod"));
  EXPECT_EQ(job["employer"]["name"], "PwC");
  EXPECT_EQ(job["employer"]["id"], "8450");
  EXPECT_EQ(job["employer"]["rating"], 3.7);  // the pane's "3,7"
  EXPECT_EQ(job["location"], "Neuilly");
  EXPECT_EQ(job["address"]["region"], "Île-de-France");
  EXPECT_EQ(job["address"]["country"], "France");
  EXPECT_EQ(job["address"]["latitude"], 48.883335);
  EXPECT_FALSE(job.contains("salary"));  // no pay shown
  EXPECT_EQ(job["datePosted"], "2025-10-06");
  EXPECT_EQ(job["ageInDays"], 179);  // the card's "30j+"
  EXPECT_EQ(job["easyApply"], false);
  // The skills the page lists, in French.
  EXPECT_EQ(job["skills"], (nlohmann::json{"Leadership", "Audit financier",
                                           "Compétences en communication", "Gestion des risques"}));
  EXPECT_TRUE(job["description"].get<std::string>().starts_with(
      "Job Description & Summary\nLes modèles de risques et de valeur"));
  EXPECT_TRUE(job["applyLink"].get<std::string>().starts_with(
      "https://www.glassdoor.fr/partner/jobListing.htm?pos=101"));
}

// glassdoor.co.in, July 2026: the details flattened (the header's fields in jobListingDetails,
// the job's in jobOverview); the pane names the employer by its profile's short name.
TEST(GlassdoorJobInChromium, JuniorQaEngineerInIndia2026) {
  const std::string page =
      "https://www.glassdoor.co.in/job-listing/"
      "junior-qa-engineer-itworks-infotech-JV_KO0,18_KE19,35.htm?jl=1010181278231";
  TempReplayArchive archive;
  archive.file(page,
               gleaner::testing::site_page(
                   "glassdoor",
                   "careers/glassdoor-co-in-software-qa-engineer-pune-app-router-2026-07.html"));
  auto result = run_in_chromium(job_endpoint(), archive.load(), {{"url", page}});
  const auto& job = result.body["job"];
  EXPECT_EQ(job["title"], "Junior QA Engineer");
  EXPECT_EQ(job["employer"]["name"], "ITWorks InfoTech");
  EXPECT_EQ(job["employer"]["rating"], 3.6);
  EXPECT_EQ(
      job["employer"]["url"],
      "https://www.glassdoor.co.in/Overview/Working-at-ITWorks-InfoTech-EI_IE2431219.11,27.htm");
  EXPECT_EQ(job["location"], "India");
  // "₹3L - ₹4L (Employer provided)"; the description's "Pay: ₹300,000.00 - ₹400,000.00 per year".
  EXPECT_EQ(job["salary"]["min"], 300000);
  EXPECT_EQ(job["salary"]["median"], 350000);
  EXPECT_EQ(job["salary"]["max"], 400000);
  EXPECT_EQ(job["salary"]["payCurrency"], "INR");
  EXPECT_EQ(job["salary"]["period"], "ANNUAL");
  EXPECT_EQ(job["salary"]["source"], "EMPLOYER_PROVIDED");
  EXPECT_EQ(job["jobTypes"], (nlohmann::json{"Full-time"}));
  EXPECT_EQ(job["datePosted"], "2026-06-27");
  EXPECT_EQ(job["ageInDays"], 6);  // the card's "6d"
  EXPECT_EQ(job["easyApply"], true);
  EXPECT_EQ(job["skills"][0], "Software testing");
  EXPECT_TRUE(job["description"].get<std::string>().starts_with(
      "QA Test Engineer (Manual) – 1 to 3 Years\nJob Description\nBalewadi, Pune"));
}

TEST(GlassdoorJobInChromium, AnotherJobOfAnAppRouterPageIsNotMixedIn) {
  const std::string page =
      "https://www.glassdoor.co.in/job-listing/"
      "qa-enginner-bmc-JV_KO0,11_KE12,24.htm?jl=1010183763816";
  TempReplayArchive archive;  // the second listing: not the open job
  archive.file(page,
               gleaner::testing::site_page(
                   "glassdoor",
                   "careers/glassdoor-co-in-software-qa-engineer-pune-app-router-2026-07.html"));
  EXPECT_EQ(error_in_chromium(job_endpoint(), archive.load(), {{"url", page}}).code(),
            ErrorCode::UpstreamError);
}

}  // namespace
}  // namespace gleaner::extract::glassdoor
