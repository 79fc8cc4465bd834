#pragma once
// How large a stored job row may be (docs/jobs.md "Sizes"): a jsRendering: false batch row of a
// 10 MB page with html, text and markdown stored about 31 MB for 1 credit (issue 41). A row whose
// JSON text passes the limit is stored cut, its largest fields first, and names what was cut in
// its `truncated` list, as /scrape/web's answer names the parts it cut.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace gleaner::store {

/// A job row's JSON text at most `max_bytes` long, `row` changed to what the text holds. When the
/// row is longer, its fields are cut, largest first, until it fits: a string to its first bytes
/// (never inside a UTF-8 character), an array to its first items, any other value left out; each
/// field cut is added to the row's `truncated` array (created when absent). `url` and `truncated`
/// are never cut. A row that is not an object, or that does not fit with everything else cut, is
/// left as it is.
std::string capped_row_text(nlohmann::json& row, std::size_t max_bytes);

}  // namespace gleaner::store
