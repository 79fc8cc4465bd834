// The hosted service's n8n node pointed at a whole gleaner service (port 0, one Chromium over a
// replay archive of every endpoint's recorded pages, tests/sites/<site>/data/<name>/cases.json),
// sent its requests over HTTP as it sends them (client_requests.json): its credential check, each
// operation's recorded request at the node's path and with the node's array encoding (answered
// from the archive: 200), each field of each operation (never a 400, 404 or 405; a page the
// archive does not hold is the site failing: 502), the values gleaner cannot serve (400 naming
// them), the page fetch as the node sends it (a GET with the body's fields as query parameters),
// a Shopping result's page token redeemed (and refused: another account's, expired, forged), and
// the operations without a real page (501 naming the operation).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "api/routes/routes.h"
#include "extract/page_token.h"
#include "extract/sites/google/immersive_product.h"
#include "screenshots/signing.h"
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
    const ServiceUnderTest::NewAccount account = service_->create_account(1000000);
    account_ = account.id;
    key_ = new std::string(account.key);
  }
  static void TearDownTestSuite() {
    delete service_;
    delete dir_;
    delete archive_;
    delete key_;
  }

  // A pageToken is what /scrape/google/shopping handed this account: the request's sample
  // (client_requests.json) names a product of the recorded pages, and is minted anew here.
  static httplib::Result get(const std::string& path, extract::QueryParams query) {
    if (auto token = query.find("pageToken"); token != query.end()) {
      if (auto claims = extract::page_token_claims(token->second)) {
        token->second = service_->deps().page_tokens->mint(
            account_, extract::google::kImmersiveProductTokenKind, *claims);
      }
    }
    return service_->get(path + (query.empty() ? "" : "?" + encode(query)), *key_);
  }

  static inline TempReplayArchive* archive_ = nullptr;
  static inline TempDir* dir_ = nullptr;
  static inline ServiceUnderTest* service_ = nullptr;
  static inline std::string* key_ = nullptr;
  static inline std::int64_t account_ = 0;
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

// The token of a Shopping result, from mint to redemption: handed out by /scrape/google/shopping
// on its real page, good for the account that got it for 4 minutes, a 400 naming pageToken
// otherwise, before anything is charged.
TEST_F(HostedClient, AShoppingResultsTokenOpensItsProductForItsAccountOnly) {
  auto shopping = service_->get(
      "/scrape/google/shopping?q=889894929969&gl=br&hl=pt-BR", *key_);
  ASSERT_TRUE(shopping);
  ASSERT_EQ(shopping->status, 200) << shopping->body.substr(0, 400);
  const json results = json_of(shopping)["shoppingResults"];
  ASSERT_FALSE(results.empty());
  const std::string minted = results[0].value("immersiveProductPageToken", "");
  ASSERT_FALSE(minted.empty()) << results[0].dump().substr(0, 400);
  EXPECT_EQ(extract::page_token_claims(minted),
            (json{{"productId", "4997777289611787084"}, {"gl", "br"}, {"hl", "pt-BR"}}));
  // Redeemed: its product page is asked for (the archive holds none of this product: 502, the
  // site failing), not refused.
  auto opened = service_->get("/scrape/google/immersive-product?pageToken=" + minted, *key_);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->status, 502) << opened->body.substr(0, 400);

  const json stove = {{"productId", "13239497633151178800"}, {"gl", "br"}, {"hl", "pt-BR"}};
  const auto redeem = [](const std::string& token) {
    return service_->get("/scrape/google/immersive-product?pageToken=" + token, *key_);
  };
  const auto balance = [] { return service_->store().find_account(account_)->balance; };
  const std::string kind(extract::google::kImmersiveProductTokenKind);
  const std::string secret =
      screenshots::UrlSigner::secret_from_config(service_->deps().config);

  // The caller's own, fresh: the stove's product page, charged 5.
  std::int64_t before = balance();
  auto ok = redeem(service_->deps().page_tokens->mint(account_, kind, stove));
  ASSERT_TRUE(ok);
  ASSERT_EQ(ok->status, 200) << ok->body.substr(0, 400);
  EXPECT_EQ(json_of(ok)["productResults"]["stores"].size(), 10u);
  EXPECT_EQ(balance(), before - 5);

  // Refused, uncharged: another account's, an expired one, one of another secret, a made-up one.
  const ServiceUnderTest::NewAccount other = service_->create_account(100);
  FakeClock five_minutes_ago(std::chrono::system_clock::now() - std::chrono::minutes(5));
  const std::vector<std::pair<std::string, std::string>> refused = {
      {service_->deps().page_tokens->mint(other.id, kind, stove), "another account"},
      {extract::PageTokens(secret, five_minutes_ago).mint(account_, kind, stove), "expired"},
      {extract::PageTokens("another service's secret, long", five_minutes_ago)
           .mint(account_, kind, stove),
       "not a token this service gave"},
      {service_->deps().page_tokens->mint(account_, "google/ai-overview", stove),
       "another operation"},
  };
  before = balance();
  for (const auto& [token, why] : refused) {
    SCOPED_TRACE(why);
    auto r = redeem(token);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body.substr(0, 400);
    EXPECT_EQ(error_code(r), "invalid_parameter");
    EXPECT_EQ(json_of(r)["error"].value("parameter", ""), "pageToken");
    EXPECT_NE(json_of(r)["error"].value("message", "").find(why), std::string::npos)
        << r->body.substr(0, 400);
  }
  EXPECT_EQ(balance(), before);
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
