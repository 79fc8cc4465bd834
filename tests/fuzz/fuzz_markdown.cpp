// The markdown converter over any JSON tree: markdown.h promises that odd input (non-arrays,
// unknown tags, missing or mistyped attributes) is tolerated, never thrown on. Bytes that are not
// JSON are skipped; the snapshot reader is run on the same value too.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "extract/content/markdown.h"
#include "extract/content/snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto tree = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (tree.is_discarded()) return 0;
  (void)gleaner::content::to_markdown(tree);
  try {
    const nlohmann::json snapshot = gleaner::content::parse_snapshot(tree);
    if (snapshot.is_object() && snapshot.contains("tree")) {
      (void)gleaner::content::to_markdown(snapshot["tree"]);
    }
  } catch (const gleaner::Error&) {
  }
  return 0;
}
