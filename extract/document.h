#pragma once
// What an endpoint whose page is a document (a JSON API answer, Endpoint::reads_document()) reads,
// whichever road fetched it: the document's text as JSON, parsed in C++ once, for both roads.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gleaner::extract {

/// The media type of a Content-Type value: lower case, without its parameters ("" for "").
std::string media_type(std::string_view content_type);

/// `text` without an anti-hijacking prefix an API puts before its JSON (Google's `)]}'` line,
/// `{}&&`, `while(1);`, `for(;;);`), leading white space included; `text` itself when it has none.
std::string_view without_json_guard(std::string_view text);

/// Whether a document's text is JSON (after without_json_guard()) within max_json_depth(): checked
/// without building the value, for a road that only decides whether it got the document (the
/// endpoint's read_document() then parses it once).
bool is_json_document(std::string_view text);

/// The JSON of a document's text (after without_json_guard()), parsed within max_json_depth()
/// (core/json_depth.h); discarded (is_discarded()) when it is not JSON or nests too deep. `J`:
/// nlohmann::json, or nlohmann::ordered_json where the order of the site's keys matters (a request
/// the document hands back to its site).
template <class J = nlohmann::json>
J json_of_document(std::string_view text);

}  // namespace gleaner::extract
