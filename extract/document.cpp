#include "extract/document.h"

#include <cctype>

#include "core/json_depth.h"

namespace gleaner::extract {

std::string media_type(std::string_view content_type) {
  std::string out(content_type.substr(0, content_type.find(';')));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view without_json_guard(std::string_view text) {
  std::string_view s = text;
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\n' || s.front() == '\r' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  if (s.starts_with(")]}'")) {
    const std::size_t line = s.find('\n');
    return line == std::string_view::npos ? std::string_view() : s.substr(line + 1);
  }
  for (std::string_view guard : {"{}&&", "while(1);", "for(;;);"}) {
    if (s.starts_with(guard)) return s.substr(guard.size());
  }
  return text;
}

bool is_json_document(std::string_view text) {
  const std::string_view json = without_json_guard(text);
  return !json_text_deeper_than(json, max_json_depth()) && nlohmann::json::accept(json);
}

template <class J>
J json_of_document(std::string_view text) {
  const std::string_view json = without_json_guard(text);
  if (json_text_deeper_than(json, max_json_depth())) return J(J::value_t::discarded);
  return J::parse(json, nullptr, /*allow_exceptions=*/false);
}

template nlohmann::json json_of_document<nlohmann::json>(std::string_view);
template nlohmann::ordered_json json_of_document<nlohmann::ordered_json>(std::string_view);

}  // namespace gleaner::extract
