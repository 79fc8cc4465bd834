// GET /scrape/jobs/job without a browser: job URLs in every form the site links them, the job
// page built from them, and the shaping of job.js's recorded output on two real Indeed search
// pages that carry the open job's view model (Portland 2026, Savannah 2025), plus the scrapfly
// extract's view model (jobInfoHeaderModel fields, unchanged) given in the script's shape.
#include "extract/sites/indeed/job.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/pages.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::indeed {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& job() {
  return job_endpoint();
}
json portland() {
  return testing::recorded("indeed/data/job/portland_script_output.json");
}
json savannah() {
  return testing::recorded("indeed/data/job/savannah_script_output.json");
}

ValidatedParams asked(const std::string& url) {
  return job().validate({{"url", url}});
}

TEST(IndeedJobParameters, JobUrlsOfEveryForm) {
  EXPECT_EQ(rejection(job(), {}), refused(ErrorCode::MissingParameter, "url"));
  for (const char* bad :
       {"https://www.indeed.com/jobs?q=x", "https://www.indeed.com/viewjob?jk=xyz",
        "https://www.indeed.com.evil.test/viewjob?jk=29dd4196cccd7eaf",
        "ftp://www.indeed.com/viewjob?jk=29dd4196cccd7eaf",
        "https://www.glassdoor.com/viewjob?jk=29dd4196cccd7eaf"}) {
    EXPECT_EQ(rejection(job(), {{"url", bad}}), refused(ErrorCode::InvalidParameter, "url")) << bad;
  }
  const std::pair<const char*, const char*> good[] = {
      {"https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf",
       "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf"},
      {"https://indeed.com/m/viewjob?jk=29dd4196cccd7eaf&from=serp",
       "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf"},
      {"https://www.indeed.com/rc/clk?jk=29dd4196cccd7eaf&fccid=x&vjs=3",
       "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf"},
      {"https://uk.indeed.com/jobs?q=analyst&l=London&vjk=0bb0c82f1ebd7121",
       "https://uk.indeed.com/viewjob?jk=0bb0c82f1ebd7121"},
      {"https://www.indeed.de/viewjob?jk=0bb0c82f1ebd7121",
       "https://www.indeed.de/viewjob?jk=0bb0c82f1ebd7121"},
      {"https://www.indeed.com/m/basecamp/viewjob?viewtype=embedded&jk=0bb0c82f1ebd7121",
       "https://www.indeed.com/viewjob?jk=0bb0c82f1ebd7121"},
  };
  for (const auto& [url, page] : good) {
    EXPECT_EQ(job().build_request(asked(url)).url, page) << url;
  }
  EXPECT_EQ(job().build_request(asked(good[0].first)).script_args["jobKey"], "29dd4196cccd7eaf");
  EXPECT_EQ(job().route(), "jobs/job");
}

TEST(IndeedJobShape, ResearchDataAnalystInPortland) {
  const json b =
      job().shape(portland(), asked("https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf"));
  const json& j = b["job"];
  EXPECT_EQ(j["jobKey"], "29dd4196cccd7eaf");
  EXPECT_EQ(j["title"], "Research Data Analyst 1");
  EXPECT_EQ(j["link"], "https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf");
  EXPECT_EQ(j["company"]["name"], "Oregon Health & Science University");
  EXPECT_EQ(j["company"]["link"], "https://www.indeed.com/cmp/Oregon-Health-&-Science-University");
  EXPECT_EQ(j["company"]["rating"], 3.8);
  EXPECT_EQ(j["company"]["reviews"], 924);
  EXPECT_EQ(j["location"], "Portland, OR 97239");
  EXPECT_EQ(j["remote"], false);
  EXPECT_EQ(j["jobTypes"], (json{"Part-time"}));
  EXPECT_EQ(j["salary"], (json{{"text", "$27.85 - $41.77 an hour"},
                               {"min", 27.85},
                               {"max", 41.77},
                               {"currency", "USD"},
                               {"period", "hour"}}));
  EXPECT_EQ(j["postedAt"], "2026-02-19T06:00:00Z");
  EXPECT_EQ(j["expired"], false);
  EXPECT_EQ(j["address"], "3181 SW Sam Jackson Park Rd, Portland, OR 97239");
  EXPECT_EQ(j["coordinates"]["latitude"], 45.501118);
  const std::string text = j["description"];
  EXPECT_TRUE(text.starts_with("Function/Duties of Position:")) << text.substr(0, 80);
  EXPECT_NE(text.find("Oregon Center for Aging & Technology (ORCATECH)"), std::string::npos);
  const std::string html = j["descriptionHtml"];
  EXPECT_TRUE(html.starts_with("<div>")) << html.substr(0, 40);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_TRUE(job().has_content(b));
}

TEST(IndeedJobShape, LaboratoryAnalystInSavannahWithBenefitsAndNoSalary) {
  const json b =
      job().shape(savannah(), asked("https://www.indeed.com/viewjob?jk=0bb0c82f1ebd7121"));
  const json& j = b["job"];
  EXPECT_EQ(j["title"], "Laboratory Analyst");
  EXPECT_EQ(j["company"]["name"], "US Sugar Savannah Refinery");
  EXPECT_FALSE(j["company"].contains("rating"));  // the page shows none
  EXPECT_EQ(j["location"], "Port Wentworth, GA 31407");
  EXPECT_EQ(j["jobTypes"], (json{"Full-time"}));
  EXPECT_FALSE(j.contains("salary"));
  ASSERT_EQ(j["benefits"].size(), 12u);
  EXPECT_EQ(j["benefits"][0], "401(k)");
  EXPECT_EQ(j["benefits"][11], "Vision insurance");
  EXPECT_TRUE(j["description"].get<std::string>().starts_with("SUMMARY"));
}

TEST(IndeedJobShape, AnotherJobANotFoundAndABlock) {
  EXPECT_EQ(testing::error_of_shape(job(), portland(),
                                    asked("https://www.indeed.com/viewjob?jk=0123456789abcdef")),
            ErrorCode::UpstreamError);
  EXPECT_EQ(testing::error_of_shape(job(), json{{"siteData", true}},
                                    asked("https://www.indeed.com/viewjob?jk=0123456789abcdef")),
            ErrorCode::NotFound);
  EXPECT_EQ(testing::error_of_shape(job(), json{{"siteData", false}},
                                    asked("https://www.indeed.com/viewjob?jk=0123456789abcdef")),
            ErrorCode::ExtractionFailed);
}

TEST(IndeedJobShape, AnExpiredJobSaysSo) {
  json out = portland();
  out["record"]["expired"] = true;
  EXPECT_EQ(job().shape(
                out, asked("https://www.indeed.com/viewjob?jk=29dd4196cccd7eaf"))["job"]["expired"],
            true);
}

TEST(IndeedJobShape, TheScrapflyExtractsViewModel) {
  // jobInfoHeaderModel fields of a job page, unchanged in the extract; its description HTML.
  const json items = testing::read_json_file(gleaner::testing::site_page(
      "indeed", "jobs/scrapfly-indeed-viewjob-initialdata-jobinfomodel-extract-2025-08.json"));
  json header = items[0];
  const json out = {{"siteData", true},
                    {"header", header},
                    {"metadata", {{"jobType", items[0]["jobType"]}}},
                    {"description", "x"},
                    {"descriptionHtml", items[0]["description"]}};
  const json b = job().shape(out, asked("https://www.indeed.com/viewjob?jk=0123456789abcdef"));
  EXPECT_EQ(b["job"]["title"], items[0]["jobTitle"]);
  EXPECT_EQ(b["job"]["company"]["name"], items[0]["companyName"]);
  EXPECT_FALSE(b["job"]["title"].get<std::string>().empty());
}

}  // namespace
}  // namespace gleaner::extract::indeed
