// Prints, as a JSON array for tools/openapi/validate_answers.mjs, the answer every data endpoint
// gives for each of its recorded cases (tests/sites/<site>/data/<name>/cases.json): the recorded
// script output shaped by the endpoint and rendered in the envelope as the server sends it. No
// browser: the recorded output is what the contract suite checks a fresh run still produces.
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "api/envelope.h"
#include "extract/registry.h"

namespace {

using nlohmann::json;

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return json::parse(in);
}

}  // namespace

int main() {
  const std::string source = GLEANER_SOURCE_DIR;
  json out = json::array();
  for (const gleaner::extract::RegisteredEndpoint& e : gleaner::extract::registered_endpoints()) {
    const json cases = read_json(source + "/" + e.data_dir() + "cases.json").at("cases");
    for (const json& c : cases) {
      gleaner::extract::QueryParams query;
      for (const auto& [name, value] : c.at("query").items()) {
        for (const json& v : value.is_array() ? value : json::array({value})) {
          query.emplace(name, v.get<std::string>());
        }
      }
      const json recorded = read_json(source + "/" + e.data_dir() + c.at("recorded").get<std::string>());
      gleaner::api::Request request;
      request.id = "recorded-case";
      request.method = "GET";
      request.path = e.endpoint->path();
      gleaner::api::Response response;
      try {
        response.body = e.endpoint->shape(recorded, e.endpoint->validate(query));
      } catch (const std::exception& error) {
        // An endpoint whose fetch() reads more than one page (redfin's listing follows an
        // address to its property page) records a reading shape() alone does not take: that
        // case is listed as not covered, not passed.
        out.push_back({{"path", e.endpoint->path()},
                       {"case", c.at("name")},
                       {"notCovered", error.what()}});
        continue;
      }
      out.push_back({{"path", e.endpoint->path()},
                     {"method", "get"},
                     {"status", "200"},
                     {"case", c.at("name")},
                     {"answer", json::parse(gleaner::api::render_json(request, response))}});
    }
  }
  std::cout << out.dump() << '\n';
  return 0;
}
