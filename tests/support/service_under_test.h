#pragma once
// A whole gleaner service on 127.0.0.1 port 0 for loopback tests: its own SQLite store in a
// temporary directory, one Chromium (browser_processes 1) kept off the network, answering from a
// replay archive or through the egress gateway, the HTTP server on its own thread. Plus small
// HTTP helpers. Used by every suite that tests over HTTP (accounts_api, web, jobs).
#include <httplib.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "api/service.h"
#include "store/store.h"
#include "tests/support/chromium.h"

namespace gleaner::testing {

/// A temporary directory, removed with everything in it when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The configuration a test's services start from: store in `dir`, port 0 on loopback, one
/// Chromium kept off the network, `replay_dir`, a budget of 60 s.
Config service_config(const std::string& dir, const std::string& replay_dir);

class ServiceUnderTest {
 public:
  /// Builds the service from `config` and serves it on a thread.
  explicit ServiceUnderTest(Config config);
  /// Shuts the service down and joins its thread.
  ~ServiceUnderTest();
  ServiceUnderTest(const ServiceUnderTest&) = delete;
  ServiceUnderTest& operator=(const ServiceUnderTest&) = delete;

  api::Service& service() { return *service_; }
  api::Dependencies& deps() { return service_->dependencies(); }
  store::Store& store() { return *deps().store; }
  int port() const { return port_; }

  /// A client of the service whose reads wait up to kMaxWait; its JSON answers are recorded for
  /// the OpenAPI check (answer_log.h).
  std::unique_ptr<httplib::Client> client() const;

  /// A new account with `credits` per period and its own concurrency limit; returns its id and
  /// API key.
  struct NewAccount {
    std::int64_t id = 0;
    std::string key;
  };
  NewAccount create_account(std::int64_t credits, std::optional<std::int64_t> concurrency = {});

  /// GET `path` with `key` (none when empty).
  httplib::Result get(const std::string& path, const std::string& key) const;

  /// A number from GET /metrics: the sample whose line starts with `series` (name and labels),
  /// 0 when absent.
  double metric(const std::string& series) const;

  /// Waits (at most `budget`) until `condition` holds; false if it never did.
  static bool eventually(const std::function<bool()>& condition, Millis budget = kMaxWait);

 private:
  std::unique_ptr<api::Service> service_;
  int port_ = 0;
  // Declared last: runs service_->run() until the destructor shuts the service down.
  std::thread thread_;
};

/// The parsed JSON body of a response.
nlohmann::json json_of(const httplib::Result& r);

}  // namespace gleaner::testing
