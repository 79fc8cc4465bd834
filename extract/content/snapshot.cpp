#include "extract/content/snapshot.h"

#include "gleaner_content_embedded.h"

namespace gleaner::content {

std::string_view snapshot_script() { return scripts::snapshot_js; }

nlohmann::json snapshot_args(const SnapshotParts& parts) {
  return {{"html", parts.html},   {"text", parts.text}, {"tree", parts.tree},
          {"links", parts.links}, {"meta", parts.meta}, {"maxChars", parts.max_chars}};
}

}  // namespace gleaner::content
