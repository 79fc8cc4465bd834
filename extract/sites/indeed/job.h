#pragma once
// GET /scrape/jobs/job: one Indeed vacancy. job.js returns the job's view model the page is
// rendered from (`window._initialData`: `jobInfoWrapperModel` on a job page, the same model under
// `autoOpenTwoPaneViewjobResponse.body` on a search page with the job open beside the list), the
// job's GraphQL record, and the JSON-LD JobPosting; this shapes them.
#include <optional>
#include <string>

#include "extract/endpoint.h"

namespace gleaner::extract::indeed {

/// The job endpoint (registered by extract/sites/indeed/CMakeLists.txt).
const Endpoint& job_endpoint();

/// What a job URL of the site names: its host (the country's site) and the job key.
struct JobUrl {
  std::string host;
  std::string job_key;
};

/// Reads `/viewjob?jk=`, `/m/viewjob?jk=`, `/rc/clk?jk=`, `/pagead/clk?jk=` and search URLs that
/// carry the open job as `vjk=`, on indeed.com, its country sites (`uk.indeed.com`) and the
/// country domains (`indeed.co.uk`, `indeed.de`, ...); nullopt for anything else.
std::optional<JobUrl> parse_job_url(const std::string& url);

}  // namespace gleaner::extract::indeed
