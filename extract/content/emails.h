#pragma once
// The e-mail addresses a page shows, for `extractedEmails`.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gleaner::content {

/// Addresses found in the page's visible `text` (the snapshot's innerText) and in its mailto:
/// `links` (the snapshot's links, percent-decoded; `?subject=...` ignored; several addresses per
/// link allowed), in order of first appearance: text first, then mailto: links.
/// Each address is `local@domain` with the domain lower-cased; de-duplicated ignoring case.
/// Rejected as false positives: no dot in the domain (foo@bar), a top-level domain that is not
/// 2-63 letters (name@1.2.3, x@y.c0m) or is a file extension (image@2x.png, icon@3x.webp,
/// bundle@1.0.js), labels over 63 characters or starting/ending with '-', a local part over 64
/// characters or with dots at its ends or doubled, an address over 254 characters (RFC 5321),
/// and addresses glued to non-ASCII letters (internationalized addresses are not matched).
std::vector<std::string> extract_emails(std::string_view text, const nlohmann::json& links);

}  // namespace gleaner::content
