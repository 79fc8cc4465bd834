#pragma once
// Building the URLs endpoints load: query strings encoded the way the sites' own forms encode them
// (application/x-www-form-urlencoded: space → '+', unreserved characters kept, the rest %XX in
// upper case), so the request matches what a person's browser sends.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gleaner::extract {

/// Encodes one query name or value as an HTML form does (space → '+').
std::string form_encode(std::string_view text);
/// Encodes one path segment (space → %20, '/' encoded).
std::string path_encode(std::string_view segment);
/// Decodes %XX and '+' (for tests and for reading links back).
std::string form_decode(std::string_view text);
/// The first value of the query parameter `name` in `url` (before any '#'), form-decoded
/// (URLSearchParams.get()); nullopt when the query has no such parameter.
std::optional<std::string> query_value(std::string_view url, std::string_view name);

/// A URL under construction: base (scheme, host, path) plus query pairs in the order added.
class UrlBuilder {
 public:
  explicit UrlBuilder(std::string base) : base_(std::move(base)) {}
  /// Appends name=value (both form-encoded).
  UrlBuilder& add(std::string_view name, std::string_view value);
  /// Appends name=value with `value` already encoded (for values sites write with raw ':' or ';',
  /// e.g. Google's `ibp=htl;events`); only characters that would break the query are encoded.
  UrlBuilder& add_raw(std::string_view name, std::string_view value);
  std::string str() const;

 private:
  std::string base_;
  std::vector<std::pair<std::string, std::string>> query_;
};

}  // namespace gleaner::extract
