#include "extract/sites/common/text.h"

#include <array>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "core/regex.h"

namespace gleaner::extract {
namespace {

using nlohmann::json;

bool digit(char c) {
  return c >= '0' && c <= '9';
}
bool alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80;
}

// Spaces a page may put between digit groups: ' ', U+00A0 (C2 A0), U+202F (E2 80 AF), U+2009
// (E2 80 89), and the apostrophe of Swiss numbers, typed (') or typographic (U+2019, E2 80 99:
// Google's "1’780’000"). Returns the byte length of the one at `i`.
std::size_t group_space_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) return 0;
  if (s[i] == ' ' || s[i] == '\'') return 1;
  if (s.compare(i, 2, "\xC2\xA0") == 0) return 2;
  if (s.compare(i, 3, "\xE2\x80\xAF") == 0 || s.compare(i, 3, "\xE2\x80\x89") == 0 ||
      s.compare(i, 3, "\xE2\x80\x99") == 0) {
    return 3;
  }
  return 0;
}

std::size_t digits_from(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && digit(s[i + n])) ++n;
  return n;
}

// One number as written: its digits with the separators between them, where it ends, and its
// sign.
struct NumberToken {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool negative = false;
  std::string digits_and_marks;  // digits and '.' ',' only (group spaces dropped)
};

std::optional<NumberToken> number_at_or_after(std::string_view s, std::size_t from) {
  std::size_t i = from;
  while (i < s.size() && !digit(s[i])) ++i;
  if (i >= s.size()) return std::nullopt;
  NumberToken t;
  t.begin = i;
  if (i > 0 && s[i - 1] == '-') t.negative = true;
  if (i >= 3 && s.compare(i - 3, 3, "\xE2\x88\x92") == 0) t.negative = true;  // U+2212 minus
  while (i < s.size()) {
    if (digit(s[i])) {
      t.digits_and_marks += s[i++];
      continue;
    }
    if ((s[i] == ',' || s[i] == '.') && i + 1 < s.size() && digit(s[i + 1])) {
      t.digits_and_marks += s[i++];
      continue;
    }
    // A group space counts only before exactly three digits that end the group.
    if (std::size_t w = group_space_at(s, i); w > 0 && digits_from(s, i + w) == 3) {
      i += w;
      continue;
    }
    break;
  }
  t.end = i;
  return t;
}

// The value of a token's digits and marks, deciding which mark is the decimal one.
std::optional<double> value_of(const std::string& t, DecimalMark mark) {
  const auto last_dot = t.rfind('.');
  const auto last_comma = t.rfind(',');
  char decimal = 0;
  if (last_dot != std::string::npos && last_comma != std::string::npos) {
    decimal = last_dot > last_comma ? '.' : ',';
  } else if (last_dot != std::string::npos || last_comma != std::string::npos) {
    const char c = last_dot != std::string::npos ? '.' : ',';
    const std::size_t pos = last_dot != std::string::npos ? last_dot : last_comma;
    const bool once = t.find(c) == pos;
    const std::size_t after = t.size() - pos - 1;
    if (!once) {
      decimal = 0;  // "1.234.567": every one groups
    } else if (after != 3) {
      decimal = c;  // "8,5", "4.25": a group has three digits
    } else if (mark != DecimalMark::Unknown) {
      decimal = (mark == DecimalMark::Comma) == (c == ',') ? c : 0;
    } else {
      decimal = (pos == 1 && t[0] == '0') ? c : 0;  // "0.125" cannot be grouped
    }
  }
  std::string plain;
  for (char ch : t) {
    if (digit(ch))
      plain += ch;
    else if (ch == decimal)
      plain += '.';
  }
  if (plain.empty() || plain == ".") return std::nullopt;
  return std::strtod(plain.c_str(), nullptr);
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The multiplier word right after a number ("1.2M", "4,1 k", "12 mil", "2,5 Mio."), or 1.
double multiplier_after(std::string_view s, std::size_t end) {
  std::size_t i = end;
  while (std::size_t w = group_space_at(s, i)) i += w;
  std::size_t j = i;
  while (j < s.size() && alpha(s[j])) ++j;
  const std::string word = lower_ascii(s.substr(i, j - i));
  // "850 m du centre", "12 m": a lower-case m apart from its number is metres or minutes;
  // "£1.2m" and "1,2 M" are millions.
  if (s.substr(i, j - i) == "m" && i > end) return 1;
  static const std::pair<std::string_view, double> kWords[] = {
      {"k", 1e3},        {"thousand", 1e3}, {"mil", 1e3},   {"tys", 1e3},   {"tsd", 1e3},
      {"m", 1e6},        {"mm", 1e6},       {"mn", 1e6},    {"mio", 1e6},   {"million", 1e6},
      {"millions", 1e6}, {"millones", 1e6}, {"b", 1e9},     {"bn", 1e9},    {"billion", 1e9},
      {"mrd", 1e9},      {"lakh", 1e5},     {"lakhs", 1e5}, {"crore", 1e7},
  };
  for (const auto& [w, m] : kWords) {
    if (word == w) return m;
  }
  return 1;
}

// ---- currencies ---------------------------------------------------------------------------

struct CurrencySign {
  std::string_view sign;
  std::string_view code;
};

// Longest first, so "R$" is not read as "$".
constexpr CurrencySign kSigns[] = {
    {"US$", "USD"},
    {"CA$", "CAD"},
    {"AU$", "AUD"},
    {"NZ$", "NZD"},
    {"HK$", "HKD"},
    {"MX$", "MXN"},
    {"NT$", "TWD"},
    {"Rs.", "INR"},
    {"R$", "BRL"},
    {"C$", "CAD"},
    {"A$", "AUD"},
    {"S$", "SGD"},
    {"zł", "PLN"},
    {"Kč", "CZK"},
    {"\xE2\x82\xAC", "EUR"},
    {"\xC2\xA3", "GBP"},
    {"\xC2\xA5", "JPY"},
    {"\xE2\x82\xB9", "INR"},
    {"\xE2\x82\xA9", "KRW"},
    {"\xE2\x82\xBD", "RUB"},
    {"\xE2\x82\xBA", "TRY"},
    {"\xE2\x82\xAA", "ILS"},
    {"\xE0\xB8\xBF", "THB"},
    {"\xE2\x82\xAB", "VND"},
    {"\xE2\x82\xB1", "PHP"},
    {"\xE2\x82\xA6", "NGN"},
    {"\xEF\xBF\xA5", "CNY"},
    {"Rp", "IDR"},
    {"RM", "MYR"},
    {"Rs", "INR"},
    {"Fr.", "CHF"},
    {"kr", ""},
    {"$", "USD"},
};

constexpr std::string_view kCodes[] = {
    "USD", "EUR", "GBP", "JPY", "CNY", "INR", "BRL", "CAD", "AUD", "NZD", "CHF",
    "SEK", "NOK", "DKK", "ISK", "PLN", "CZK", "HUF", "RON", "BGN", "TRY", "RUB",
    "UAH", "ILS", "AED", "SAR", "ZAR", "MXN", "ARS", "CLP", "COP", "PEN", "KRW",
    "TWD", "HKD", "SGD", "MYR", "THB", "IDR", "PHP", "VND", "EGP", "MAD", "NGN",
};

bool is_dollar(std::string_view code) {
  return code == "USD" || code == "CAD" || code == "AUD" || code == "NZD" || code == "HKD" ||
         code == "SGD" || code == "MXN" || code == "TWD";
}

std::string currency_in(std::string_view s, std::string_view default_currency) {
  // An ISO code written as a word wins ("USD 120", "120 EUR").
  for (std::size_t i = 0; i + 3 <= s.size(); ++i) {
    if ((i > 0 && alpha(s[i - 1])) || (i + 3 < s.size() && alpha(s[i + 3]))) continue;
    for (std::string_view code : kCodes) {
      if (s.compare(i, 3, code) == 0) return std::string(code);
    }
  }
  for (const CurrencySign& c : kSigns) {
    const std::size_t at = s.find(c.sign);
    if (at == std::string_view::npos) continue;
    // Letter signs ("kr", "Rp", "RM", "Rs") must stand as words of their own; a symbol ("€")
    // may follow anything, a no-break space too ("128\u00a0€" on airbnb.es).
    const bool letter_sign =
        (c.sign[0] >= 'a' && c.sign[0] <= 'z') || (c.sign[0] >= 'A' && c.sign[0] <= 'Z');
    if (letter_sign &&
        ((at > 0 && alpha(s[at - 1])) ||
         (at + c.sign.size() < s.size() && c.sign.back() != '.' && alpha(s[at + c.sign.size()])))) {
      continue;
    }
    if (c.sign == "kr") return std::string(default_currency);
    if (c.sign == "$" && is_dollar(default_currency)) return std::string(default_currency);
    return std::string(c.code);
  }
  return std::string(default_currency);
}

std::string period_in(std::string_view s) {
  const std::string t = lower_ascii(s);
  auto has = [&](std::string_view w) { return t.find(w) != std::string::npos; };
  if (has("hour") || has("/hr") || has("/h ") || t.ends_with("/h") || has("heure") ||
      has("stunde") || has("hora")) {
    return "hour";
  }
  if (has("night") || has("nuit") || has("noche") || has("nacht") || has("noite")) return "night";
  if (has("week") || has("semaine") || has("woche") || has("semana")) return "week";
  if (has("month") || has("/mo") || has("mois") || has("monat") || has(" mes") || has("/mes")) {
    return "month";
  }
  if (has("year") || has("/yr") || has("annual") || has("annum") || has("jahr") || has(" an ") ||
      has("/an") || has(" ano") || has("/ano") || has("año")) {
    return "year";
  }
  if (has(" day") || has("/day") || has("daily") || has(" jour") || has(" tag") || has(" dia")) {
    return "day";
  }
  return "";
}

// ---- dates --------------------------------------------------------------------------------

using Days = std::chrono::sys_days;

std::string iso_date(std::chrono::year_month_day d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(d.year()),
                static_cast<unsigned>(d.month()), static_cast<unsigned>(d.day()));
  return buf;
}

std::optional<std::string> valid_date(int y, int m, int d) {
  std::chrono::year_month_day ymd{std::chrono::year(y),
                                  std::chrono::month(static_cast<unsigned>(m)),
                                  std::chrono::day(static_cast<unsigned>(d))};
  if (!ymd.ok() || y < 1900 || y > 2200) return std::nullopt;
  return iso_date(ymd);
}

struct MonthName {
  std::string_view name;
  int month;
};

// Month names and abbreviations in English, French, German, Spanish, Portuguese, Italian and
// Dutch (lower case; a trailing '.' is dropped before matching).
constexpr MonthName kMonths[] = {
    {"january", 1},    {"jan", 1},        {"janvier", 1},   {"janv", 1},      {"januar", 1},
    {"jänner", 1},     {"enero", 1},      {"ene", 1},       {"janeiro", 1},   {"gennaio", 1},
    {"gen", 1},        {"januari", 1},    {"february", 2},  {"feb", 2},       {"février", 2},
    {"fevrier", 2},    {"févr", 2},       {"fevr", 2},      {"februar", 2},   {"febrero", 2},
    {"fevereiro", 2},  {"fev", 2},        {"febbraio", 2},  {"februari", 2},  {"march", 3},
    {"mar", 3},        {"mars", 3},       {"märz", 3},      {"mär", 3},       {"marzo", 3},
    {"março", 3},      {"marco", 3},      {"maart", 3},     {"mrt", 3},       {"april", 4},
    {"apr", 4},        {"avril", 4},      {"avr", 4},       {"abril", 4},     {"abr", 4},
    {"aprile", 4},     {"may", 5},        {"mai", 5},       {"mayo", 5},      {"maio", 5},
    {"maggio", 5},     {"mag", 5},        {"mei", 5},       {"june", 6},      {"jun", 6},
    {"juin", 6},       {"juni", 6},       {"junio", 6},     {"junho", 6},     {"giugno", 6},
    {"giu", 6},        {"july", 7},       {"jul", 7},       {"juillet", 7},   {"juil", 7},
    {"juli", 7},       {"julio", 7},      {"julho", 7},     {"luglio", 7},    {"lug", 7},
    {"august", 8},     {"aug", 8},        {"août", 8},      {"aout", 8},      {"agosto", 8},
    {"ago", 8},        {"augustus", 8},   {"september", 9}, {"sep", 9},       {"sept", 9},
    {"septembre", 9},  {"septiembre", 9}, {"setiembre", 9}, {"setembro", 9},  {"settembre", 9},
    {"set", 9},        {"october", 10},   {"oct", 10},      {"octobre", 10},  {"oktober", 10},
    {"okt", 10},       {"octubre", 10},   {"outubro", 10},  {"out", 10},      {"ottobre", 10},
    {"ott", 10},       {"november", 11},  {"nov", 11},      {"novembre", 11}, {"noviembre", 11},
    {"novembro", 11},  {"december", 12},  {"dec", 12},      {"décembre", 12}, {"dezember", 12},
    {"diciembre", 12}, {"dezembro", 12},  {"déc", 12},      {"dez", 12},      {"dic", 12},
    {"dicembre", 12},  {"decembre", 12},
};
std::optional<int> month_named(std::string word) {
  while (!word.empty() && word.back() == '.') word.pop_back();
  for (const MonthName& m : kMonths) {
    if (m.name == word) return m.month;
  }
  return std::nullopt;
}

// "3 days ago" and its translations: the amount and the unit's length in days (0 for units
// shorter than a day; months and years by the calendar).
struct RelativeUnit {
  std::string_view word;
  char unit;  // s, m (minute), h, d, w, M (month), y
};

constexpr RelativeUnit kUnits[] = {
    {"second", 's'},    {"sec", 's'},       {"minute", 'm'},  {"min", 'm'},     {"hour", 'h'},
    {"hr", 'h'},        {"day", 'd'},       {"week", 'w'},    {"wk", 'w'},      {"month", 'M'},
    {"mo", 'M'},        {"year", 'y'},      {"yr", 'y'},      {"seconde", 's'}, {"heure", 'h'},
    {"jour", 'd'},      {"semaine", 'w'},   {"mois", 'M'},    {"an", 'y'},      {"année", 'y'},
    {"segundo", 's'},   {"minuto", 'm'},    {"hora", 'h'},    {"día", 'd'},     {"dia", 'd'},
    {"semana", 'w'},    {"mes", 'M'},       {"mês", 'M'},     {"meses", 'M'},   {"año", 'y'},
    {"ano", 'y'},       {"sekunde", 's'},   {"stunde", 'h'},  {"tag", 'd'},     {"tagen", 'd'},
    {"woche", 'w'},     {"wochen", 'w'},    {"monat", 'M'},   {"monaten", 'M'}, {"jahr", 'y'},
    {"jahren", 'y'},    {"minuten", 'm'},   {"stunden", 'h'}, {"giorno", 'd'},  {"giorni", 'd'},
    {"settimana", 'w'}, {"settimane", 'w'}, {"mese", 'M'},    {"mesi", 'M'},    {"anno", 'y'},
    {"anni", 'y'},      {"ora", 'h'},
};

std::optional<char> unit_named(std::string word) {
  // Plurals: "days", "jours", "días", "horas", "anos", "années".
  for (int pass = 0; pass < 2; ++pass) {
    for (const RelativeUnit& u : kUnits) {
      if (u.word == word) return u.unit;
    }
    if (word.size() > 2 && word.back() == 's') {
      word.pop_back();
    } else if (word.size() > 3 && word.ends_with("es")) {
      word.resize(word.size() - 2);
    } else {
      break;
    }
  }
  return std::nullopt;
}

std::vector<std::string> words_of(const std::string& t) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : t) {
    if (alpha(c) || digit(c) || c == '+') {
      cur += c;
    } else {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

std::optional<std::string> relative_date(const std::string& t,
                                         std::chrono::system_clock::time_point now) {
  const Days today = std::chrono::floor<std::chrono::days>(now);
  static const std::string_view kToday[] = {
      "today", "just posted", "just now", "hoy", "aujourd'hui", "heute", "hoje", "oggi", "vandaag"};
  static const std::string_view kYesterday[] = {"yesterday", "ayer",  "hier",
                                                "gestern",   "ontem", "ieri"};
  for (auto w : kYesterday) {
    if (t.find(w) != std::string::npos) return iso_date(today - std::chrono::days(1));
  }
  for (auto w : kToday) {
    if (t.find(w) != std::string::npos) return iso_date(today);
  }
  static const std::string_view kAgo[] = {"ago", "il y a", "hace", "vor",
                                          "há",  "ha ",    "fa",   "geleden"};
  bool relative = false;
  for (auto w : kAgo) {
    if (t.find(w) != std::string::npos) relative = true;
  }
  if (!relative) return std::nullopt;
  const std::vector<std::string> words = words_of(t);
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    long long n = 0;
    const std::string& w = words[i];
    if (w == "a" || w == "an" || w == "one" || w == "un" || w == "une" || w == "uno" ||
        w == "una" || w == "um" || w == "uma" || w == "einem" || w == "einer") {
      n = 1;
    } else if (!w.empty() && digit(w[0])) {
      n = std::atoll(w.c_str());
    } else {
      continue;
    }
    const auto unit = unit_named(words[i + 1]);
    if (!unit) continue;
    std::chrono::year_month_day d{today};
    switch (*unit) {
      case 's':
      case 'm':
      case 'h':
        return iso_date(std::chrono::floor<std::chrono::days>(
            now - std::chrono::seconds(n * (*unit == 's'   ? 1
                                            : *unit == 'm' ? 60
                                                           : 3600))));
      case 'd': return iso_date(today - std::chrono::days(n));
      case 'w': return iso_date(today - std::chrono::days(7 * n));
      case 'M': d -= std::chrono::months(n); break;
      case 'y': d -= std::chrono::years(n); break;
    }
    if (!d.ok()) d = d.year() / d.month() / std::chrono::last;
    return iso_date(d);
  }
  return std::nullopt;
}

std::optional<std::string> numeric_date(const std::string& t, DateOrder order) {
  static const Regex kIso(R"((\d{4})-(\d{1,2})-(\d{1,2}))");
  static const Regex kYearFirst(R"((\d{4})[/.](\d{1,2})[/.](\d{1,2}))");
  static const Regex kYearLast(R"((\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4}|\d{2})(?:\D|$))");
  RegexMatch m;
  if (kIso.search(t, m) || kYearFirst.search(t, m)) {
    return valid_date(std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]));
  }
  if (kYearLast.search(t, m)) {
    int a = std::stoi(m[1]);
    int b = std::stoi(m[2]);
    int y = std::stoi(m[3]);
    if (m[3].length() == 2) y += 2000;
    const bool day_first = a > 12 || (b <= 12 && order == DateOrder::DayFirst);
    return day_first ? valid_date(y, b, a) : valid_date(y, a, b);
  }
  return std::nullopt;
}

std::optional<std::string> named_month_date(const std::string& t,
                                            std::chrono::system_clock::time_point now) {
  const std::vector<std::string> words = words_of(t);
  std::optional<int> month;
  std::optional<int> day;
  std::optional<int> year;
  for (const std::string& w : words) {
    if (!month && !digit(w[0])) {
      if (auto m = month_named(w)) {
        month = m;
        continue;
      }
    }
    if (!digit(w[0])) continue;
    std::size_t n = digits_from(w, 0);
    const std::string rest = w.substr(n);
    const int v = std::atoi(w.substr(0, n).c_str());
    if (n == 4 && rest.empty() && !year) {
      year = v;
    } else if (n <= 2 && !day && v >= 1 && v <= 31 &&
               (rest.empty() || rest == "st" || rest == "nd" || rest == "rd" || rest == "th" ||
                rest == "er" || rest == "e")) {
      day = v;
    }
  }
  if (!month) return std::nullopt;
  if (!year) {
    // "Aug 4": the latest such date not after today.
    const std::chrono::year_month_day today{std::chrono::floor<std::chrono::days>(now)};
    year = static_cast<int>(today.year());
    std::chrono::year_month_day guess{std::chrono::year(*year),
                                      std::chrono::month(static_cast<unsigned>(*month)),
                                      std::chrono::day(static_cast<unsigned>(day.value_or(1)))};
    if (guess.ok() && Days(guess) > Days(today)) --*year;
  }
  return valid_date(*year, *month, day.value_or(1));
}

}  // namespace

std::string lower(std::string_view text) {
  return lower_ascii(text);
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return v.dump();
  if (v.is_array()) {
    std::string out;
    for (const json& item : v) {
      std::string t = text(item);
      if (t.empty()) continue;
      if (!out.empty()) out += ", ";
      out += t;
    }
    return out;
  }
  if (!v.is_object()) return {};
  for (const char* key : {"simpleText", "content", "text", "@value"}) {
    if (auto it = v.find(key); it != v.end() && it->is_string()) return it->get<std::string>();
  }
  std::string out;
  if (auto it = v.find("runs"); it != v.end() && it->is_array()) {
    for (const json& run : *it) {
      if (run.is_object() && run.contains("text") && run["text"].is_string()) {
        out += run["text"].get<std::string>();
      }
    }
  }
  return out;
}

std::string absolute_url(std::string_view base, std::string_view href) {
  while (!href.empty() && (href.front() == ' ' || href.front() == '\n')) href.remove_prefix(1);
  if (href.empty()) return {};
  const std::string low = lower_ascii(href.substr(0, 11));
  if (low.starts_with("javascript:") || low.starts_with("data:")) return {};
  if (low.starts_with("http://") || low.starts_with("https://")) return std::string(href);
  const auto scheme_end = base.find("://");
  if (scheme_end == std::string_view::npos) return std::string(href);
  const std::string_view scheme = base.substr(0, scheme_end);
  if (href.starts_with("//")) return std::string(scheme) + ":" + std::string(href);
  const auto host_end = base.find_first_of("/?#", scheme_end + 3);
  const std::string_view origin = base.substr(0, host_end);
  if (href.front() == '/') return std::string(origin) + std::string(href);
  if (href.front() == '?' || href.front() == '#') {
    const auto cut = base.find(href.front() == '?' ? "?" : "#", scheme_end + 3);
    return std::string(base.substr(0, cut)) + std::string(href);
  }
  // Relative to the base's directory.
  std::string_view path = host_end == std::string_view::npos ? "/" : base.substr(host_end);
  path = path.substr(0, path.find_first_of("?#"));
  path = path.substr(0, path.rfind('/') + 1);
  return std::string(origin) + std::string(path.empty() ? "/" : path) + std::string(href);
}

namespace {
constexpr char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
}  // namespace

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kBase64Url[(v >> 18) & 63];
    out += kBase64Url[(v >> 12) & 63];
    out += kBase64Url[(v >> 6) & 63];
    out += kBase64Url[v & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kBase64Url[(v >> 18) & 63];
    out += kBase64Url[(v >> 12) & 63];
    if (rest == 2) out += kBase64Url[(v >> 6) & 63];
  }
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    const char* at = std::strchr(kBase64Url, c);
    if (c == '\0' || !at) return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(at - kBase64Url);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

DecimalMark decimal_mark_of(std::string_view language) {
  // Regions that write a dot where their language mostly writes a comma.
  static const std::string_view kDotRegions[] = {"es-mx", "es-us", "es-pr", "es-gt", "es-do",
                                                 "es-hn", "es-ni", "es-pa", "es-sv", "de-ch",
                                                 "it-ch", "fr-ch", "de-li"};
  std::string tag = lower_ascii(language);
  for (char& c : tag) {
    if (c == '_') c = '-';
  }
  for (auto r : kDotRegions) {
    if (tag == r || tag.starts_with(std::string(r) + "-")) return DecimalMark::Dot;
  }
  const std::string lang = lower_ascii(language.substr(0, language.find_first_of("-_")));
  static const std::string_view kDot[] = {"en", "ja", "zh", "ko", "he", "th",
                                          "hi", "ms", "tl", "ga", "mt", "sw"};
  static const std::string_view kComma[] = {
      "de", "fr", "es", "it", "pt", "nl", "ru", "pl", "tr", "id", "da", "sv", "nb", "no", "fi",
      "cs", "sk", "hu", "ro", "bg", "el", "uk", "hr", "sl", "sr", "lt", "lv", "et", "ca", "vi"};
  for (auto l : kDot) {
    if (lang == l) return DecimalMark::Dot;
  }
  for (auto l : kComma) {
    if (lang == l) return DecimalMark::Comma;
  }
  return DecimalMark::Unknown;
}

std::string western_digits(std::string_view text, DecimalMark mark) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const unsigned char next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    // U+0660-U+0669 (D9 A0-D9 A9) and the Persian U+06F0-U+06F9 (DB B0-DB B9) are digits,
    // U+066B (D9 AB) the decimal mark, U+066C (D9 AC) the group mark.
    if (c == 0xD9 && next >= 0xA0 && next <= 0xA9) {
      out += static_cast<char>('0' + (next - 0xA0));
    } else if (c == 0xDB && next >= 0xB0 && next <= 0xB9) {
      out += static_cast<char>('0' + (next - 0xB0));
    } else if (c == 0xD9 && next == 0xAB) {
      out += mark == DecimalMark::Comma ? ',' : '.';
    } else if (c == 0xD9 && next == 0xAC) {
      out += mark == DecimalMark::Comma ? '.' : ',';
    } else {
      out += static_cast<char>(c);
      continue;
    }
    ++i;
  }
  return out;
}

namespace {
// `text` itself, or its western_digits() kept in `store` when it has Arabic-Indic digits (their
// lead bytes D9 and DB): the number readers' input.
std::string_view ascii_digits(std::string_view text, DecimalMark mark, std::string& store) {
  if (text.find_first_of("\xD9\xDB") == std::string_view::npos) return text;
  store = western_digits(text, mark);
  return store;
}
}  // namespace

std::optional<double> parse_number(std::string_view written, DecimalMark mark) {
  std::string store;
  const std::string_view text = ascii_digits(written, mark, store);
  auto token = number_at_or_after(text, 0);
  if (!token) return std::nullopt;
  auto value = value_of(token->digits_and_marks, mark);
  if (!value) return std::nullopt;
  double v = *value * multiplier_after(text, token->end);
  return token->negative ? -v : v;
}

std::optional<long long> parse_count(std::string_view text, DecimalMark mark) {
  auto n = parse_number(text, mark);
  if (!n || *n < 0 || *n >= 1e18) return std::nullopt;
  return std::llround(*n);
}

std::vector<double> parse_numbers(std::string_view written, DecimalMark mark) {
  std::string store;
  const std::string_view text = ascii_digits(written, mark, store);
  std::vector<double> out;
  std::size_t from = 0;
  while (auto token = number_at_or_after(text, from)) {
    if (auto value = value_of(token->digits_and_marks, mark)) {
      const double v = *value * multiplier_after(text, token->end);
      out.push_back(token->negative ? -v : v);
    }
    from = token->end;
  }
  return out;
}

std::string decode_basic_entities(std::string_view text) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&#39;", '\''}};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (text[i] == '&') {
      for (const auto& [name, c] : kEntities) {
        if (text.substr(i, name.size()) == name) {
          out += c;
          i += name.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

std::string collapse_whitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
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

std::optional<Money> parse_money(std::string_view written, DecimalMark mark,
                                 std::string_view default_currency) {
  std::string store;
  const std::string_view text = ascii_digits(written, mark, store);
  auto first = number_at_or_after(text, 0);
  if (!first) return std::nullopt;
  auto low = value_of(first->digits_and_marks, mark);
  if (!low) return std::nullopt;
  Money money;
  money.min = *low * multiplier_after(text, first->end);
  // A range: a second number after a dash or a word that says "to".
  if (auto second = number_at_or_after(text, first->end)) {
    const std::string between = lower_ascii(text.substr(first->end, second->begin - first->end));
    static const std::string_view kTo[] = {"-",     "\xE2\x80\x93", "\xE2\x80\x94",
                                           " to ",  " a ",          " \xC3\xA0 ",
                                           " bis ", " at\xC3\xA9 ", " y "};
    bool range = false;
    for (auto sep : kTo) {
      if (between.find(sep) != std::string::npos) range = true;
    }
    if (range && between.size() < 16) {
      if (auto high = value_of(second->digits_and_marks, mark)) {
        money.max = *high * multiplier_after(text, second->end);
      }
    }
  }
  money.currency = currency_in(text, default_currency);
  money.period = period_in(text);
  return money;
}

std::optional<long long> parse_duration_seconds(std::string_view text) {
  // Numbers are read up to nine digits each, so no sum overflows: a page's "PT99999999999999999999H"
  // is not a duration (it made std::stoll throw; tests/fuzz/corpus/text/huge_duration.txt).
  const std::string t = lower_ascii(text);
  static const Regex kIso(
      R"(^\s*p(?:(\d{1,9})d)?(?:t(?:(\d{1,9})h)?(?:(\d{1,9})m)?(?:(\d{1,9})(?:\.\d+)?s)?)?\s*$)");
  RegexMatch m;
  if (kIso.full_match(t, m) && t.find_first_of("0123456789") != std::string::npos) {
    long long s = 0;
    if (m[1].matched) s += std::stoll(m[1]) * 86400;
    if (m[2].matched) s += std::stoll(m[2]) * 3600;
    if (m[3].matched) s += std::stoll(m[3]) * 60;
    if (m[4].matched) s += std::stoll(m[4]);
    return s;
  }
  static const Regex kClock(R"(^\s*(?:(\d{1,3}):)?(\d{1,2}):(\d{2})\s*$)");
  if (kClock.full_match(t, m)) {
    const long long a = m[1].matched ? std::stoll(m[1]) : 0;
    const long long b = std::stoll(m[2]);
    const long long c = std::stoll(m[3]);
    if (c >= 60 || (m[1].matched && b >= 60)) return std::nullopt;
    return a * 3600 + b * 60 + c;
  }
  static const Regex kWords(
      R"((?:^|[^\d.,])(\d{1,9}(?:[.,]\d{1,9})?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b)");
  long long total = 0;
  bool any = false;
  for (const RegexMatch& word : kWords.find_all(t)) {
    std::string n = word[1];
    for (char& c : n) {
      if (c == ',') c = '.';
    }
    const double v = std::strtod(n.c_str(), nullptr);
    const char u = word[2].text[0];
    const double unit = u == 'd' ? 86400 : u == 'h' ? 3600 : u == 'm' ? 60 : 1;
    total += std::llround(v * unit);
    any = true;
  }
  if (any) return total;
  return std::nullopt;
}

DateOrder date_order_of(std::string_view language) {
  const std::string tag = lower_ascii(language);
  if (tag.empty()) return DateOrder::Unknown;
  if (tag == "en" || tag == "en-us" || tag == "en_us" || tag == "en-ph" || tag == "fil") {
    return DateOrder::MonthFirst;
  }
  return DateOrder::DayFirst;
}

std::optional<std::string> parse_date(std::string_view text,
                                      std::chrono::system_clock::time_point now, DateOrder order) {
  std::string t = lower_ascii(text);
  for (char& c : t) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  if (auto d = numeric_date(t, order)) return d;
  if (auto d = relative_date(t, now)) return d;
  return named_month_date(t, now);
}

std::string iso_date_of_ms(const nlohmann::json& ms) {
  if (!ms.is_number()) return {};
  return iso_date(std::chrono::year_month_day{std::chrono::floor<std::chrono::days>(
      std::chrono::system_clock::time_point(std::chrono::milliseconds(ms.get<long long>())))});
}

bool is_listed_date(std::string_view text) {
  if (text.empty() || text.find("\u00b7") != std::string_view::npos) return false;
  static const Regex kDate(R"((\b(19|20)\d{2}\b)|(\bago\b)|(^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$))",
                           {.ignore_case = true});
  static const Regex kAgo(
      R"((^|\s)(ago|vor|il y a|hace|há|atrás|fa|geleden|temu|önce|sedan|siden|lalu|назад|тому)($|\s|[.,])|前$|전$)",
      {.ignore_case = true});
  static const Regex kNumber(R"(\d+)");
  if (kDate.search(text)) return true;
  if (text.size() > 40) return false;
  if (kAgo.search(text) && kNumber.find_all(text).size() == 1) return true;
  return parse_date(text, std::chrono::system_clock::now()).has_value();
}

std::optional<std::pair<std::string, std::string>> leading_listed_date(std::string_view snippet) {
  static constexpr std::string_view kDot = " \u00b7 ";
  const std::size_t dot = snippet.find(kDot);
  if (dot == std::string_view::npos || dot == 0 || dot > 40) return std::nullopt;
  if (!is_listed_date(snippet.substr(0, dot))) return std::nullopt;
  return std::pair{std::string(snippet.substr(0, dot)),
                   std::string(snippet.substr(dot + kDot.size()))};
}

}  // namespace gleaner::extract
