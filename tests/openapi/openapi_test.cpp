#include "api/openapi.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "api/response_shapes.h"
#include "api/router.h"
#include "api/routes/routes.h"
#include "extract/registry.h"

namespace gleaner::api {
namespace {

using nlohmann::json;

const json& document() {
  static const json kDocument = openapi_document();
  return kDocument;
}

/// The parameter named `name` of an operation, or null.
json parameter(const json& operation, const std::string& name) {
  for (const json& p : operation.value("parameters", json::array())) {
    if (p.at("name") == name) return p;
  }
  return nullptr;
}

/// Checks that an operation's query parameters are exactly the declared ones, with their
/// `required`, enumerations, ranges and defaults.
void expect_declared(const json& operation, const extract::Parameters& declared,
                     const std::string& where) {
  std::size_t query_params = 0;
  for (const json& p : operation.value("parameters", json::array())) {
    if (p.at("in") == "query") ++query_params;
  }
  EXPECT_EQ(query_params, declared.params().size()) << where;
  for (const extract::Param& d : declared.params()) {
    const bool list = d.type() == extract::ParamType::List;
    const json p = parameter(operation, list ? d.name() + "[]" : d.name());
    ASSERT_FALSE(p.is_null()) << where << ": " << d.name();
    EXPECT_EQ(p.at("required").get<bool>(), d.is_required()) << where << ": " << d.name();
    const json& schema = p.at("schema");
    if (!d.allowed().empty() && d.separator() == '\0') {
      const json& values = list ? schema.at("items").at("enum") : schema.at("enum");
      EXPECT_EQ(values.get<std::vector<std::string>>(), d.accepted_words())
          << where << ": " << d.name();
    }
    if (d.minimum()) {
      EXPECT_EQ(schema.at("minimum").get<double>(), *d.minimum()) << where << ": " << d.name();
    }
    if (d.maximum()) {
      EXPECT_EQ(schema.at("maximum").get<double>(), *d.maximum()) << where << ": " << d.name();
    }
    if (d.fallback()) {
      EXPECT_EQ(schema.at("default"), *d.fallback()) << where << ": " << d.name();
    }
    if (!d.pattern_source().empty()) {
      const json& target = list ? schema.at("items") : schema;
      EXPECT_EQ(target.at("pattern"), "^(?:" + d.pattern_source() + ")$") << d.name();
    }
  }
}

TEST(OpenApi, IsAnOpenApi31Document) {
  const json& doc = document();
  EXPECT_EQ(doc.at("openapi"), "3.1.0");
  EXPECT_EQ(json::parse(doc.dump()), doc);
  EXPECT_EQ(doc.at("components").at("securitySchemes").at("apiKey").at("name"), "x-api-key");
  EXPECT_EQ(doc.at("components").at("securitySchemes").at("apiKey").at("in"), "header");
}

TEST(OpenApi, EveryDataEndpointHasItsPathDeclaredParametersAndResponseSchema) {
  const json& paths = document().at("paths");
  ASSERT_FALSE(extract::registered_endpoints().empty());
  for (const extract::RegisteredEndpoint& e : extract::registered_endpoints()) {
    const std::string path = e.endpoint->path();
    ASSERT_TRUE(paths.contains(path)) << path;
    const json& get = paths.at(path).at("get");
    expect_declared(get, e.endpoint->parameters(), path);
    // The answer is a schema of components/schemas written for this endpoint, in the envelope.
    const std::string ref =
        get.at("responses").at("200").at("content").at("application/json").at("schema").at("$ref");
    const std::string name = ref.substr(ref.rfind('/') + 1);
    const json& schemas = document().at("components").at("schemas");
    ASSERT_TRUE(schemas.contains(name)) << path << " has no response schema " << name;
    EXPECT_TRUE(schemas.at(name).at("properties").contains("requestMetadata")) << path;
    EXPECT_GT(schemas.at(name).at("properties").size(), 1u) << path;
    EXPECT_EQ(get.at("responses").at("400").at("$ref"), "#/components/responses/Error") << path;
    EXPECT_EQ(get.at("security"), json::parse(R"([{"apiKey": []}])")) << path;
    // The site path is listed as the same endpoint: same parameters and answer (an operation
    // the seed does not name has its site path only, its route).
    if (e.site_path() == path) continue;
    ASSERT_TRUE(paths.contains(e.site_path())) << e.site_path();
    const json& alias = paths.at(e.site_path()).at("get");
    EXPECT_EQ(alias.at("parameters"), get.at("parameters")) << e.site_path();
    EXPECT_EQ(alias.at("responses"), get.at("responses")) << e.site_path();
    EXPECT_NE(alias.at("operationId"), get.at("operationId")) << e.site_path();
  }
}

// api/routes/hosted_client.cpp's list. Google Shopping, Flights, immersive product and AI Mode left
// it for readers of real pages: they are served endpoints, checked with the others above.
TEST(OpenApi, TheHostedServicesOperationsWithoutARealPageAre501) {
  const json& paths = document().at("paths");
  for (const char* path :
       {"/scrape/google/short-videos", "/scrape/google/ai-overview", "/scrape/google-maps/photos",
        "/scrape/google-maps/contributor-reviews"}) {
    ASSERT_TRUE(paths.contains(path)) << path;
    const json& responses = paths.at(path).at("get").at("responses");
    EXPECT_TRUE(responses.contains("501")) << path;
    EXPECT_FALSE(responses.contains("200")) << path;
  }
}

TEST(OpenApi, TheHostedServicesAccountPathsGiveTheAccountsAnswer) {
  const json& paths = document().at("paths");
  for (const char* path : {"/user/me", "/user/me/usage"}) {
    ASSERT_TRUE(paths.contains(path)) << path;
    EXPECT_EQ(paths.at(path).at("get").at("responses"),
              paths.at("/account").at("get").at("responses"))
        << path;
  }
}

// ---- Response schemas from the endpoints' docs (response_shapes.h) ------------------------------

json properties_of(const std::string& block) {
  return response_properties_from_doc("# GET /x\n\n## Response\n```\n" + block +
                                      "\n```\n- a note (not read)\n\n## Next\n```\nignored\n```\n");
}

TEST(ResponseShapes, KeysObjectsAndArraysBecomeClosedSchemas) {
  const json p = properties_of(
      "searchInformation {totalResults?, timeTaken}\n"
      "organicResults [{position, sitelinks? [{title, link}]}]\n"
      "keywords [..], photos [url]\n"
      "title");
  EXPECT_EQ(p.size(), 5u);
  EXPECT_EQ(p.at("searchInformation"),
            json::parse(R"({"type": "object", "additionalProperties": false,
                            "properties": {"totalResults": {}, "timeTaken": {}}})"));
  const json& item = p.at("organicResults").at("items");
  EXPECT_EQ(item.at("additionalProperties"), false);
  EXPECT_EQ(item.at("properties").at("sitelinks").at("items").at("properties").size(), 2u);
  EXPECT_EQ(p.at("keywords"), json::parse(R"({"type": "array", "items": {}})"));
  EXPECT_EQ(p.at("photos").at("items"), json::parse(R"({"type": "string"})"));
  EXPECT_EQ(p.at("title"), json::object());
}

TEST(ResponseShapes, MapsEnumsQuotedKeysAndCommentsAsTheDocsWriteThem) {
  const json p = properties_of(
      "adResults [{block: \"top\"|\"bottom\", date (ISO 8601)}]\n"
      "knowledgeGraph {title, attributes {label: value}}\n"
      "houseRules {checkIn, <label>: text}?\n"
      "ratingCounts {\"1\"..\"5\": int}\n"
      "filters {\"Star rating\": [{name, count}], \"Condition\": [...]}\n"
      "property {...}   (the other endpoint's shape)");
  const json& ad = p.at("adResults").at("items").at("properties");
  EXPECT_EQ(ad.at("block"), json::parse(R"({"enum": ["top", "bottom"]})"));
  EXPECT_TRUE(ad.contains("date"));
  EXPECT_EQ(ad.size(), 2u);
  // A map is an object whose keys are open.
  EXPECT_FALSE(
      p.at("knowledgeGraph").at("properties").at("attributes").contains("additionalProperties"));
  EXPECT_EQ(p.at("knowledgeGraph").at("additionalProperties"), false);
  EXPECT_FALSE(p.at("houseRules").contains("additionalProperties"));
  EXPECT_TRUE(p.at("houseRules").at("properties").contains("checkIn"));
  EXPECT_FALSE(p.at("ratingCounts").contains("additionalProperties"));
  EXPECT_TRUE(p.at("filters").at("properties").contains("Star rating"));
  EXPECT_EQ(p.at("filters").at("additionalProperties"), false);
  EXPECT_EQ(p.at("property"), json::parse(R"({"type": "object"})"));
}

TEST(ResponseShapes, EveryBlockOfTheSectionAddsItsKeys) {
  const json p = response_properties_from_doc(
      "## Response\n```\nsearchInformation {keyword, type}\nproperties [..]\n```\nor:\n```\n"
      "searchInformation {keyword, total}\nproperty {...}\n```\n");
  EXPECT_EQ(p.size(), 3u);
  EXPECT_EQ(p.at("searchInformation").at("properties").size(), 3u);
}

TEST(ResponseShapes, AMalformedOrMissingSectionIsAnErrorNamingIt) {
  EXPECT_THROW(response_properties_from_doc("# GET /x\nno section\n"), std::invalid_argument);
  EXPECT_THROW(properties_of("a {b, c"), std::invalid_argument);
  EXPECT_THROW(properties_of("a [b"), std::invalid_argument);
  EXPECT_THROW(properties_of("a {b} }"), std::invalid_argument);
  EXPECT_THROW(properties_of("a; b"), std::invalid_argument);
  EXPECT_THROW(properties_of("label: value"), std::invalid_argument);  // an open top level
}

TEST(OpenApi, EveryDataEndpointsAnswerIsTheShapeOfItsDoc) {
  const json& schemas = document().at("components").at("schemas");
  for (const extract::RegisteredEndpoint& e : extract::registered_endpoints()) {
    std::ifstream in(std::string(GLEANER_SOURCE_DIR) + "/" + e.doc_path());
    std::stringstream doc;
    doc << in.rdbuf();
    json expected = response_properties_from_doc(doc.str());
    const std::string ref = document()
                                .at("paths")
                                .at(e.endpoint->path())
                                .at("get")
                                .at("responses")
                                .at("200")
                                .at("content")
                                .at("application/json")
                                .at("schema")
                                .at("$ref");
    const json& schema = schemas.at(ref.substr(ref.rfind('/') + 1));
    json properties = schema.at("properties");
    properties.erase("requestMetadata");
    EXPECT_EQ(properties, expected) << e.doc_path();
    EXPECT_EQ(schema.at("additionalProperties"), false) << e.doc_path();
  }
}

TEST(OpenApi, JobsQueryComesFromTheRoutesDeclarations) {
  const json& paths = document().at("paths");
  expect_declared(paths.at("/scrapers/jobs").at("get"), job_list_params(), "/scrapers/jobs");
  const json& results = paths.at("/scrapers/jobs/{id}/results").at("get");
  expect_declared(results, job_results_params(), "results");
  EXPECT_EQ(parameter(results, "format").at("schema").at("enum"), json({"json", "csv", "ndjson"}));
}

TEST(OpenApi, OnlyHealthMetricsScreenshotsTheConsoleAndTheDocumentGoWithoutKey) {
  for (const auto& [path, item] : document().at("paths").items()) {
    for (const auto& [method, op] : item.items()) {
      if (method == "parameters") continue;
      // The console's files carry no data: its page asks for the key and sends it itself.
      bool open = path == "/health" || path == "/metrics" || path == "/openapi.json" ||
                  path == "/screenshots/{file}" || path == "/console" ||
                  path.rfind("/console/", 0) == 0;
      // The hosted client's operations no real page verifies: a 501 for anyone, no data.
      for (const api::NotImplementedOperation& n :
           api::hosted_client_operations_not_implemented()) {
        open = open || path == n.path;
      }
      EXPECT_EQ(op.at("security").empty(), open) << method << " " << path;
    }
  }
}

TEST(OpenApi, TheHostedClientsOperationsWithoutARealPageAreListedWithTheir501) {
  const json& paths = document().at("paths");
  ASSERT_FALSE(api::hosted_client_operations_not_implemented().empty());
  for (const api::NotImplementedOperation& n : api::hosted_client_operations_not_implemented()) {
    const json& get = paths.at(n.path).at("get");
    EXPECT_EQ(get.at("responses").at("501").at("$ref"), "#/components/responses/Error") << n.path;
    EXPECT_FALSE(get.at("responses").contains("200")) << n.path;
    EXPECT_NE(get.at("summary").get<std::string>().find(n.operation), std::string::npos);
  }
}

TEST(OpenApi, EveryReferenceResolves) {
  const json& doc = document();
  std::function<void(const json&)> walk = [&](const json& node) {
    if (node.is_object()) {
      if (node.contains("$ref")) {
        const std::string ref = node.at("$ref");
        ASSERT_EQ(ref.rfind("#/", 0), 0u) << ref;
        EXPECT_TRUE(doc.contains(json::json_pointer(ref.substr(1)))) << ref;
      }
      for (const auto& [key, value] : node.items()) walk(value);
    } else if (node.is_array()) {
      for (const json& value : node) walk(value);
    }
  };
  walk(doc);
}

TEST(OpenApi, IsServedWithoutKey) {
  Router router;
  add_openapi_routes(router);
  const Router::Match match = router.match("GET", "/openapi.json");
  ASSERT_NE(match.handler, nullptr);
  Request request;  // no x-api-key
  const Response response = (*match.handler)(request);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "application/json");
  ASSERT_TRUE(response.raw_body);
  EXPECT_EQ(json::parse(*response.raw_body), document());
}

TEST(OpenApi, DocsCopyIsWhatTheGeneratorMakes) {
  const std::string path = std::string(GLEANER_SOURCE_DIR) + "/docs/openapi.json";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "missing " << path;
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), document().dump(2) + "\n")
      << path << " is out of date: run `build/gleaner openapi > docs/openapi.json`";
}

}  // namespace
}  // namespace gleaner::api
