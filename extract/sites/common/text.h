#pragma once
// The site kit's text helpers: numbers, money, durations and dates as pages write them in their
// own locale, turned into the `extractedX` twins of conventions.md; and the few string helpers
// every site shaper needs (one lower(), one text() of the sites' text objects, one way to make a
// link absolute). Each parser returns nullopt rather than guess.
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::extract {

/// ASCII case changes (codes, keys, host names); other bytes are kept.
std::string lower(std::string_view text);
std::string upper(std::string_view text);

/// The text of a site's text object: a string; a number; `{simpleText}`, `{runs: [{text}]}`,
/// `{content}`, `{text}` (YouTube, Google); `{"@value"}` (JSON-LD); an array of any of these joined
/// with ", ". "" for anything else.
std::string text(const nlohmann::json& value);

/// `href` made absolute against the page URL `base` ("/rooms/1" on https://www.airbnb.com/s/x →
/// "https://www.airbnb.com/rooms/1"; "//cdn.x/y.jpg" → "https://cdn.x/y.jpg"). An absolute
/// http(s) `href` is returned as it is; "" for an empty, `javascript:` or `data:` href.
std::string absolute_url(std::string_view base, std::string_view href);

/// URL-safe base64 without padding (RFC 4648 §5): Google's `uule`, the service's own page tokens.
std::string base64url_encode(std::string_view bytes);
/// The bytes of a base64url text (padding optional); nullopt for any other character.
std::optional<std::string> base64url_decode(std::string_view text);

/// Which character a page's locale uses to separate decimals.
enum class DecimalMark { Unknown, Dot, Comma };

/// The decimal mark of a BCP 47 language tag or a site domain's language ("en-US", "es-MX",
/// "de-CH" → Dot; "de", "es", "pt-BR", "fr-CA" → Comma); Unknown when not known.
DecimalMark decimal_mark_of(std::string_view language);

/// `text` with Arabic-Indic digits (U+0660-0669, and the Persian U+06F0-06F9) written as ASCII
/// digits, their decimal mark "٫" as `mark`'s ("." unless Comma) and their group mark "٬" as the
/// other ("٣٤٩٫٠٠ ر.س." → "349.00 ر.س."). The number readers below apply it themselves.
std::string western_digits(std::string_view text, DecimalMark mark = DecimalMark::Unknown);

/// The first number of `text` as the page writes it, with its multiplier (digits of any script
/// western_digits() knows):
///   "3,512" → 3512; "3.512" → 3512 (one separator before exactly three digits groups them,
///   unless `mark` says it is the decimal mark); "8,5" → 8.5; "1.234,50" → 1234.5;
///   "1 234,5" / "1 234,5" → 1234.5; "1.2M" → 1200000; "4,1 k" → 4100; "12 mil" → 12000;
///   "2.5 Mio." → 2500000; "-3.5%" → -3.5.
/// With both separators in one number the last one is the decimal mark.
std::optional<double> parse_number(std::string_view text, DecimalMark mark = DecimalMark::Unknown);

/// A whole count as a page writes it: parse_number() rounded ("1,234,567 views" → 1234567,
/// "1.2M" → 1200000, "12 thousand" → 12000, "(1,024)" → 1024, "1.234 comentarios" → 1234,
/// "1 234 avis" → 1234). nullopt without a number, for a negative one or one past 18 digits.
std::optional<long long> parse_count(std::string_view text,
                                     DecimalMark mark = DecimalMark::Unknown);

/// Every number of `text`, in order, each read as parse_number() reads the first, with its
/// multiplier: "4,7 von 5 Sternen aus 8.294 Rezensionen" with Comma → {4.7, 5, 8294}. Words
/// around them are never needed, so a reader built on it works in every language.
std::vector<double> parse_numbers(std::string_view text, DecimalMark mark = DecimalMark::Unknown);

/// Collapses runs of white space (including U+00A0 and U+202F) to one space and trims.
std::string collapse_whitespace(std::string_view text);

/// Markup text (an attribute value, a sitemap's <loc>) with the entities XML predefines decoded
/// (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, and `&#39;` as HTML writers use it for `'`); any
/// other `&` is left as it is.
std::string decode_basic_entities(std::string_view text);

/// An amount of money, a price or a pay range as a page writes it.
struct Money {
  /// The amount, or the low end of a range.
  double min = 0;
  /// The high end of a range ("$52,000 - $64,500 a year"); absent for a single amount.
  std::optional<double> max;
  /// ISO 4217 code from the symbol or code written ("€" → EUR, "R$" → BRL, "CA$" → CAD, "USD");
  /// `default_currency` when the text has none; "$" alone is USD unless `default_currency` is
  /// another dollar.
  std::string currency;
  /// "hour", "day", "night", "week", "month" or "year" when the text says per what; else "".
  std::string period;
};

/// "€ 1.234,50" → {1234.5, EUR}; "R$ 47,37" → {47.37, BRL}; "$52,000 - $64,500 a year" →
/// {52000, 64500, USD, year}; "From $18.50 an hour" → {18.5, USD, hour}; "US$120/night" →
/// {120, USD, night}; "1 299 kr" with default SEK → {1299, SEK}. nullopt without a number.
std::optional<Money> parse_money(std::string_view text, DecimalMark mark = DecimalMark::Unknown,
                                 std::string_view default_currency = "");

/// A duration in seconds: ISO 8601 ("PT1H30M", "P2D"), clock form ("1:02:03", "17:45"), or words
/// ("1h 30m", "2 hours 5 minutes", "45 min", "3 days", "1 hr"). nullopt otherwise.
std::optional<long long> parse_duration_seconds(std::string_view text);

/// The order of day and month in a date written with numbers only.
enum class DateOrder { Unknown, MonthFirst, DayFirst };

/// The date order of a language tag ("en-US" → MonthFirst; "en-GB", "de", "fr" → DayFirst).
DateOrder date_order_of(std::string_view language);

/// A date as a page writes it, as ISO 8601 "YYYY-MM-DD":
///   absolute: "2025-11-22", "2025-11-22T10:00:00Z" (date part), "11/22/2025" (month first unless
///   `order` says otherwise or the first number is above 12), "22.11.2025", "4 Aug 2022",
///   "Aug 4, 2022", "August 4th, 2022", "4 août 2022", "4. August 2022", "4 de agosto de 2022",
///   "Nov 2025" (the 1st);
///   relative, against `now` (UTC): "today", "just posted", "yesterday", "3 days ago",
///   "an hour ago", "2 weeks ago", "30+ days ago", "il y a 3 jours", "hace 2 días",
///   "vor 3 Tagen", "há 2 dias".
std::optional<std::string> parse_date(std::string_view text,
                                      std::chrono::system_clock::time_point now,
                                      DateOrder order = DateOrder::Unknown);

/// The day (YYYY-MM-DD, UTC) of a time a site's data gives in milliseconds since the epoch; ""
/// for a non-number.
std::string iso_date_of_ms(const nlohmann::json& ms);

/// A date as a results page prints it beside a result ("Dec 16, 2022", "16 Dec 2022",
/// "12.05.2023", "2023年5月1日", "yesterday", "5 days ago", "vor 3 Tagen", "il y a 2 jours",
/// "3 дня назад", "2 日前"): a year, a numeric date, what parse_date reads, or one number with the
/// language's word for "ago". Not a count in that place ("201 Artikel", "Results 1 - 48 of
/// 839621") nor a byline of several parts ("by D Tong · Cited by 5").
bool is_listed_date(std::string_view text);

/// "Mar 2, 2023 · From café chains to ...": the date a results page prints at the head of a
/// snippet (is_listed_date, before the first " · " within 40 bytes), and the rest of the snippet.
std::optional<std::pair<std::string, std::string>> leading_listed_date(std::string_view snippet);

}  // namespace gleaner::extract
