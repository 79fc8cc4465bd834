#include "tests/accounts_api/service_fixture.h"

#include <gtest/gtest.h>

#include <mutex>

#include "tests/support/pages.h"

namespace gleaner::testing {
namespace {

const std::string kNewsFixture = gleaner::testing::site_page(
    "google", "news/monument-watch_rss_search_bears-ears-monument_enUS.xml");
constexpr const char* kEdition = "&hl=en-US&gl=US&ceid=US:en";

std::string search_url(const std::string& q) {
  return "https://news.google.com/rss/search?q=" + q + kEdition;
}

/// A page whose parser is held by a script for `ms`, so its load event comes that late; then a
/// feed without items (an empty answer, not a block page).
std::string busy_page(int ms) {
  return "<!doctype html><html><head><title>slow feed</title><script>"
         "const until = Date.now() + " +
         std::to_string(ms) +
         "; while (Date.now() < until) {}"
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
               // The words of Google's consent wall (consent.google.com): its heading and the
               // buttons the block check knows it by.
               "<!doctype html><html><body><h1>Before you continue to Google</h1>"
               "<p>We use cookies and data to deliver and maintain Google services.</p>"
               "<button>Reject all</button><button>Accept all</button></body></html>");
  archive.page(search_url("nofeed"),
               "<!doctype html><html><head><title>News</title></head><body><main><h1>News</h1>"
               "<p>Top stories, world, business, technology, entertainment, sports and health, in "
               "one place for you to read.</p></main></body></html>");
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
  // The feed's own script (XHTML scripts run in XML documents) breaks the lookup news.js starts
  // with, in the page's world only.
  TempReplayArchive::Entry tampered;
  tampered.url = search_url("tampered");
  tampered.file_name = "tampered.xml";
  tampered.body =
      "<?xml version='1.0'?><rss version='2.0'><channel><title>feed</title>"
      "<script xmlns='http://www.w3.org/1999/xhtml'>"
      "const original = document.getElementsByTagName.bind(document);"
      "document.getElementsByTagName = (tag) => {"
      "  if (tag === 'rss') throw new Error('scripted failure');"
      "  return original(tag); };"
      "</script>"
      "<item><title>Kept</title><link>https://example.com/kept</link></item>"
      "</channel></rss>";
  archive.add(tampered);
  archive.page(search_url("slow"), busy_page(3000));
  archive.page(search_url("hang"), busy_page(60000));
  archive.load();  // writes index.json
}

ServiceUnderTest& shared_service() {
  std::lock_guard lock(shared_mutex);
  if (!shared_service_ptr) {
    TempReplayArchive& archive = archive_locked();
    shared_dir_ptr = std::make_unique<TempDir>();
    shared_service_ptr =
        std::make_unique<ServiceUnderTest>(service_config(shared_dir_ptr->path(), archive.dir()));
  }
  return *shared_service_ptr;
}

TempReplayArchive& shared_archive() {
  std::lock_guard lock(shared_mutex);
  return archive_locked();
}

}  // namespace gleaner::testing
