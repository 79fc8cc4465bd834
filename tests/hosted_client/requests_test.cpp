// Every request shape the hosted service's n8n node sends for the operations gleaner serves
// (client_requests.json: its paths, its qs encoding of arrays, every value of its option lists,
// its booleans as true/false) reaches the endpoint at the node's path and is accepted by the
// endpoint's own validation and URL builder, which the HTTP route runs before anything else. A
// value gleaner cannot serve is the one exception, and its 400 names the parameter and the value.
// The same shapes over HTTP, answered from replayed pages: service_test.cpp.
#include <gtest/gtest.h>

#include <set>

#include "core/error.h"
#include "extract/registry.h"
#include "tests/hosted_client/client_requests.h"

namespace gleaner::testing::hosted_client {
namespace {

using nlohmann::json;

std::string describe(const Shape& s) {
  return s.path + "?" + encode(s.query) + "  (" + s.varies + ")";
}

TEST(HostedClientRequests, EveryShapeOfEveryServedOperationIsAccepted) {
  std::size_t accepted = 0;
  std::size_t refused = 0;
  for (const json& op : requests().at("operations")) {
    const std::string path = op.at("path");
    const extract::Endpoint* endpoint = extract::find_endpoint(path);
    ASSERT_NE(endpoint, nullptr) << path << " reaches no endpoint";
    for (const Shape& shape : shapes_of(op)) {
      SCOPED_TRACE(describe(shape));
      if (!shape.unserved_parameter.empty()) {
        try {
          endpoint->validate(shape.query);
          ADD_FAILURE() << "an unservable value was accepted";
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
          EXPECT_EQ(e.parameter().value_or(""), shape.unserved_parameter);
          const std::string value = shape.query.find(shape.unserved_parameter)->second;
          EXPECT_NE(std::string(e.what()).find("'" + value + "'"), std::string::npos) << e.what();
          EXPECT_NE(std::string(e.what()).find("cannot be served"), std::string::npos) << e.what();
        }
        ++refused;
        continue;
      }
      try {
        const extract::PageRequest request =
            endpoint->build_request(endpoint->validate(shape.query));
        EXPECT_TRUE(request.url.starts_with("https://")) << request.url;
        ++accepted;
      } catch (const Error& e) {
        ADD_FAILURE() << "refused: " << e.what() << " (parameter " << e.parameter().value_or("-")
                      << ")";
      }
    }
  }
  // Every value of every list was tried (the lists hold 245 countries, 195 Google domains, ...).
  EXPECT_GT(accepted, 800u);
  // domain=www.yellowpages.ca (deviceType=tablet is served: issue 27), a Maps reviews topicId
  // (no real answer shows the topic list its ids come from), Flights' departureToken and
  // bookingToken (gleaner mints no flight tokens: docs/endpoints/google/flights.md), and an
  // immersive product's stores nextPageToken (gleaner answers no storesNextPageToken: the real
  // seller list is one page).
  EXPECT_EQ(refused, 5u);
}

// The client's words reach the page as the site's own: a few that were refused before, each
// checked in the URL the endpoint builds.
TEST(HostedClientRequests, TheClientsWordsReachThePageAsTheSitesOwn) {
  const auto url_of = [](const std::string& path, const extract::QueryParams& q) {
    const extract::Endpoint* e = extract::find_endpoint(path);
    return e->build_request(e->validate(q)).url;
  };
  const std::string serp = url_of("/scrape/google/serp", {{"q", "coffee"},
                                                          {"hl", "es-419"},
                                                          {"num", "20"},
                                                          {"tbs", "qdr:w"},
                                                          {"lr[0]", "lang_de"},
                                                          {"lr[1]", "lang_fr"},
                                                          {"cr", "countryDE|countryFR"},
                                                          {"kgmid", "/m/0dl567"}});
  EXPECT_NE(serp.find("hl=es-419"), std::string::npos) << serp;
  EXPECT_NE(serp.find("num=20"), std::string::npos) << serp;
  EXPECT_NE(serp.find("tbs=qdr%3Aw"), std::string::npos) << serp;
  EXPECT_NE(serp.find("lr=lang_de%7Clang_fr"), std::string::npos) << serp;
  EXPECT_NE(serp.find("cr=countryDE%7CcountryFR"), std::string::npos) << serp;
  EXPECT_NE(serp.find("kgmid=%2Fm%2F0dl567"), std::string::npos) << serp;
  // Issue 27: a tablet is a device of its own, not a 400.
  const extract::Endpoint* serp_endpoint = extract::find_endpoint("/scrape/google/serp");
  EXPECT_EQ(
      serp_endpoint->build_request(serp_endpoint->validate({{"q", "x"}, {"deviceType", "tablet"}}))
          .profile.device,
      extract::BrowserProfile::Device::Tablet);
  EXPECT_NE(url_of("/scrape/google/serp", {{"q", "x"}, {"hl", "fil"}}).find("hl=fil"),
            std::string::npos);
  EXPECT_NE(url_of("/scrape/google/serp", {{"q", "x"}, {"hl", "xx-pirate"}}).find("hl=xx-pirate"),
            std::string::npos);
  // Google News's edition for Latin-American Spanish, and its GB edition for the client's `uk`.
  const std::string news = url_of("/scrape/google/news", {{"q", "x"}, {"hl", "es-419"}});
  EXPECT_NE(news.find("hl=es-419&gl=US&ceid=US:es-419"), std::string::npos) << news;
  const std::string uk = url_of("/scrape/google/news", {{"q", "x"}, {"gl", "uk"}});
  EXPECT_NE(uk.find("gl=GB&ceid=GB:en"), std::string::npos) << uk;
  EXPECT_TRUE(url_of("/scrape/glassdoor/listing",
                     {{"keyword", "a"}, {"location", "Zurich"}, {"domain", "fr.glassdoor.ch"}})
                  .starts_with("https://fr.glassdoor.ch/Job/jobs.htm?"));
  EXPECT_TRUE(url_of("/scrape/glassdoor/listing",
                     {{"keyword", "a"}, {"location", "x"}, {"domain", "www.glassdoor.com.ar"}})
                  .starts_with("https://www.glassdoor.com.ar/"));
  EXPECT_TRUE(url_of("/scrape/yelp/place", {{"placeId", "a-b"}, {"domain", "fil.yelp.com.ph"}})
                  .starts_with("https://fil.yelp.com.ph/biz/a-b"));
  EXPECT_TRUE(url_of("/scrape/yelp/place", {{"placeId", "a-b"}, {"domain", "www.yelp.com.tw"}})
                  .starts_with("https://www.yelp.com.tw/biz/a-b"));
  EXPECT_EQ(url_of("/scrape/yelp/search", {{"keyword", "pizza"},
                                           {"location", "Houston"},
                                           {"l", "g:-95.2486,29.8496,-95.4277,29.6324"},
                                           {"start", "10"},
                                           {"domain", "fil.yelp.com.ph"}}),
            "https://fil.yelp.com.ph/search?find_desc=pizza&find_loc=Houston&start=10&"
            "l=g%3A-95.2486%2C29.8496%2C-95.4277%2C29.6324");
}

TEST(HostedClientRequests, GooglesOwnParametersAreChecked) {
  const extract::Endpoint* serp = extract::find_endpoint("/scrape/google/serp");
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"num", "101"},
                                                        {"filter", "2"},
                                                        {"nfpr", "yes"},
                                                        {"safe", "strict"},
                                                        {"tbs", "qdr:w;drop"},
                                                        {"tbm", "books"},
                                                        {"lr[0]", "german"},
                                                        {"cr", "DE"},
                                                        {"ludocid", "12ab"},
                                                        {"kgmid", "m/0dl567"},
                                                        {"si", "a b"},
                                                        {"hl", "english"}}) {
    SCOPED_TRACE(name + "=" + value);
    try {
      serp->validate({{"q", "x"}, {name, value}});
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
      EXPECT_EQ(e.parameter().value_or(""), name == "lr[0]" ? "lr" : name);
    }
  }
}

// Every endpoint answers at its site's name too (/scrape/<site>/<name>), the client's paths and
// those "by the same rule" (walmart, booking, youtube, tripadvisor, google/finance) alike.
TEST(HostedClientRequests, EveryEndpointHasItsSitePath) {
  std::set<std::string> paths;
  for (const extract::RegisteredEndpoint& e : extract::registered_endpoints()) {
    EXPECT_EQ(extract::find_endpoint(e.site_path()), e.endpoint) << e.site_path();
    EXPECT_EQ(extract::find_endpoint(e.endpoint->path()), e.endpoint) << e.endpoint->path();
    EXPECT_TRUE(paths.insert(e.site_path()).second) << e.site_path();
    // An operation the seed does not name (amazon/product, bing/serp) has its site path only.
    if (e.site_path() == e.endpoint->path()) {
      EXPECT_EQ(e.endpoint->route(), std::string(e.site) + "/" + std::string(e.name));
      continue;
    }
    EXPECT_TRUE(paths.insert(e.endpoint->path()).second) << e.endpoint->path();
  }
  for (const char* path :
       {"/scrape/walmart/reviews", "/scrape/booking/search", "/scrape/booking/place",
        "/scrape/youtube/video", "/scrape/tripadvisor/place", "/scrape/google/finance"}) {
    EXPECT_NE(extract::find_endpoint(path), nullptr) << path;
  }
  for (const char* path : {"/scrape/amazon/product", "/scrape/amazon/search", "/scrape/bing/serp",
                           "/scrape/instagram/profile", "/scrape/zillow/property",
                           "/scrape/shopify/products", "/scrape/indeed/listing"}) {
    EXPECT_NE(extract::find_endpoint(path), nullptr) << path;
  }
  for (const json& op : requests().at("operations")) {
    EXPECT_TRUE(paths.contains(op.at("path").get<std::string>())) << op.at("path");
  }
}

}  // namespace
}  // namespace gleaner::testing::hosted_client
