#pragma once
// The response schema of a data endpoint, read from the "## Response" section of its doc
// (docs/endpoints/<site>/<name>.md, embedded in the binary): the one place an answer's shape is
// written down. The OpenAPI document (openapi.cpp) serves it, and the end-to-end suites validate
// every answer they receive against it (ctest openapi_suite_answers), so a field renamed in code
// fails until the doc says so.
//
// The notation of those blocks (also spec/responses.md's):
//   name                      a key (any JSON value)
//   name?                     the same: every key is present only when the page has the data
//   name {a, b?, c {d}}       an object with exactly these keys
//   name [..]   name [url]    an array of anything (of strings)
//   name [{a, b}]             an array of objects
//   name: "x"|"y"             one of these strings
//   {label: value}, {<label>: text}, {"1".."5"}, {...}
//                             an object whose other keys are open (a map, or a shape told elsewhere)
//   "Star rating": [...]      a key that is not an identifier
//   (words)                   a comment, ignored
// Every code block of the section adds its keys (an endpoint may answer one of two shapes).
#include <nlohmann/json.hpp>
#include <string_view>

namespace gleaner::api {

/// The top-level properties (name → JSON Schema) of the answer the doc's Response section shows.
/// Throws std::invalid_argument naming the place when the section is missing or malformed.
nlohmann::json response_properties_from_doc(std::string_view markdown);

}  // namespace gleaner::api
