#include "extract/field_health.h"

#include <string_view>

namespace gleaner::extract {
namespace {

using nlohmann::json;

bool non_empty(const json& v) {
  if (v.is_null()) return false;
  // json::empty() is false for every string: compare the text itself.
  if (v.is_string()) return !v.get_ref<const std::string&>().empty();
  if (v.is_array() || v.is_object()) return !v.empty();
  return true;
}

bool present(const json& node, std::string_view path) {
  if (path.empty()) return non_empty(node);
  const std::size_t dot = path.find('.');
  std::string_view step = path.substr(0, dot);
  const std::string_view rest = dot == std::string_view::npos ? "" : path.substr(dot + 1);
  const bool each = step.ends_with("[]");
  if (each) step.remove_suffix(2);
  if (!node.is_object()) return false;
  auto it = node.find(std::string(step));
  if (it == node.end()) return false;
  if (!each) return present(*it, rest);
  if (!it->is_array()) return false;
  for (const json& item : *it) {
    if (present(item, rest)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::pair<std::string, bool>> field_presence(const json& body,
                                                         const std::vector<std::string>& fields) {
  std::vector<std::pair<std::string, bool>> out;
  out.reserve(fields.size());
  for (const std::string& f : fields) out.emplace_back(f, present(body, f));
  return out;
}

}  // namespace gleaner::extract
