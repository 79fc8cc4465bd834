#pragma once
// Administration without any HTTP exposure: the service binary's `accounts`, `keys`, `credits`
// and `jobs` commands work on the configured store directly, whether or not the service runs
// (docs/store.md lists them).
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/config.h"
#include "store/jobs_store.h"
#include "store/store.h"

namespace gleaner::store {

/// What the `jobs` commands work on: the job tables, and the body of a job's
/// scraper.job.finished event (jobs/job_request.h webhook_body, which lives above store/).
struct JobsAdmin {
  JobStore& jobs;
  std::function<std::optional<std::string>(const Job&)> finished_body;
};

/// Runs one admin command; `args` start at the command's first word, e.g.
/// {"accounts", "create", "--name", "acme", "--credits", "5000"}. Output goes to `out`, errors
/// to `err`. Returns the process exit status: 0 done, 1 the store refused (unknown account,
/// ambiguous prefix, ...), 2 a usage error (the usage text is printed to `err`).
/// `accounts create` and `keys create` print the new API key alone on their last line.
/// The `jobs` commands need `jobs` (a usage error without it).
int run_admin_command(const std::vector<std::string>& args, Store& store, std::ostream& out,
                      std::ostream& err, JobsAdmin* jobs = nullptr);

/// The admin commands' usage text.
std::string admin_usage();

/// On the first start with an empty store: creates account "default" with configuration entry
/// `default_credits` (default 10000) per `default_period_days` (default 30) and prints its key
/// once to `out`. Does nothing (returns false) if the store ever had an account, even when
/// several nodes start together.
bool bootstrap_first_account(Store& store, const Config& config, std::ostream& out);

}  // namespace gleaner::store
