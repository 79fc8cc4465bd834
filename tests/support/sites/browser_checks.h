#pragma once
// Helpers for the site suites that run endpoints in real Chromium over a replay archive.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "extract/endpoint.h"
#include "extract/pool_tabs.h"
#include "tests/support/answer_log.h"
#include "tests/support/chromium.h"
#include "tests/support/replay_archive.h"

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

/// A site that walls a client once: the first request for a URL starting with `url_prefix` is
/// answered with the page in file `wall` (a real block page, tests/sites/*/pages/blocks/) and
/// `status`; every other request is left to the next interceptor (the archive). Put before the
/// archive, it shows the plain road's wall and the browser road's answer after it.
class WallOnce final : public browser::Interceptor {
 public:
  WallOnce(std::string url_prefix, const std::string& wall, int status)
      : prefix_(std::move(url_prefix)), status_(status) {
    std::ifstream in(wall, std::ios::binary);
    std::stringstream body;
    body << in.rdbuf();
    body_ = body.str();
  }
  std::optional<browser::Decision> decide(const browser::InterceptedRequest& request) override {
    if (!request.url.starts_with(prefix_) || walled_.exchange(1) != 0) return std::nullopt;
    return browser::Fulfill{status_, {{"Content-Type", "text/html; charset=utf-8"}}, body_};
  }
  /// Whether the wall was served.
  bool walled() const { return walled_ != 0; }

 private:
  const std::string prefix_;
  const int status_;
  std::string body_;
  std::atomic<int> walled_{0};
};

/// Runs `endpoint` on `query` in the shared pool, every request answered by `interceptors` in
/// their order (the last an archive); recorded as run_in_chromium() records.
inline EndpointResult run_with(const Endpoint& endpoint,
                               std::vector<std::shared_ptr<browser::Interceptor>> interceptors,
                               const QueryParams& query) {
  PoolTabs tabs(gleaner::testing::shared_pool(), std::move(interceptors));
  return gleaner::testing::fetch_recorded(endpoint, tabs, query);
}

/// The URLs starting with `prefix` the browser (or the plain road) asked the archive for, in order
/// (a page's own sub-resources are asked for too; the prefix keeps the pages).
inline std::vector<std::string> requested(const browser::ReplayArchive& archive,
                                          const std::string& prefix = "") {
  std::vector<std::string> urls;
  for (const auto& r : archive.requests()) {
    if (r.url.starts_with(prefix)) urls.push_back(r.url);
  }
  return urls;
}

}  // namespace gleaner::extract::testing
