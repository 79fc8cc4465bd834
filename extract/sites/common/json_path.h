#pragma once
// Reading deeply nested site data (YouTube's renderers, Google's positional `ds:` arrays) without
// a throw at every missing step: at(root, {"contents", 0, "title"}) is the value there or null.
// Shared by the site shapers of this folder.
#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace gleaner::extract::site_json {

/// One step of a path: an object key or an array index.
struct Step {
  Step(const char* k) : key(k) {}  // NOLINT: paths read as literals
  Step(int i)
      : index(i < 0 ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(i)) {}  // NOLINT
  const char* key = nullptr;
  std::size_t index = 0;
};

/// The value at `path` below `root`, or a null value when any step is missing or of another type.
inline const nlohmann::json& at(const nlohmann::json& root, std::initializer_list<Step> path) {
  static const nlohmann::json kNull;
  const nlohmann::json* node = &root;
  for (const Step& step : path) {
    if (step.key) {
      if (!node->is_object()) return kNull;
      auto it = node->find(step.key);
      if (it == node->end()) return kNull;
      node = &*it;
    } else {
      if (!node->is_array() || step.index >= node->size()) return kNull;
      node = &(*node)[step.index];
    }
  }
  return *node;
}

/// The string held by `v`, or "" for anything else.
inline std::string str(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : std::string();
}

/// ASCII case changes (country and language codes).
inline std::string ascii_upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}
inline std::string ascii_lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

}  // namespace gleaner::extract::site_json
