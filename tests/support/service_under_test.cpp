#include "tests/support/service_under_test.h"

#include "tests/support/answer_log.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace gleaner::testing {

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/gleaner-test-XXXXXX";
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

Config service_config(const std::string& dir, const std::string& replay_dir) {
  // The environment first, so a run can point chromium_path elsewhere; the test's own entries win.
  Config config = Config::from_environment();
  config.set("store", "sqlite:" + dir + "/gleaner.db");
  config.set("node_id", "service-under-test");
  config.set("host", "127.0.0.1");
  config.set("port", 0);
  config.set("http_threads", 64);
  // Every test client connects from 127.0.0.1, fifty at once in the credit tests.
  config.set("connections_per_address", 256);
  config.set("max_body_bytes", 4096);
  config.set("browser_processes", 1);
  config.set("pages_per_process", 4);
  config.set("lease_wait_ms", kMaxWait.count());
  config.set("replay_dir", replay_dir);
  config.set("chromium_flags", nlohmann::json::array({kLoopbackOnlyFlag}));
  // Generous: 20 feeds queue on 4 pages of a machine that may be busy. Tests of the budget
  // itself run a service of their own with a short one.
  config.set("endpoint_timeout_ms", 60000);
  config.set("queue_size", 50);
  config.set("account_concurrency", 10);
  // Jobs at the requests' CPU priority: the tests run beside other test binaries, at theirs, and
  // a niced job would wait behind them (PageWorkerTest checks the nice itself).
  config.set("jobs_nice", 0);
  return config;
}

ServiceUnderTest::ServiceUnderTest(Config config)
    : service_(std::make_unique<api::Service>(std::move(config))) {
  port_ = service_->bind();
  thread_ = std::thread([this] { service_->run(); });
}

ServiceUnderTest::~ServiceUnderTest() {
  service_->shutdown(Millis(0));
  if (thread_.joinable()) thread_.join();
}

std::unique_ptr<httplib::Client> ServiceUnderTest::client() const {
  auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(kMaxWait).count();
  c->set_read_timeout(static_cast<time_t>(seconds), 0);
  c->set_write_timeout(static_cast<time_t>(seconds), 0);
  record_answers(*c);
  return c;
}

ServiceUnderTest::NewAccount ServiceUnderTest::create_account(
    std::int64_t credits, std::optional<std::int64_t> concurrency) {
  static std::atomic<int> counter{0};
  store::NewAccount account;
  account.name = "test-" + std::to_string(++counter);
  account.allowance = credits;
  account.concurrency_limit = concurrency;
  auto created = store().create_account(account);
  return {created.account.id, created.key.key};
}

httplib::Result ServiceUnderTest::get(const std::string& path, const std::string& key) const {
  httplib::Headers headers;
  if (!key.empty()) headers.emplace("x-api-key", key);
  return client()->Get(path.c_str(), headers);
}

double ServiceUnderTest::metric(const std::string& series) const {
  auto r = client()->Get("/metrics");
  if (!r || r->status != 200) return 0;
  std::istringstream in(r->body);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 &&
        line[series.size()] == ' ') {
      return std::stod(line.substr(series.size() + 1));
    }
  }
  return 0;
}

bool ServiceUnderTest::eventually(const std::function<bool()>& condition, Millis budget) {
  const Deadline end = deadline_in(budget);
  while (!condition()) {
    if (SteadyClock::now() > end) return false;
    std::this_thread::sleep_for(Millis(20));  // polling pace, not an assertion
  }
  return true;
}

nlohmann::json json_of(const httplib::Result& r) {
  if (!r) return nullptr;
  return nlohmann::json::parse(r->body, nullptr, false);
}

}  // namespace gleaner::testing
