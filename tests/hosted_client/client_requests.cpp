#include "tests/hosted_client/client_requests.h"

#include <fstream>

#include "extract/url.h"

namespace gleaner::testing::hosted_client {
namespace {

using nlohmann::json;

// A value as the node's query string writes it: numbers as digits, booleans as true/false.
std::string text_of(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

// `name` holding `value` as the node's qs encoding writes it: an array's items indexed
// (`lr[0]`, and `homeTypes[][0]` for the field the node names `homeTypes[]`).
void put(extract::QueryParams& q, const std::string& name, const json& value) {
  if (!value.is_array()) {
    q.emplace(name, text_of(value));
    return;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    q.emplace(name + "[" + std::to_string(i) + "]", text_of(value[i]));
  }
}

// The base request with `name` set to `value` and the partners it needs: the other members of
// their exclusive groups dropped.
Shape with_field(const json& op, const std::string& name, const json& value, std::string varies) {
  json base = op.at("base");
  json set = {{name, value}};
  if (op.contains("needs") && op["needs"].contains(name)) {
    for (const auto& [k, v] : op["needs"][name].items()) set[k] = v;
  }
  for (const json& group : op.value("exclusive", json::array())) {
    bool member = false;
    for (const json& g : group) member = member || set.contains(g.get<std::string>());
    if (!member) continue;
    for (const json& g : group) {
      if (!set.contains(g.get<std::string>())) base.erase(g.get<std::string>());
    }
  }
  for (const auto& [k, v] : set.items()) base[k] = v;
  Shape shape{op.at("path").get<std::string>(), query_of(base), std::move(varies), ""};
  const json unserved = requests().at("unserved").value(shape.path, json::object());
  if (unserved.contains(name) && value.is_string()) {
    for (const json& u : unserved[name]) {
      if (u == value) shape.unserved_parameter = name;
    }
  }
  return shape;
}

}  // namespace

const json& requests() {
  static const json doc = [] {
    std::ifstream in(std::string(GLEANER_SOURCE_DIR) + "/tests/hosted_client/client_requests.json");
    return json::parse(in);
  }();
  return doc;
}

extract::QueryParams query_of(const json& object) {
  extract::QueryParams q;
  for (const auto& [name, value] : object.items()) put(q, name, value);
  return q;
}

std::string encode(const extract::QueryParams& query) {
  // As the node's request library writes a query: percent-encoded, a space as %20 (form_encode
  // writes a literal '+' as %2B, so every '+' it leaves is a space).
  const auto percent = [](const std::string& text) {
    std::string out;
    for (char c : extract::form_encode(text))
      out += c == '+' ? std::string("%20") : std::string(1, c);
    return out;
  };
  std::string out;
  for (const auto& [k, v] : query) {
    if (!out.empty()) out += '&';
    out += percent(k) + "=" + percent(v);
  }
  return out;
}

std::vector<Shape> shapes_of(const json& op) {
  std::vector<Shape> out;
  out.push_back({op.at("path").get<std::string>(), query_of(op.at("base")), "base request", ""});
  for (const auto& [name, field] : op.at("fields").items()) {
    const std::string type = field.at("type");
    if (type == "options") {
      for (const json& v : field.at("values")) {
        out.push_back(with_field(op, name, v, name + "=" + v.get<std::string>()));
      }
    } else if (type == "multiOptions") {
      for (const json& v : field.at("values")) {
        out.push_back(
            with_field(op, name, json::array({v}), name + " [" + v.get<std::string>() + "]"));
      }
      out.push_back(with_field(op, name, field.at("values"), name + " [every value]"));
    } else if (type == "boolean") {
      out.push_back(with_field(op, name, true, name + "=true"));
      out.push_back(with_field(op, name, false, name + "=false"));
    } else {
      out.push_back(with_field(op, name, field.at("sample"), name + " (" + type + ")"));
    }
  }
  return out;
}

}  // namespace gleaner::testing::hosted_client
