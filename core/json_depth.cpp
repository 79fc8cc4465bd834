#include "core/json_depth.h"

#include <atomic>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/error.h"

namespace gleaner {
namespace {

std::atomic<int> g_max_json_depth{kDefaultMaxJsonDepth};

}  // namespace

int max_json_depth() {
  return g_max_json_depth.load(std::memory_order_relaxed);
}

void set_max_json_depth(int depth) {
  if (depth < 1 || depth > kLargestMaxJsonDepth) {
    throw std::invalid_argument("max_json_depth must be from 1 to " +
                                std::to_string(kLargestMaxJsonDepth));
  }
  g_max_json_depth.store(depth, std::memory_order_relaxed);
}

bool json_text_deeper_than(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, a quote included
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > limit) return true;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return false;
}

bool json_deeper_than(const nlohmann::json& value, int limit) {
  // Each entry: a container and its depth (1 for the outermost).
  std::vector<std::pair<const nlohmann::json*, int>> pending;
  if (value.is_structured()) pending.emplace_back(&value, 1);
  while (!pending.empty()) {
    const auto [container, depth] = pending.back();
    pending.pop_back();
    if (depth > limit) return true;
    for (const auto& child : *container) {
      if (child.is_structured()) pending.emplace_back(&child, depth + 1);
    }
  }
  return false;
}

nlohmann::json parse_json_within_depth(std::string_view text) {
  if (json_text_deeper_than(text, max_json_depth())) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

nlohmann::json parse_json_body(std::string_view body) {
  if (json_text_deeper_than(body, max_json_depth())) {
    throw Error(ErrorCode::InvalidJson, too_deep_message("the request body"));
  }
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded())
    throw Error(ErrorCode::InvalidJson, "the request body is not valid JSON");
  return parsed;
}

std::string too_deep_message(const std::string& what) {
  return what + " nests arrays and objects deeper than " + std::to_string(max_json_depth()) +
         " levels";
}

}  // namespace gleaner
