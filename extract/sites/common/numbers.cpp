#include "extract/sites/common/numbers.h"

#include <cmath>
#include <cstdlib>

namespace gleaner::extract {
namespace {

bool digit(char c) {
  return c >= '0' && c <= '9';
}

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// The first run of digits with ',' '.' and (thin/non-breaking) spaces between digit groups.
struct NumberSpan {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last digit
};

std::optional<NumberSpan> first_number(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && !digit(s[i])) ++i;
  if (i == s.size()) return std::nullopt;
  NumberSpan span{i, i};
  while (i < s.size()) {
    if (digit(s[i])) {
      ++i;
      span.end = i;
    } else if ((s[i] == ',' || s[i] == '.') && i + 1 < s.size() && digit(s[i + 1])) {
      ++i;
    } else {
      break;
    }
  }
  return span;
}

// The word or letter right after the number (skipping one space), lower case.
std::string_view suffix_after(std::string_view s, std::size_t end) {
  std::size_t i = end;
  if (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

double multiplier_of(std::string_view rest) {
  auto starts = [&](std::string_view word) {
    if (rest.size() < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i) {
      if (lower(rest[i]) != word[i]) return false;
    }
    // A single letter must stand alone ("1.2M views", not "12 minutes").
    return word.size() > 1 || rest.size() == 1 ||
           !((rest[1] >= 'a' && rest[1] <= 'z') || (rest[1] >= 'A' && rest[1] <= 'Z'));
  };
  if (starts("thousand") || starts("k")) return 1e3;
  if (starts("million") || starts("m")) return 1e6;
  if (starts("billion") || starts("b")) return 1e9;
  return 1;
}

}  // namespace

std::optional<long long> parse_count(std::string_view text) {
  auto span = first_number(text);
  if (!span) return std::nullopt;
  std::string_view num = text.substr(span->begin, span->end - span->begin);
  double multiplier = multiplier_of(suffix_after(text, span->end));

  std::string digits;
  if (multiplier > 1) {
    // "1.2M" / "1,2 M": the separator is a decimal point.
    for (char c : num) digits += (c == ',') ? '.' : c;
    double v = std::strtod(digits.c_str(), nullptr);
    return static_cast<long long>(std::llround(v * multiplier));
  }
  for (std::size_t i = 0; i < num.size(); ++i) {
    char c = num[i];
    if (digit(c)) {
      digits += c;
      continue;
    }
    // A separator followed by exactly three digits is grouping; otherwise the number ends.
    std::size_t j = i + 1;
    while (j < num.size() && digit(num[j])) ++j;
    if (j - (i + 1) != 3) break;
  }
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  return std::strtoll(digits.c_str(), nullptr, 10);
}

std::optional<double> parse_price(std::string_view text) {
  auto span = first_number(text);
  if (!span) return std::nullopt;
  std::string_view num = text.substr(span->begin, span->end - span->begin);
  // The last separator is decimal when exactly two digits follow it ("38,50", "1,299.99").
  std::size_t last = num.find_last_of(".,");
  std::size_t decimal_at = std::string_view::npos;
  if (last != std::string_view::npos && num.size() - last - 1 == 2) decimal_at = last;
  std::string clean;
  for (std::size_t i = 0; i < num.size(); ++i) {
    if (digit(num[i])) {
      clean += num[i];
    } else if (i == decimal_at) {
      clean += '.';
    }
  }
  if (clean.empty()) return std::nullopt;
  return std::strtod(clean.c_str(), nullptr);
}

std::optional<double> parse_decimal(std::string_view text) {
  auto span = first_number(text);
  if (!span) return std::nullopt;
  std::string clean;
  bool seen_point = false;
  for (char c : text.substr(span->begin, span->end - span->begin)) {
    if (digit(c)) {
      clean += c;
    } else if (!seen_point) {
      clean += '.';
      seen_point = true;
    } else {
      break;
    }
  }
  return std::strtod(clean.c_str(), nullptr);
}

std::string collapse_whitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    bool is_space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    // U+00A0 (C2 A0) and U+202F (E2 80 AF) are spaces to a reader.
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xA0) {
      is_space = true;
      ++i;
    } else if (c == 0xE2 && i + 2 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               static_cast<unsigned char>(text[i + 2]) == 0xAF) {
      is_space = true;
      i += 2;
    }
    if (is_space) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(c);
  }
  return out;
}

}  // namespace gleaner::extract
