#include "store/row_size.h"

#include <algorithm>
#include <set>

namespace gleaner::store {
namespace {

using nlohmann::json;

/// Bytes cut beyond the excess, for the `truncated` entry the cut adds.
constexpr std::size_t kSlack = 64;

bool kept_whole(const std::string& name) {
  return name == "url" || name == "truncated";
}

/// Cuts `value` by at least `bytes` of its JSON text where it can; false when nothing is left
/// to cut of it (it is then left out of the row by the caller).
bool shrink(json& value, std::size_t bytes) {
  if (value.is_string()) {
    std::string& text = value.get_ref<std::string&>();
    // Every byte of the string is at least one byte of its JSON text.
    std::size_t keep = text.size() > bytes ? text.size() - bytes : 0;
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
    text.resize(keep);
    return keep > 0;
  }
  if (value.is_array()) {
    std::size_t removed = 0;
    while (!value.empty() && removed < bytes) {
      removed += value.back().dump().size() + 1;  // the item and its comma
      value.erase(value.size() - 1);
    }
    return !value.empty();
  }
  return false;
}

}  // namespace

std::string capped_row_text(json& row, std::size_t max_bytes) {
  std::string text = row.dump();
  if (text.size() <= max_bytes || !row.is_object()) return text;
  std::set<std::string> spent;  // fields cut to nothing: left out
  while (text.size() > max_bytes) {
    // The largest field left to cut.
    std::string largest;
    std::size_t largest_size = 0;
    for (const auto& [name, value] : row.items()) {
      if (kept_whole(name) || spent.count(name)) continue;
      const std::size_t size = value.dump().size();
      if (size > largest_size) {
        largest = name;
        largest_size = size;
      }
    }
    if (largest.empty()) break;  // nothing left to cut: stored as it is
    json& field = row[largest];
    if (!shrink(field, text.size() - max_bytes + kSlack)) {
      row.erase(largest);
      spent.insert(largest);
    }
    json& cut = row["truncated"];
    if (!cut.is_array()) cut = json::array();
    if (std::find(cut.begin(), cut.end(), json(largest)) == cut.end()) cut.push_back(largest);
    text = row.dump();
  }
  return text;
}

}  // namespace gleaner::store
