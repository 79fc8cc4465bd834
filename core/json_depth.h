#pragma once
// How deep JSON from outside may nest: request bodies, what pages return (jsScenario's evaluate
// results, the data the endpoints' scripts read through the page reader, JSON embedded in pages)
// and so what jobs store. nlohmann::json parses without recursion, but copying, comparing and
// dumping a value recurse once per level: a 100 KB body of 50,000 nested arrays overflowed a
// thread's stack and took the whole service down. One limit for all of it (configuration entry
// `max_json_depth`, default 64), checked before anything copies the value.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gleaner {

inline constexpr int kDefaultMaxJsonDepth = 64;
/// The largest limit `max_json_depth` may be set to: deep enough for any real document, shallow
/// enough that a value this deep is copied and dumped on any thread's stack.
inline constexpr int kLargestMaxJsonDepth = 1000;

/// The limit in force: kDefaultMaxJsonDepth until set_max_json_depth().
int max_json_depth();
/// Sets the limit for the whole process (once at start, from the configuration; and tests).
/// Throws std::invalid_argument outside 1..kLargestMaxJsonDepth.
void set_max_json_depth(int depth);

/// Whether JSON text nests arrays and objects more than `limit` deep (a scalar is depth 0, `[]`
/// depth 1). Reads the bytes once, without recursion or allocation, so it can run before the
/// text is parsed; text that is not JSON is counted as far as it goes.
bool json_text_deeper_than(std::string_view text, int limit);

/// Whether a value nests arrays and objects more than `limit` deep, walked without recursion.
bool json_deeper_than(const nlohmann::json& value, int limit);

/// Parses JSON text from outside (a page, a stored row): discarded, as json::parse(text, nullptr,
/// false) answers for text that is not JSON, also when it nests deeper than max_json_depth().
nlohmann::json parse_json_within_depth(std::string_view text);

/// Parses a request body: an Error(InvalidJson) when it is not JSON or nests deeper than
/// max_json_depth() (checked before it is parsed). Any JSON value; the caller checks its type.
nlohmann::json parse_json_body(std::string_view body);

/// The message of a value from outside that nests too deep: "<what> nests arrays and objects
/// deeper than 64 levels".
std::string too_deep_message(const std::string& what);

}  // namespace gleaner
