#pragma once
// The page's hyperlinks for `extractedLinks`.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gleaner::content {

/// The snapshot's `links` (absolute hrefs in document order, as the browser resolved them against
/// the document's base URL) cleaned for the client:
/// - only absolute URLs (with a scheme); javascript:, vbscript:, mailto:, tel:, sms:, data:,
///   blob:, about: and file: links are dropped, as are empty and non-string entries;
/// - the fragment is removed (`page#section` is `page`), except hash-router fragments
///   (`#/path`, `#!/path`), which name another view of a single-page app;
/// - de-duplicated on the result, keeping the first occurrence, in document order.
std::vector<std::string> extract_links(const nlohmann::json& links);

}  // namespace gleaner::content
