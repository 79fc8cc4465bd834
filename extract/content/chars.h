#pragma once
// ASCII character classes shared by the converters (locale-free, unlike <cctype>, and safe on the
// bytes of UTF-8 text).
#include <string>
#include <string_view>

namespace gleaner::content::chars {

/// The whitespace HTML collapses: space, tab, LF, CR, FF (not U+00A0).
constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
constexpr bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr bool is_alnum(char c) {
  return is_alpha(c) || is_digit(c);
}
/// ASCII punctuation as CommonMark defines it.
constexpr bool is_punct(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}
constexpr char to_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_lower(c);
  return out;
}

/// `s` without leading and trailing HTML whitespace.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// Whether `s` starts with `prefix`, ignoring ASCII case.
inline bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (to_lower(s[i]) != to_lower(prefix[i])) return false;
  }
  return true;
}

}  // namespace gleaner::content::chars
