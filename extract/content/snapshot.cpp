#include "extract/content/snapshot.h"

#include "core/error.h"
#include "gleaner_content_embedded.h"

#include <string>

namespace gleaner::content {

std::string_view snapshot_script() {
  return scripts::snapshot_js;
}

std::string_view main_content_script() {
  return scripts::main_content_js;
}

nlohmann::json snapshot_args(const SnapshotParts& parts) {
  return {{"html", parts.html},         {"text", parts.text}, {"tree", parts.tree},
          {"links", parts.links},       {"meta", parts.meta}, {"maxChars", parts.max_chars},
          {"asString", parts.as_string}};
}

nlohmann::json parse_snapshot(nlohmann::json returned) {
  if (returned.is_array() && returned.size() == 3 && returned[0].is_string()) {
    // [JSON text of the rest, html or null, text or null]
    nlohmann::json parts = std::move(returned);
    returned = nlohmann::json::parse(parts[0].get_ref<const std::string&>(), nullptr, false);
    if (returned.is_object()) {
      if (parts[1].is_string()) returned["html"] = std::move(parts[1]);
      if (parts[2].is_string()) returned["text"] = std::move(parts[2]);
    }
  } else if (returned.is_string()) {
    returned = nlohmann::json::parse(returned.get_ref<const std::string&>(), nullptr, false);
  }
  if (!returned.is_object()) {
    throw Error(ErrorCode::Internal, "the page could not be read",
                "page snapshot is not a JSON object: " + returned.dump().substr(0, 200));
  }
  return returned;
}

}  // namespace gleaner::content
