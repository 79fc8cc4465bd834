// GET /scrape/careers/job without a browser: the job URLs the site links (a job page, a search
// page with the job open), the page built from them, and the shaping of job.js's recorded output
// on the real 2025 glassdoor.co.in search page whose Apollo cache carries the open job's JobView.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::glassdoor {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& job() {
  return job_endpoint();
}
json athenahealth() {
  return testing::recorded("glassdoor/data/job/athenahealth-chennai_script_output.json");
}
ValidatedParams asked(const std::string& url) {
  return job().validate({{"url", url}});
}
const std::string kChennai =
    "https://www.glassdoor.co.in/Job/"
    "united-states-data-scientist-jobs-SRCH_IL.0,13_KO14,28.htm?jl=1009722062558";

TEST(GlassdoorJobParameters, JobUrlsOfEveryForm) {
  EXPECT_EQ(rejection(job(), {}), refused(ErrorCode::MissingParameter, "url"));
  for (const char* bad :
       {"https://www.glassdoor.com/job-listing/data-analyst-acme-JV_KO0,12_KE13,17.htm",
        "https://www.glassdoor.com/job-listing/x.htm?jl=abc",
        "https://www.glassdoor.com/partner/jobListing.htm?jobListingId=1009722062558",
        "https://www.glassdoor.com.evil.test/job-listing/x.htm?jl=1009722062558",
        "ftp://www.glassdoor.com/job-listing/x.htm?jl=1009722062558",
        "https://www.indeed.com/job-listing/x.htm?jl=1009722062558"}) {
    EXPECT_EQ(rejection(job(), {{"url", bad}}), refused(ErrorCode::InvalidParameter, "url")) << bad;
  }
  const std::pair<const char*, const char*> good[] = {
      {"https://www.glassdoor.com/job-listing/"
       "data-analyst-acme-JV_IC1147401_KO0,12_KE13,17.htm?jl=1009722062558&cs=1_abc&s=58",
       "https://www.glassdoor.com/job-listing/"
       "data-analyst-acme-JV_IC1147401_KO0,12_KE13,17.htm?jl=1009722062558"},
      {"https://glassdoor.co.uk/job-listing/nurse-nhs-JV_KO0,5_KE6,9.htm?jl=1009000000001",
       "https://www.glassdoor.co.uk/job-listing/nurse-nhs-JV_KO0,5_KE6,9.htm?jl=1009000000001"},
      {"https://fr.glassdoor.ch/job-listing/x.htm?src=GD_JOB_AD&jl=42",
       "https://fr.glassdoor.ch/job-listing/x.htm?jl=42"},
      {kChennai.c_str(), kChennai.c_str()},
      // The search page's own link to its open job on glassdoor.fr (`serpUrlForJobListing`):
      // the search path in French.
      {"https://www.glassdoor.fr/Emploi/"
       "neuilly-manager-conseil-hf-emplois-SRCH_IL.0,7_IC3041419_KO8,26.htm?jl=1009733330019"
       "&srs=JV_APPLYPANE",
       "https://www.glassdoor.fr/Emploi/"
       "neuilly-manager-conseil-hf-emplois-SRCH_IL.0,7_IC3041419_KO8,26.htm?jl=1009733330019"},
  };
  for (const auto& [url, page] : good) {
    EXPECT_EQ(job().build_request(asked(url)).url, page) << url;
  }
  EXPECT_EQ(job().build_request(asked(kChennai)).script_args["listingId"], "1009722062558");
  EXPECT_EQ(job().route(), "careers/job");
}

TEST(GlassdoorJobShape, PrincipalMemberOfTechnicalStaffInChennai) {
  const json b = job().shape(athenahealth(), asked(kChennai));
  const json& j = b["job"];
  EXPECT_EQ(j["id"], "1009722062558");
  EXPECT_EQ(j["title"], "Principal Member of technical Staff- AI & Data Engineering");
  EXPECT_TRUE(j["url"].get<std::string>().starts_with(
      "https://www.glassdoor.co.in/job-listing/principal-member-of-technical-staff-ai-d"));
  EXPECT_EQ(j["employer"]["name"], "Athenahealth");
  EXPECT_EQ(j["employer"]["id"], "18207");
  EXPECT_EQ(j["employer"]["shortName"], "athenahealth");
  EXPECT_EQ(j["employer"]["rating"], 4.1);
  EXPECT_EQ(j["employer"]["url"],
            "https://www.glassdoor.co.in/Overview/Working-at-athenahealth-EI_IE18207.11,23.htm");
  EXPECT_EQ(j["location"], "Chennai");
  EXPECT_EQ(j["address"], (json{{"country", "India"},
                                {"region", "Tamil Nadu"},
                                {"city", "Chennai"},
                                {"latitude", 13.05033},
                                {"longitude", 80.18859}}));
  EXPECT_EQ(j["salary"], (json{{"payCurrency", "INR"},
                               {"period", "ANNUAL"},
                               {"min", 458000},
                               {"median", 612082},
                               {"max", 818000},
                               {"source", "ESTIMATED"}}));
  EXPECT_EQ(j["requirements"]["educationRequirements"],
            (json{"Master's degree", "Bachelor's degree"}));
  EXPECT_EQ(j["requirements"]["experienceRequirements"], json::array());
  EXPECT_EQ(j["jobTypes"], (json{"Full-time"}));
  EXPECT_EQ(j["skills"][0], "CI/CD");
  EXPECT_EQ(j["datePosted"], "2025-05-25");
  EXPECT_EQ(j["ageInDays"], 44);
  EXPECT_EQ(j["expired"], false);
  EXPECT_EQ(j["easyApply"], false);
  EXPECT_TRUE(j["applyLink"].get<std::string>().starts_with(
      "https://www.glassdoor.co.in/partner/jobListing.htm?pos=101"));
  const std::string text = j["description"];
  EXPECT_TRUE(text.starts_with("Join us as we work to create a thriving ecosystem"))
      << text.substr(0, 80);
  EXPECT_EQ(j["descriptionHtml"].get<std::string>().find("<script"), std::string::npos);
  EXPECT_TRUE(job().has_content(b));
}

TEST(GlassdoorJobShape, AnotherJobANotFoundAndAPageWithoutData) {
  EXPECT_EQ(testing::error_of_shape(
                job(), athenahealth(),
                asked("https://www.glassdoor.co.in/job-listing/x.htm?jl=1009000000001")),
            ErrorCode::UpstreamError);
  EXPECT_EQ(testing::error_of_shape(
                job(), json{{"hasNextData", true}, {"found", false}, {"viewIds", json::array()}},
                asked(kChennai)),
            ErrorCode::NotFound);
  EXPECT_EQ(testing::error_of_shape(
                job(), json{{"hasNextData", false}, {"found", false}, {"viewIds", json::array()}},
                asked(kChennai)),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::glassdoor
