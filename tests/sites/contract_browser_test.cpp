// The contract every registered endpoint keeps, checked for all of them at once in real Chromium
// (one test per endpoint and check, named after the endpoint's route):
//  - it declares its cost, which the service charges, and its doc exists
//    (docs/endpoints/<site>/<name>.md), its Response block stating every field of fields();
//  - its recorded cases (tests/sites/<site>/data/<name>/cases.json) exist, and the script output
//    of a fresh run on each case's pages still equals the recording: a site script change that
//    changes what is read fails here until the recording is redone (GLEANER_RECORD=1, see
//    scripts/record.sh), and the unit tests then shape the new recording;
//  - the whole endpoint succeeds on every case (its shaped answer has content);
//  - every block page kept for any site (tests/sites/*/pages/blocks/), served for every URL, is
//    a 502 upstream_blocked whatever the site;
//  - leaving out any required parameter is a 400 naming it;
//  - each "withoutData" case (a real page of the endpoint with its data taken out by the
//    case's "replace" pairs, everything else of the page kept) is a 502 extraction_failed: no
//    wall, so never upstream_blocked, and never an empty success.
//
// cases.json: {"cases": [{"name", "query": {param: value | [values]}, "pages": [{"url",
// "match"?: exact|prefix|regex, "fixture"?: a real page, its path under
// tests/sites/<site>/ ("pages/<category>/<file>"), "file"?: path under the
// data dir (a document written or assembled for the test, said so in the doc), "status"?,
// "headers"?, "replace"?: [[from, to(, "regex")], ...] applied to the page, each must occur:
// gleaner::testing::rewritten_page()}], "recorded": file name under the data dir}],
// "withoutData"?: [cases without "recorded"], "localised"?: [cases a site's own test reads]}.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "api/response_shapes.h"
#include "core/error.h"
#include "extract/page_reader.h"
#include "extract/pool_tabs.h"
#include "extract/registry.h"
#include "store/costs.h"
#include "tests/support/answer_log.h"
#include "tests/support/chromium.h"
#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract {
namespace {

using gleaner::testing::fetch_recorded;
using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using gleaner::testing::TempReplayArchive;
using nlohmann::json;
namespace fs = std::filesystem;

const std::string kSource = GLEANER_SOURCE_DIR;

bool recording() {
  const char* v = std::getenv("GLEANER_RECORD");
  return v && std::string(v) == "1";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

json cases_of(const RegisteredEndpoint& e, const std::string& list = "cases") {
  const std::string path = kSource + "/" + e.data_dir() + "cases.json";
  if (!fs::exists(path)) return json::array();
  return testing::read_json_file(path).value(list, json::array());
}

QueryParams query_of(const json& c) {
  QueryParams q;
  const json query = c.value("query", json::object());
  for (const auto& [name, value] : query.items()) {
    if (value.is_array()) {
      for (const json& v : value) q.emplace(name, v.get<std::string>());
    } else {
      q.emplace(name, value.get<std::string>());
    }
  }
  return q;
}

std::shared_ptr<browser::ReplayArchive> archive_of(const RegisteredEndpoint& e, const json& c,
                                                   TempReplayArchive& archive) {
  const json pages = c.value("pages", json::array());
  for (const json& page : pages) {
    TempReplayArchive::Entry entry;
    entry.match = page.value("match", "exact");
    entry.url = page.value("url", "");
    if (page.contains("fixture")) {
      entry.source = gleaner::testing::site_tests_dir(e.site) + page["fixture"].get<std::string>();
    } else {
      entry.source = kSource + "/" + e.data_dir() + page.value("file", "");
    }
    if (page.contains("replace")) {
      entry.body = gleaner::testing::rewritten_page(entry.source, page["replace"]);
      entry.file_name = "rewritten-" + fs::path(entry.source).filename().string();
      entry.source.clear();
    }
    entry.status = page.value("status", 0);
    const json headers = page.value("headers", json::object());
    for (const auto& [k, v] : headers.items()) {
      entry.headers[k] = v.get<std::string>();
    }
    archive.add(entry);
  }
  return archive.load();
}

// The schema of `field` ("results[].price", "summary.title") among the answer's `properties`
// (api/response_shapes.h): each key a property of the object before it, "[]" the items of a
// list; an object whose keys are open ({...}) holds any key. nullopt where the doc has no such
// field.
std::optional<json> schema_at(const json& properties, const std::string& field) {
  json node = {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
  std::stringstream keys(field);
  std::string key;
  while (std::getline(keys, key, '.')) {
    const bool list = key.ends_with("[]");
    if (list) key.resize(key.size() - 2);
    if (node.contains("properties") && node["properties"].contains(key)) {
      node = node["properties"][key];
    } else if (node.value("type", "") == "object" && !node.contains("additionalProperties")) {
      node = json::object();  // an open object: any key
    } else {
      return std::nullopt;
    }
    if (list) {
      if (node.value("type", "") != "array") return std::nullopt;
      node = node.value("items", json::object());
    }
  }
  return node;
}

// Each registered endpoint, by its route ("stays/place" → "stays_place").
std::string name_of(const ::testing::TestParamInfo<RegisteredEndpoint>& info) {
  std::string n = std::string(info.param.site) + "_" + std::string(info.param.name);
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

class Contract : public ::testing::TestWithParam<RegisteredEndpoint> {};

}  // namespace

// GoogleTest names a failing parameter by this.
void PrintTo(const RegisteredEndpoint& e, std::ostream* os) {
  *os << e.site << "/" << e.name;
}

namespace {

TEST_P(Contract, CostAndDocWithEveryField) {
  const RegisteredEndpoint& e = GetParam();
  // Its declared cost is what the service charges unless configured otherwise.
  EXPECT_GT(e.endpoint->default_cost(), 0);
  EXPECT_EQ(store::Costs::from_config(Config(nlohmann::json::object(), {}), endpoint_costs())
                .of(e.endpoint->route()),
            e.endpoint->default_cost());
  const std::string doc_path = kSource + "/" + e.doc_path();
  ASSERT_TRUE(fs::exists(doc_path)) << e.doc_path() << " is missing";
  const std::string doc = read_text(doc_path);
  EXPECT_NE(doc.find(e.endpoint->path()), std::string::npos)
      << e.doc_path() << " never names " << e.endpoint->path();
  // The answer's shape is written once, in the doc's Response block (the OpenAPI schema every
  // answer of the suites is validated against); fields() only picks from it what field health
  // counts, so each of its paths must be one the block states.
  const json properties = api::response_properties_from_doc(doc);
  ASSERT_FALSE(e.endpoint->fields().empty());
  for (const std::string& field : e.endpoint->fields()) {
    EXPECT_TRUE(schema_at(properties, field).has_value())
        << e.doc_path() << "'s Response block has no field " << field;
  }
}

TEST_P(Contract, RecordedCasesMatchAFreshRun) {
  const RegisteredEndpoint& e = GetParam();
  const json cases = cases_of(e);
  ASSERT_FALSE(cases.empty()) << e.data_dir() << "cases.json has no case";
  for (const json& c : cases) {
    SCOPED_TRACE(c.value("name", "?"));
    TempReplayArchive archive;
    auto replay = archive_of(e, c, archive);
    const ValidatedParams params = e.endpoint->validate(query_of(c));
    const PageRequest request = e.endpoint->build_request(params);
    PoolTabs tabs(shared_pool(), {replay});
    auto tab = tabs.open(request.profile, max_wait());
    // The page judged and read as the endpoint reads it in a tab (Endpoint::fetch's browser
    // road): with what it reads without text and what it recognizes as its own page, a document
    // read by its C++ (Endpoint::read_document).
    const PageReading reading = read_in_tab(*e.endpoint, *tab, request, max_wait());
    const std::string recorded_path = kSource + "/" + e.data_dir() + c.value("recorded", "");
    if (recording()) {
      std::ofstream(recorded_path) << reading.data.dump(1) << '\n';
      continue;
    }
    ASSERT_TRUE(fs::exists(recorded_path)) << recorded_path << " is missing (GLEANER_RECORD=1)";
    const json patch = json::diff(testing::read_json_file(recorded_path), reading.data);
    EXPECT_TRUE(patch.empty()) << "the script now reads something else on " << request.url << " ("
                               << patch.size()
                               << " changes, the first: " << patch[0].dump().substr(0, 300)
                               << "): rerun scripts/record.sh and review the diff";
  }
}

TEST_P(Contract, EveryCaseSucceedsEndToEnd) {
  const RegisteredEndpoint& e = GetParam();
  for (const json& c : cases_of(e)) {
    SCOPED_TRACE(c.value("name", "?"));
    TempReplayArchive archive;
    auto replay = archive_of(e, c, archive);
    PoolTabs tabs(shared_pool(), {replay});
    EndpointResult result;
    ASSERT_NO_THROW(result = fetch_recorded(*e.endpoint, tabs, query_of(c)));
    EXPECT_TRUE(e.endpoint->has_content(result.body));
  }
}

TEST_P(Contract, EveryBlockPageIsUpstreamBlocked) {
  const RegisteredEndpoint& e = GetParam();
  const json cases = cases_of(e);
  ASSERT_FALSE(cases.empty());
  const QueryParams query = query_of(cases[0]);
  int pages = 0;
  for (const std::string& block : gleaner::testing::block_pages()) {
    SCOPED_TRACE(block);
    ++pages;
    TempReplayArchive archive;
    TempReplayArchive::Entry page;
    page.match = "regex";
    page.url = ".*";
    page.source = block;
    archive.add(page);
    PoolTabs tabs(shared_pool(), {archive.load()});
    try {
      fetch_recorded(*e.endpoint, tabs, query);
      ADD_FAILURE() << "a block page was answered as data";
    } catch (const Error& err) {
      EXPECT_EQ(err.code(), ErrorCode::UpstreamBlocked) << err.what() << " / " << err.detail();
    }
  }
  EXPECT_GE(pages, 3);
}

TEST_P(Contract, ARealPageWithoutItsDataIsExtractionFailed) {
  const RegisteredEndpoint& e = GetParam();
  const json cases = cases_of(e, "withoutData");
  if (cases.empty()) GTEST_SKIP() << e.data_dir() << "cases.json has no withoutData case";
  for (const json& c : cases) {
    SCOPED_TRACE(c.value("name", "?"));
    TempReplayArchive archive;
    auto replay = archive_of(e, c, archive);
    PoolTabs tabs(shared_pool(), {replay});
    try {
      fetch_recorded(*e.endpoint, tabs, query_of(c));
      ADD_FAILURE() << "a page without its data was answered as data";
    } catch (const Error& err) {
      EXPECT_EQ(err.code(), ErrorCode::ExtractionFailed) << err.what() << " / " << err.detail();
    }
  }
}

TEST_P(Contract, MissingRequiredParameterIsNamed) {
  const RegisteredEndpoint& e = GetParam();
  const json cases = cases_of(e);
  ASSERT_FALSE(cases.empty());
  const QueryParams query = query_of(cases[0]);
  for (const Param& p : e.endpoint->parameters().params()) {
    if (!p.is_required()) continue;
    QueryParams without;
    for (const auto& [k, v] : query) {
      if (k != p.name() && k != p.name() + "[]") without.emplace(k, v);
    }
    EXPECT_EQ(testing::rejection(*e.endpoint, without),
              testing::refused(ErrorCode::MissingParameter, p.name()));
  }
}

INSTANTIATE_TEST_SUITE_P(Endpoints, Contract, ::testing::ValuesIn(registered_endpoints()), name_of);

TEST(Registry, RoutesAreUnique) {
  std::set<std::string> routes;
  for (const Endpoint* e : all_endpoints()) {
    EXPECT_TRUE(routes.insert(std::string(e->route())).second) << e->route() << " twice";
    EXPECT_EQ(find_endpoint(e->path()), e);
  }
}

}  // namespace
}  // namespace gleaner::extract
