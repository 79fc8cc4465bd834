#pragma once
// A whole gleaner service on 127.0.0.1 port 0 for loopback tests: its own SQLite store in a
// temporary directory, one Chromium (browser_processes 1) answering from a replay archive, the
// HTTP server on its own thread. Plus the replay archive every test of this suite uses, and small
// HTTP helpers.
#include "api/service.h"
#include "store/store.h"
#include "tests/support/chromium.h"
#include "tests/support/replay_archive.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace gleaner::testing {

/// Requests of the archive below, as query strings of GET /scrape/search/news.
namespace news {
/// The fixture feed (92 items): a 200, charged 10 credits.
inline constexpr const char* kFeed = "q=%22Bears%20Ears%22%20monument";
/// An HTML page where the feed should be: 502 upstream_blocked.
inline constexpr const char* kBlocked = "q=blocked";
/// HTTP 500 from the site: 502 upstream_error.
inline constexpr const char* kBroken = "q=broken";
/// HTTP 404 from the site: 404 not_found.
inline constexpr const char* kMissing = "q=missing";
/// A page on which the in-page script throws: 500 internal.
inline constexpr const char* kScriptFails = "q=scriptfails";
/// A page whose load takes about 3 s (a busy script), then an empty feed: a slow 200.
inline constexpr const char* kSlow = "q=slow";
/// A page whose load takes 60 s (a busy script): times out (504) at a short budget. It keeps
/// its renderer busy, so only services that end with the test load it.
inline constexpr const char* kHang = "q=hang";
}  // namespace news

/// Writes the archive for the requests above into `archive`.
void add_news_pages(TempReplayArchive& archive);

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

/// The configuration the suite's services start from: store in `dir`, port 0 on loopback, one
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

  /// A client of the service whose reads wait up to kMaxWait.
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

/// The suite's shared service (one Chromium for the whole binary), made on first use and shut
/// down after the last test; and its replay archive.
ServiceUnderTest& shared_service();
TempReplayArchive& shared_archive();

/// The parsed JSON body of a response.
nlohmann::json json_of(const httplib::Result& r);

}  // namespace gleaner::testing
