// The hosted service's n8n node pointed at a whole gleaner service (port 0, one Chromium over a
// replay archive of every endpoint's recorded pages, tests/sites/<site>/data/<name>/cases.json),
// sent its requests over HTTP as it sends them (client_requests.json): its credential check, each
// operation's recorded request at the node's path and with the node's array encoding (answered
// from the archive: 200), each field of each operation (never a 400, 404 or 405; a page the
// archive does not hold is the site failing: 502), the values gleaner cannot serve (400 naming
// them), the page fetch as the node sends it (a GET with the body's fields as query parameters),
// and the operations without a real page (501 naming the operation).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "api/routes/routes.h"
#include "extract/registry.h"
#include "tests/hosted_client/client_requests.h"
#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"
#include "tests/support/service_under_test.h"

namespace gleaner::testing::hosted_client {
namespace {

using nlohmann::json;

const std::string kSource = GLEANER_SOURCE_DIR;

// Every page of every recorded case of every endpoint; anything else answers 503, as a site that
// fails would (a 404 would read as "the page does not exist").
void add_recorded_pages(TempReplayArchive& archive) {
  for (const extract::RegisteredEndpoint& e : extract::registered_endpoints()) {
    const std::string cases = kSource + "/" + e.data_dir() + "cases.json";
    if (!std::filesystem::exists(cases)) continue;
    std::ifstream in(cases);
    for (const json& c : json::parse(in).value("cases", json::array())) {
      for (const json& page : c.value("pages", json::array())) {
        TempReplayArchive::Entry entry;
        entry.match = page.value("match", "exact");
        entry.url = page.value("url", "");
        entry.source =
            page.contains("fixture")
                ? gleaner::testing::site_tests_dir(e.site) + page["fixture"].get<std::string>()
                : kSource + "/" + e.data_dir() + page.value("file", "");
        entry.status = page.value("status", 0);
        // Bound first: items() of a temporary would outlive it in the loop.
        const json headers = page.value("headers", json::object());
        for (const auto& [k, v] : headers.items()) {
          entry.headers[k] = v.get<std::string>();
        }
        archive.add(entry);
      }
    }
  }
  archive.page("https://example.test/",
               "<!doctype html><html><head><title>Example</title></head><body><h1>Example</h1>"
               "<p>Write to <a href='mailto:team@example.test'>team@example.test</a>.</p>"
               "<a href='https://example.test/more'>more</a></body></html>");
  archive.unmatched(503);
  archive.load();  // writes index.json
}

class HostedClient : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    archive_ = new TempReplayArchive();
    add_recorded_pages(*archive_);
    dir_ = new TempDir();
    service_ = new ServiceUnderTest(service_config(dir_->path(), archive_->dir()));
    key_ = new std::string(service_->create_account(1000000).key);
  }
  static void TearDownTestSuite() {
    delete service_;
    delete dir_;
    delete archive_;
    delete key_;
  }

  static httplib::Result get(const std::string& path, const extract::QueryParams& query) {
    return service_->get(path + (query.empty() ? "" : "?" + encode(query)), *key_);
  }

  static inline TempReplayArchive* archive_ = nullptr;
  static inline TempDir* dir_ = nullptr;
  static inline ServiceUnderTest* service_ = nullptr;
  static inline std::string* key_ = nullptr;
};

std::string error_code(const httplib::Result& r) {
  const json body = json_of(r);
  return body.is_object() && body.contains("error") ? body["error"].value("code", "") : "";
}

TEST_F(HostedClient, TheCredentialCheckGetsTheAccount) {
  for (const std::string path : {"/user/me", "/user/me/usage"}) {
    auto r = service_->get(path, *key_);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path << ": " << r->body;
    const json body = json_of(r);
    EXPECT_TRUE(body.contains("balance")) << path;
    EXPECT_TRUE(body.contains("usage")) << path;
    EXPECT_EQ(service_->get(path, "")->status, 401) << path;
  }
}

TEST_F(HostedClient, EachOperationIsAnsweredFromTheArchiveAtTheClientsPath) {
  for (const json& op : requests().at("operations")) {
    const std::string path = op.at("path");
    SCOPED_TRACE(path);
    auto r = get(path, query_of(op.value("replay", op.at("base"))));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body.substr(0, 400);
    EXPECT_EQ(json_of(r)["requestMetadata"].value("status", ""), "ok");
  }
}

TEST_F(HostedClient, EveryFieldAsTheClientSendsItIsAccepted) {
  for (const json& op : requests().at("operations")) {
    std::set<std::string> sent;  // one request per field (every value: requests_test.cpp)
    for (const Shape& shape : shapes_of(op)) {
      const std::string field = shape.varies.substr(0, shape.varies.find_first_of(" ="));
      if (shape.unserved_parameter.empty() && !sent.insert(field).second) continue;
      SCOPED_TRACE(shape.path + "?" + encode(shape.query) + " (" + shape.varies + ")");
      auto r = get(shape.path, shape.query);
      ASSERT_TRUE(r);
      if (!shape.unserved_parameter.empty()) {
        EXPECT_EQ(r->status, 400);
        EXPECT_EQ(json_of(r)["error"].value("parameter", ""), shape.unserved_parameter);
        continue;
      }
      // Answered from the archive, or the site's failure: the archive's 503 for a page it does
      // not hold, or a recorded page that is not what this variant shows (a desktop page read
      // as the mobile one).
      EXPECT_TRUE(r->status == 200 || r->status == 502)
          << r->status << " " << r->body.substr(0, 400);
      EXPECT_NE(error_code(r), "invalid_parameter") << r->body.substr(0, 400);
    }
  }
}

TEST_F(HostedClient, ThePageFetchAsTheClientSendsIt) {
  // The node sends the page fetch as a GET with the body's fields in the query string.
  const extract::QueryParams query = {{"url", "https://example.test/"},
                                      {"outputFormat[0]", "html"},
                                      {"outputFormat[1]", "markdown"},
                                      {"outputFormat[2]", "text"},
                                      {"extractEmails", "true"},
                                      {"extractLinks", "true"},
                                      {"screenshot", "false"},
                                      {"blockAds", "true"},
                                      {"blockResources", "false"},
                                      {"wait", "0"},
                                      {"waitFor", "h1"},
                                      {"headers", R"({"accept-language": "en-GB"})"}};
  auto r = get("/scrape/web", query);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body.substr(0, 400);
  const json body = json_of(r);
  EXPECT_NE(body.value("content", "").find("<h1>Example</h1>"), std::string::npos);
  EXPECT_NE(body.value("markdown", "").find("Example"), std::string::npos);
  EXPECT_NE(body.value("text", "").find("Example"), std::string::npos);
  EXPECT_FALSE(body.value("extractedEmails", json::array()).empty()) << body.dump().substr(0, 400);
  EXPECT_FALSE(body.value("extractedLinks", json::array()).empty());
  // Its fields are checked as the POST body's are.
  auto bad = get("/scrape/web", {{"url", "https://example.test/"}, {"outputFormat[0]", "pdf"}});
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(json_of(bad)["error"].value("parameter", ""), "outputFormat");
}

// The operations no real page of could be found answer 501 `not_implemented` naming the
// operation and why, to the requests the client sends for them (its fields, arrays indexed), and
// are charged nothing.
TEST_F(HostedClient, OperationsWithoutARealPageAnswer501NamingThemselves) {
  std::vector<std::string> listed;
  for (const auto& [path, query] : requests().at("not_implemented").items()) listed.push_back(path);
  std::vector<std::string> served;
  for (const api::NotImplementedOperation& op : api::hosted_client_operations_not_implemented()) {
    served.push_back(op.path);
  }
  std::sort(served.begin(), served.end());  // the JSON object's keys come sorted
  EXPECT_EQ(listed, served);
  const long long balance = json_of(service_->get("/account", *key_)).value("balance", -1LL);
  for (const api::NotImplementedOperation& op : api::hosted_client_operations_not_implemented()) {
    SCOPED_TRACE(op.path);
    auto r = get(op.path, query_of(requests().at("not_implemented").at(op.path)));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 501) << r->body.substr(0, 400);
    EXPECT_EQ(error_code(r), "not_implemented");
    const std::string message = json_of(r)["error"].value("message", "");
    EXPECT_NE(message.find(op.operation), std::string::npos) << message;
    EXPECT_NE(message.find("could be found"), std::string::npos) << message;
    EXPECT_EQ(service_->get(op.path, "")->status, 501);  // no key needed to hear it
  }
  EXPECT_EQ(json_of(service_->get("/account", *key_)).value("balance", -2LL), balance);
}

}  // namespace
}  // namespace gleaner::testing::hosted_client
