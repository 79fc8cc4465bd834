#pragma once
// Numbers as sites write them, for the `extractedX` twins of text fields (conventions.md:
// `views: "1.2M views"` → `extractedViews: 1200000`). Each returns nullopt rather than guess.
#include <optional>
#include <string>
#include <string_view>

namespace gleaner::extract {

/// A count such as "1,234,567 views", "About 2,640,000,000 results", "1.2M", "3.4K subscribers",
/// "12 thousand", "(1,024)". The first number in the text, with an optional K/M/B (thousand,
/// million, billion) multiplier right after it. Grouping commas (or dots when followed by exactly
/// three digits and no multiplier, "1.234.567") are removed.
std::optional<long long> parse_count(std::string_view text);

/// A price such as "$1,299.99", "£45", "R$ 38,50", "1.299,00 €", "From $899": the first number,
/// with a decimal comma recognised when it is followed by exactly two digits at the end of the
/// number. The currency is not interpreted here.
std::optional<double> parse_price(std::string_view text);

/// A decimal such as "4.5", "4,5" (rating text) at the start of the first number in `text`.
std::optional<double> parse_decimal(std::string_view text);

/// Collapses runs of white space (including non-breaking spaces) to one space and trims.
std::string collapse_whitespace(std::string_view text);

}  // namespace gleaner::extract
