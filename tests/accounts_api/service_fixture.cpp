#include "tests/accounts_api/service_fixture.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <sstream>

namespace gleaner::testing {
namespace {

const std::string kNewsFixture = std::string(GLEANER_FIXTURES_DIR) +
                                 "/pages/news/monument-watch_rss_search_bears-ears-monument_enUS.xml";
constexpr const char* kEdition = "&hl=en-US&gl=US&ceid=US:en";

std::string search_url(const std::string& q) {
  return "https://news.google.com/rss/search?q=" + q + kEdition;
}

/// A page whose parser is held by a script for `ms`, so its load event comes that late; then a
/// feed without items (an empty answer, not a block page).
std::string busy_page(int ms) {
  return "<!doctype html><html><head><title>slow feed</title><script>"
         "const until = Date.now() + " + std::to_string(ms) + "; while (Date.now() < until) {}"
         "</script></head><body><rss><channel><title>feed</title></channel></rss>"
         "<p>A feed that took a while to come.</p></body></html>";
}

std::mutex shared_mutex;  // guards shared_archive_ptr, shared_dir_ptr, shared_service_ptr
std::unique_ptr<TempReplayArchive> shared_archive_ptr;
std::unique_ptr<TempDir> shared_dir_ptr;
std::unique_ptr<ServiceUnderTest> shared_service_ptr;

/// Shuts the shared service down after the last test, before the process exits.
class SharedServiceEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    std::lock_guard lock(shared_mutex);
    shared_service_ptr.reset();
    shared_dir_ptr.reset();
    shared_archive_ptr.reset();
  }
};
[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new SharedServiceEnvironment);

TempReplayArchive& archive_locked() {
  if (!shared_archive_ptr) {
    shared_archive_ptr = std::make_unique<TempReplayArchive>();
    add_news_pages(*shared_archive_ptr);
  }
  return *shared_archive_ptr;
}

}  // namespace

void add_news_pages(TempReplayArchive& archive) {
  archive.file(search_url("%22Bears+Ears%22+monument"), kNewsFixture);
  archive.page(search_url("blocked"),
               "<!doctype html><html><body><h1>Before you continue</h1>"
               "<p>We use cookies and data to deliver our services.</p></body></html>");
  TempReplayArchive::Entry broken;
  broken.url = search_url("broken");
  broken.body = "<html><body>Server Error</body></html>";
  broken.status = 500;
  archive.add(broken);
  TempReplayArchive::Entry missing;
  missing.url = search_url("missing");
  missing.body = "<html><body>Not Found</body></html>";
  missing.status = 404;
  archive.add(missing);
  // The page's own script breaks the lookup news.js starts with.
  archive.page(search_url("scriptfails"),
               "<!doctype html><html><head><script>"
               "const original = document.getElementsByTagName.bind(document);"
               "document.getElementsByTagName = (tag) => {"
               "  if (tag === 'rss') throw new Error('scripted failure');"
               "  return original(tag); };"
               "</script></head><body><rss><channel></channel></rss>"
               "<p>A feed whose own script gets in the way.</p></body></html>");
  archive.page(search_url("slow"), busy_page(3000));
  archive.page(search_url("hang"), busy_page(60000));
  archive.load();  // writes index.json
}

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/gleaner-acct-XXXXXX";
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
  config.set("node_id", "accounts-api-test");
  config.set("host", "127.0.0.1");
  config.set("port", 0);
  config.set("http_threads", 64);
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

ServiceUnderTest& shared_service() {
  std::lock_guard lock(shared_mutex);
  if (!shared_service_ptr) {
    TempReplayArchive& archive = archive_locked();
    shared_dir_ptr = std::make_unique<TempDir>();
    shared_service_ptr = std::make_unique<ServiceUnderTest>(
        service_config(shared_dir_ptr->path(), archive.dir()));
  }
  return *shared_service_ptr;
}

TempReplayArchive& shared_archive() {
  std::lock_guard lock(shared_mutex);
  return archive_locked();
}

nlohmann::json json_of(const httplib::Result& r) {
  if (!r) return nullptr;
  return nlohmann::json::parse(r->body, nullptr, false);
}

}  // namespace gleaner::testing
