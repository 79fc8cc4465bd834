#pragma once
// Helpers for the site suites that run endpoints in real Chromium over a replay archive.
#include "core/error.h"
#include "extract/endpoint.h"
#include "extract/pool_tabs.h"
#include "tests/support/answer_log.h"
#include "tests/support/chromium.h"
#include "tests/support/replay_archive.h"

#include <gtest/gtest.h>

#include <memory>

namespace gleaner::extract::testing {

/// Runs `endpoint` on `query` in the shared pool, every request answered by `archive`; the
/// answer is recorded for the OpenAPI check (answer_log.h).
inline EndpointResult run_in_chromium(const Endpoint& endpoint,
                                      const std::shared_ptr<browser::ReplayArchive>& archive,
                                      const QueryParams& query) {
  PoolTabs tabs(gleaner::testing::shared_pool(), {archive});
  return gleaner::testing::fetch_recorded(endpoint, tabs, query);
}

/// The error `endpoint` fails with on `query`; a test failure when it succeeds.
inline Error error_in_chromium(const Endpoint& endpoint,
                               const std::shared_ptr<browser::ReplayArchive>& archive,
                               const QueryParams& query) {
  try {
    run_in_chromium(endpoint, archive, query);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the request succeeded";
  return Error(ErrorCode::Internal, "succeeded");
}

/// An archive entry answering every URL that starts with `url_prefix` with the file `source`.
inline gleaner::testing::TempReplayArchive::Entry prefix_entry(std::string url_prefix,
                                                               std::string source) {
  gleaner::testing::TempReplayArchive::Entry entry;
  entry.match = "prefix";
  entry.url = std::move(url_prefix);
  entry.source = std::move(source);
  return entry;
}

/// The URLs starting with `prefix` the browser asked the archive for, in order (a page's own
/// sub-resources are asked for too; the prefix keeps the pages).
inline std::vector<std::string> requested(const browser::ReplayArchive& archive,
                                          const std::string& prefix = "") {
  std::vector<std::string> urls;
  for (const auto& r : archive.requests()) {
    if (r.url.starts_with(prefix)) urls.push_back(r.url);
  }
  return urls;
}

}  // namespace gleaner::extract::testing
