#include "extract/sites/google/finance.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <vector>

#include "core/error.h"
#include "core/log.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr const char* kQuoteBase = "https://www.google.com/finance/quote/";

// SYMBOL:EXCHANGE (indexes start with '.', share classes carry '.' or '-') or BASE-QUOTE.
constexpr const char* kTicker =
    "[A-Za-z0-9._-]{1,24}:[A-Za-z0-9_-]{1,24}|[A-Za-z0-9]{2,12}-[A-Za-z0-9]{2,12}";

const Parameters& finance_parameters() {
  static const Parameters params{
      {Param::string("q").required().pattern(
           kTicker, "a ticker written SYMBOL:EXCHANGE (PETR4:BVMF) or BASE-QUOTE (BTC-USD)"),
       Param::string("window").one_of({"1D", "5D", "1M", "6M", "YTD", "1Y", "5Y", "MAX"}),
       Param::string("hl").pattern(patterns::kLanguageTag, patterns::kLanguageTagWords)}};
  return params;
}

// ---- numbers and dates -------------------------------------------------------------------

std::optional<double> number(const json& v) {
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

// The site sends float32 noise (-0.099998474 for -0.10): four decimals say all it means.
double tidy(double v) {
  return std::round(v * 1e4) / 1e4;
}

// Days since 1970-01-01 → civil date (proleptic Gregorian; H. Hinnant's algorithm).
void civil_from_days(long long z, int& y, int& m, int& d) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const long long doe = z - era * 146097;
  const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long long mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400 + (m <= 2 ? 1 : 0));
}

long long days_from_civil(int y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const long long yoe = y - era * 400;
  const long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::string offset_text(long long offset_seconds) {
  if (offset_seconds == 0) return "Z";
  const long long a = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%c%02lld:%02lld", offset_seconds < 0 ? '-' : '+', a / 3600,
                (a % 3600) / 60);
  return buf;
}

std::string date_text(int y, int m, int d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, m, d);
  return buf;
}

// The site's date arrays: [y, m, d, h?, min?, s?, null, [offset seconds]].
struct SiteTime {
  long long epoch = 0;  // seconds, UTC
  std::string iso;
};

std::optional<SiteTime> site_time(const json& t) {
  if (!t.is_array() || t.size() < 3 || !t[0].is_number() || !t[1].is_number() ||
      !t[2].is_number()) {
    return std::nullopt;
  }
  auto part = [&](std::size_t i) { return i < t.size() && t[i].is_number() ? t[i].get<int>() : 0; };
  const int y = part(0), mo = part(1), d = part(2), h = part(3), mi = part(4), s = part(5);
  const long long offset = number(at(t, {7, 0})).value_or(0);
  char buf[24];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
  SiteTime out;
  out.epoch =
      days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - static_cast<long long>(offset);
  out.iso = std::string(buf) + offset_text(static_cast<long long>(offset));
  return out;
}

// ---- recognising the blobs by shape --------------------------------------------------------

void walk(const json& node, const std::function<bool(const json&)>& visit) {
  if (!node.is_array()) return;
  if (visit(node)) return;  // a recognised record is not looked into
  for (const json& child : node) walk(child, visit);
}

void walk_blobs(const json& blobs, const std::function<bool(const json&)>& visit) {
  if (!blobs.is_object()) return;
  for (const auto& [key, data] : blobs.items()) walk(data, visit);
}

bool is_pair_of_strings(const json& v) {
  return v.is_array() && v.size() == 2 && v[0].is_string() && v[1].is_string();
}

// A quote record: [mid, [symbol, exchange], name, type, currency, [price, change, percent, ..],
// null, previous close, colour, country, .., [updated at], time zone, offset, .., ticker at 21].
// A currency or crypto pair has no [symbol, exchange] (null there; seen on beta-layout pages,
// where each record sits inside a wrapper record): its ticker ("BTC-USD") is at 21 and its legs
// ["BTC", "USD", names..] at 15.
bool is_pair_record(const json& q) {
  return q[1].is_null() && q[21].is_string() && !str(q[21]).empty() && q[15].is_array() &&
         q[15].size() >= 2 && q[15][0].is_string() && q[15][1].is_string();
}
bool is_quote(const json& q) {
  return q.is_array() && q.size() > 21 && q[0].is_string() && str(q[0]).starts_with("/") &&
         (is_pair_of_strings(q[1]) || is_pair_record(q)) && q[2].is_string() && q[3].is_number();
}

struct Quote {
  const json* record = nullptr;
  std::string ticker;  // "PETR4:BVMF" or "BTC-USD"
  std::string symbol;
  std::string exchange;
  std::string mid;
  std::string name;
};

Quote quote_of(const json& q) {
  Quote out;
  out.record = &q;
  if (is_pair_of_strings(q[1])) {
    out.symbol = str(q[1][0]);
    out.exchange = str(q[1][1]);
    out.ticker = q[21].is_string() ? str(q[21]) : out.symbol + ":" + out.exchange;
  } else {
    out.symbol = out.ticker = str(q[21]);  // a pair: "BTC-USD", no exchange
  }
  out.mid = str(q[0]);
  out.name = str(q[2]);
  return out;
}

// Every distinct quote on the page, in the order the blobs hold them.
std::vector<Quote> all_quotes(const json& blobs) {
  std::vector<Quote> quotes;
  std::set<std::string> seen;
  walk_blobs(blobs, [&](const json& node) {
    if (!is_quote(node)) return false;
    Quote q = quote_of(node);
    if (seen.insert(site_json::ascii_upper(q.ticker)).second) quotes.push_back(std::move(q));
    return true;
  });
  return quotes;
}

const Quote* find_quote(const std::vector<Quote>& quotes, const std::string& ticker) {
  const std::string wanted = site_json::ascii_upper(ticker);
  for (const Quote& q : quotes) {
    if (site_json::ascii_upper(q.ticker) == wanted) return &q;
  }
  return nullptr;
}

json movement_of(const json& prices) {
  json m = json::object();
  auto value = number(at(prices, {1}));
  auto percent = number(at(prices, {2}));
  if (value) m["value"] = tidy(*value);
  if (percent) m["percentage"] = tidy(*percent);
  // A price that did not move is neither up nor down: the key stays absent.
  if (value && *value > 0) m["movement"] = "up";
  if (value && *value < 0) m["movement"] = "down";
  return m;
}

// ---- the parts of the answer -------------------------------------------------------------

json summary_of(const Quote& q, const json& page, std::optional<double> price) {
  const json& r = *q.record;
  json s = {{"title", q.name}, {"stock", q.symbol}};
  if (q.ticker.find(':') != std::string::npos) s["exchange"] = q.exchange;
  std::string shown = str(at(page, {"price"}));
  if (!shown.empty()) {
    s["price"] = shown;
  } else if (price) {
    s["price"] = tidy(*price);
  }
  if (price) s["extractedPrice"] = tidy(*price);
  std::string currency = str(r[4]);
  if (currency.empty() && is_pair_record(r)) currency = str(r[15][1]);  // the quote leg
  if (currency.empty()) currency = str(at(page, {"currency"}));
  if (!currency.empty()) s["currency"] = currency;
  if (json m = movement_of(r[5]); !m.empty()) s["priceMovement"] = std::move(m);
  if (auto prev = number(r[7])) s["previousClose"] = tidy(*prev);
  if (auto updated = number(at(r, {11, 0}))) {
    const long long offset = static_cast<long long>(number(r[13]).value_or(0));
    s["date"] = iso8601_at_offset(static_cast<long long>(*updated), offset);
  }
  return s;
}

// A price series: [[symbol, exchange], mid, currency, [[window, [points..]], ..], ..]; each point
// [[date], [price, change, percent, ..], volume?].
struct Series {
  std::string currency;
  const json* points = nullptr;
  long long first = 0;
  long long last = 0;
};

std::vector<Series> series_of(const json& blobs, const Quote& q) {
  std::vector<Series> out;
  walk_blobs(blobs, [&](const json& node) {
    if (!(node.size() > 3 && is_pair_of_strings(node[0]) && node[1].is_string() &&
          node[2].is_string() && node[3].is_array())) {
      return false;
    }
    if (str(node[1]) != q.mid && !(str(node[0][0]) == q.symbol && str(node[0][1]) == q.exchange)) {
      return true;
    }
    for (const json& window : node[3]) {
      const json& points = at(window, {1});
      if (!points.is_array() || points.empty()) continue;
      auto first = site_time(at(points, {0, 0}));
      auto last = site_time(at(points, {static_cast<int>(points.size()) - 1, 0}));
      if (!first || !last) continue;
      out.push_back({str(node[2]), &points, first->epoch, last->epoch});
    }
    return true;
  });
  return out;
}

// Whether a series spans what the window names (days between its first and last points).
bool fits(const Series& s, const std::string& window) {
  const double days = static_cast<double>(s.last - s.first) / 86400.0;
  if (window == "1D") return days <= 1.5;
  if (window == "5D") return days > 1.5 && days <= 10;
  if (window == "1M") return days > 10 && days <= 45;
  if (window == "6M") return days > 100 && days <= 200;
  if (window == "1Y") return days > 300 && days <= 400;
  if (window == "5Y") return days > 1400 && days <= 2000;
  if (window == "YTD") {
    int y1, m1, d1, y2, m2, d2;
    civil_from_days(s.first / 86400, y1, m1, d1);
    civil_from_days(s.last / 86400, y2, m2, d2);
    return y1 == y2 && m1 == 1 && days <= 370;
  }
  return false;
}

std::optional<json> graph_of(const json& blobs, const Quote& q, const std::string& window) {
  std::vector<Series> all = series_of(blobs, q);
  const Series* chosen = nullptr;
  if (window == "MAX") {
    for (const Series& s : all) {
      if (!chosen || s.last - s.first > chosen->last - chosen->first) chosen = &s;
    }
  } else {
    for (const Series& s : all) {
      if (fits(s, window)) {
        chosen = &s;
        break;
      }
    }
  }
  if (!chosen) {
    log::info("finance") << q.ticker << ": no price series for window " << window << " among "
                         << all.size();
    return std::nullopt;
  }
  json graph = json::array();
  for (const json& p : *chosen->points) {
    auto when = site_time(at(p, {0}));
    auto price = number(at(p, {1, 0}));
    if (!when || !price) continue;
    json point = {{"price", tidy(*price)}, {"currency", chosen->currency}, {"date", when->iso}};
    if (auto volume = number(at(p, {2}))) point["volume"] = static_cast<long long>(*volume);
    graph.push_back(std::move(point));
  }
  return graph;
}

// The quote's price now: its record's ([5][0]) where the record has it; else the newest point of
// its price series in the blobs (the layout whose quote record leaves the price out still
// charts it); else the markup's `data-last-price`, else the headline price as the page writes
// it in its language ("R$ 47,37").
std::optional<double> price_of(const Quote& q, const json& blobs, const json& page,
                               const std::string& language) {
  if (auto price = number(at(*q.record, {5, 0}))) return price;
  const Series* newest = nullptr;
  std::vector<Series> all = series_of(blobs, q);
  for (const Series& series : all) {
    if (!newest || series.last > newest->last) newest = &series;
  }
  if (newest) {
    const json& points = *newest->points;
    if (auto price = number(at(points, {static_cast<int>(points.size()) - 1, 1, 0}))) return price;
  }
  if (auto last = parse_number(str(at(page, {"lastPrice"})), DecimalMark::Dot)) return last;
  if (auto shown = parse_money(str(at(page, {"price"})), decimal_mark_of(language))) {
    return shown->min;
  }
  return std::nullopt;
}

// The company record: [mid, name, description, [city, state, country, code, street],
// [founded y, m, d], null, employees, market cap, previous close, open, day high, day low,
// year high, year low, volume, currency, P/E, dividend yield, average volume, EPS, .., website
// at 22, .., primary exchange at 24, .., Wikipedia at 30].
const json* company_of(const json& blobs, const Quote& q) {
  const json* found = nullptr;
  walk_blobs(blobs, [&](const json& node) {
    if (found) return true;
    if (node.size() > 24 && str(node[0]) == q.mid && node[1].is_string() && node[2].is_string() &&
        node[3].is_array()) {
      found = &node;
      return true;
    }
    return false;
  });
  return found;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// 643282216995 → "643.28B": the short scale the site's English pages use.
std::string compact(double v) {
  const double a = std::fabs(v);
  if (a >= 1e12) return fixed(v / 1e12, 2) + "T";
  if (a >= 1e9) return fixed(v / 1e9, 2) + "B";
  if (a >= 1e6) return fixed(v / 1e6, 2) + "M";
  if (a >= 1e3) return fixed(v / 1e3, 2) + "K";
  return fixed(v, 2);
}

// Key stats as the page writes them; from the company record when the markup has none (the
// newer layout), with English labels.
json key_stats_of(const json& page, const json* company) {
  json stats = json::array();
  for (const json& row : at(page, {"keyStats"})) {
    std::string label = str(at(row, {"label"}));
    std::string value = str(at(row, {"value"}));
    if (!label.empty() && !value.empty()) stats.push_back({{"label", label}, {"value", value}});
  }
  if (!stats.empty() || !company) return stats;
  const json& c = *company;
  const std::string cur = str(at(c, {15}));
  auto add = [&](const char* label, std::optional<std::string> value) {
    if (value) stats.push_back({{"label", label}, {"value", *value}});
  };
  auto money = [&](std::size_t i) -> std::optional<std::string> {
    auto v = number(at(c, {static_cast<int>(i)}));
    if (!v) return std::nullopt;
    return fixed(*v, 2) + (cur.empty() ? "" : " " + cur);
  };
  auto range = [&](std::size_t low, std::size_t high) -> std::optional<std::string> {
    auto l = money(low), h = money(high);
    if (!l || !h) return std::nullopt;
    return *l + " - " + *h;
  };
  auto with = [&](std::size_t i,
                  const std::function<std::string(double)>& f) -> std::optional<std::string> {
    auto v = number(at(c, {static_cast<int>(i)}));
    if (!v) return std::nullopt;
    return f(*v);
  };
  add("Previous close", money(8));
  add("Day range", range(11, 10));
  add("Year range", range(13, 12));
  add("Market cap", with(7, [&](double v) { return compact(v) + (cur.empty() ? "" : " " + cur); }));
  add("Avg Volume", with(18, [](double v) { return compact(v); }));
  add("P/E ratio", with(16, [](double v) { return fixed(v, 2); }));
  add("Dividend yield", with(17, [](double v) { return fixed(v, 2) + "%"; }));
  if (std::string ex = str(at(c, {24})); !ex.empty()) add("Primary exchange", ex);
  return stats;
}

std::optional<json> about_of(const json& page, const json* company) {
  json about = json::object();
  // The record's text keeps the paragraphs; the markup's is the fallback.
  std::string description = company ? str(at(*company, {2})) : std::string();
  if (description.empty()) description = str(at(page, {"about"}));
  if (!description.empty()) about["description"] = description;
  if (company) {
    const json& c = *company;
    if (std::string name = str(at(c, {1})); !name.empty()) about["name"] = name;
    const json& founded = at(c, {4});
    if (founded.is_array() && founded.size() >= 3 && founded[0].is_number() &&
        founded[1].is_number() && founded[2].is_number()) {
      about["founded"] =
          date_text(founded[0].get<int>(), founded[1].get<int>(), founded[2].get<int>());
    }
    // [city, state, country, code, street]: the page shows city, state and country.
    std::string hq;
    for (int i : {0, 1, 2}) {
      std::string part = str(at(c, {3, i}));
      if (part.empty()) continue;
      hq += (hq.empty() ? "" : ", ") + part;
    }
    if (!hq.empty()) about["headquarters"] = hq;
    if (auto employees = number(at(c, {6})))
      about["employees"] = static_cast<long long>(*employees);
    if (std::string site = str(at(c, {22})); !site.empty()) about["website"] = site;
    if (std::string wiki = str(at(c, {30})); wiki.find("wikipedia.org") != std::string::npos) {
      about["wikipedia"] = wiki;
    }
  }
  json facts = json::array();
  for (const json& row : at(page, {"aboutFacts"})) {
    if (!str(at(row, {"value"})).empty()) {
      facts.push_back({{"label", str(at(row, {"label"}))}, {"value", str(at(row, {"value"}))}});
    }
  }
  if (!facts.empty()) about["info"] = std::move(facts);
  if (about.empty()) return std::nullopt;
  return about;
}

// News records: [link, title, source, thumbnail, published (epoch s), .., [quotes], [mids], ..,
// snippet at 16]. Only those about this quote: market news on the same page names other mids.
json news_of(const json& blobs, const Quote& q) {
  json news = json::array();
  std::set<std::string> seen;
  walk_blobs(blobs, [&](const json& node) {
    if (!(node.size() > 9 && node[0].is_string() && str(node[0]).starts_with("http") &&
          node[1].is_string() && node[2].is_string() && node[4].is_number() &&
          node[9].is_array())) {
      return false;
    }
    bool about_quote = false;
    for (const json& mid : node[9]) about_quote = about_quote || str(mid) == q.mid;
    if (!about_quote || !seen.insert(str(node[0])).second) return true;
    json item = {{"title", str(node[1])},
                 {"link", str(node[0])},
                 {"source", str(node[2])},
                 {"date", iso8601_at_offset(node[4].get<long long>(), 0)}};
    if (std::string thumb = str(node[3]); !thumb.empty()) item["thumbnail"] = thumb;
    if (std::string snippet = str(at(node, {16})); !snippet.empty()) item["snippet"] = snippet;
    news.push_back(std::move(item));
    return true;
  });
  return news;
}

// Financial statements: [[quarterly: [year, quarter, values]..], [annual: [year, values]..], ..,
// mid, name, [symbol, exchange]]. Positions in `values`, matched against the rows the classic
// layout shows for the same data; `change` marks the rows the page gives a year-over-year change.
struct Line {
  const char* title;
  int index;
  bool change;
};
struct Statement {
  const char* title;
  std::vector<Line> lines;
};
const std::vector<Statement>& statements() {
  static const std::vector<Statement> kStatements = {
      {"Income statement",
       {{"Revenue", 0, true},
        {"Operating expense", 38, true},
        {"Net income", 1, true},
        {"Net profit margin", 3, true},
        {"Earnings per share", 9, true},
        {"EBITDA", 20, true},
        {"Effective tax rate", 21, false}}},
      {"Balance sheet",
       {{"Cash and short-term investments", 22, true},
        {"Total assets", 23, true},
        {"Total liabilities", 26, true},
        {"Total equity", 25, false},
        {"Shares outstanding", 27, false},
        {"Price to book", 35, false},
        {"Return on assets", 34, false},
        {"Return on capital", 18, false}}},
      {"Cash flow",
       {{"Net income", 1, true},
        {"Cash from operations", 28, true},
        {"Cash from investing", 29, true},
        {"Cash from financing", 30, true},
        {"Net change in cash", 5, true},
        {"Free cash flow", 31, true}}},
  };
  return kStatements;
}

constexpr std::size_t kPeriodsShown = 5;  // the page's columns per statement

const json* statements_blob(const json& blobs, const Quote& q) {
  const json* found = nullptr;
  walk_blobs(blobs, [&](const json& node) {
    if (found) return true;
    if (node.size() >= 8 && node[0].is_array() && node[1].is_array() &&
        is_pair_of_strings(node[7]) && str(node[5]) == q.mid) {
      found = &node;
      return true;
    }
    return false;
  });
  return found;
}

struct Period {
  std::string label;  // "Q4 2025" or "2025"
  const json* values = nullptr;
  const json* year_before = nullptr;
};

// Periods newest first; the one a year earlier is four quarters (or one year) further down.
std::vector<Period> periods_of(const json& list, bool quarterly) {
  std::vector<Period> periods;
  const std::size_t step = quarterly ? 4 : 1;
  const std::size_t values_at = quarterly ? 2 : 1;
  for (std::size_t i = 0; i < list.size() && periods.size() < kPeriodsShown; ++i) {
    const json& values = at(list[i], {static_cast<int>(values_at)});
    // Old periods only carry revenue: the page does not show them.
    if (!values.is_array() || values.size() < 39) continue;
    Period p;
    const int year = number(at(list[i], {0})).value_or(0);
    p.label = quarterly
                  ? "Q" + std::to_string(static_cast<int>(number(at(list[i], {1})).value_or(0))) +
                        " " + std::to_string(year)
                  : std::to_string(year);
    p.values = &values;
    const json& before = at(list, {static_cast<int>(i + step), static_cast<int>(values_at)});
    if (before.is_array()) p.year_before = &before;
    periods.push_back(p);
  }
  return periods;
}

json financials_of(const json& blobs, const Quote& q) {
  json out = json::array();
  const json* blob = statements_blob(blobs, q);
  if (!blob) return out;
  std::vector<std::pair<std::string, std::vector<Period>>> kinds = {
      {"quarterly", periods_of((*blob)[0], true)}, {"annual", periods_of((*blob)[1], false)}};
  for (const Statement& st : statements()) {
    json results = json::array();
    for (const auto& [kind, periods] : kinds) {
      for (const Period& p : periods) {
        const json& v = *p.values;
        json table = json::array();
        for (const Line& line : st.lines) {
          auto value = number(at(v, {line.index}));
          if (!value) continue;
          json row = {{"title", line.title}, {"value", tidy(*value)}};
          auto before = p.year_before ? number(at(*p.year_before, {line.index})) : std::nullopt;
          if (line.change && before && *before != 0) {
            row["change"] = std::round((*value - *before) / std::fabs(*before) * 1e4) / 1e2;
          }
          table.push_back(std::move(row));
        }
        json result = {{"period", p.label}, {"periodType", kind}, {"table", std::move(table)}};
        const json& end = at(v, {17});
        if (end.is_array() && end.size() == 3) {
          result["date"] = date_text(end[0].get<int>(), end[1].get<int>(), end[2].get<int>());
        }
        if (std::string cur = str(at(v, {16})); !cur.empty()) result["currency"] = cur;
        results.push_back(std::move(result));
      }
    }
    if (!results.empty()) out.push_back({{"title", st.title}, {"results", std::move(results)}});
  }
  return out;
}

json item_of(const Quote& q) {
  json item = {{"stock", q.ticker}, {"name", q.name}, {"link", std::string(kQuoteBase) + q.ticker}};
  const json& r = *q.record;
  if (auto price = number(at(r, {5, 0}))) item["price"] = tidy(*price);
  if (std::string cur = str(r[4]); !cur.empty()) item["currency"] = cur;
  if (json m = movement_of(r[5]); !m.empty()) item["priceMovement"] = std::move(m);
  return item;
}

// The page's "discover more" lists: titles and order from the markup, numbers from the blobs.
json discover_of(const json& page, const std::vector<Quote>& quotes) {
  json out = json::array();
  for (const json& section : at(page, {"discover"})) {
    json items = json::array();
    for (const json& entry : at(section, {"stocks"})) {
      const std::string ticker = str(at(entry, {"stock"}));
      if (const Quote* q = find_quote(quotes, ticker)) {
        items.push_back(item_of(*q));
      } else if (!ticker.empty()) {
        // Not in the blobs: what the link shows (symbol, name, price as text).
        json item = {{"stock", ticker}, {"link", std::string(kQuoteBase) + ticker}};
        if (std::string name = str(at(entry, {"lines", 1})); !name.empty()) item["name"] = name;
        if (std::string price = str(at(entry, {"lines", 2})); !price.empty()) item["price"] = price;
        items.push_back(std::move(item));
      }
    }
    if (!items.empty()) {
      out.push_back({{"title", str(at(section, {"title"}))}, {"items", std::move(items)}});
    }
  }
  return out;
}

// A symbol without its trailing share-class digits (PETR4 → PETR).
std::string symbol_root(const std::string& symbol) {
  std::size_t end = symbol.size();
  while (end > 0 && symbol[end - 1] >= '0' && symbol[end - 1] <= '9') --end;
  return symbol.substr(0, end);
}

// For an unknown ticker: the quotes on the page with the same symbol (on another exchange), a
// symbol starting like it or another share class of it (PETR3 → PETR4), or a name containing it.
json suggestions_of(const std::vector<Quote>& quotes, const std::string& ticker) {
  const std::string wanted = site_json::ascii_upper(ticker.substr(0, ticker.find_first_of(":-")));
  const std::string root = symbol_root(wanted);
  json out = json::array();
  for (const Quote& q : quotes) {
    const std::string symbol = site_json::ascii_upper(q.symbol);
    const std::string name = site_json::ascii_upper(q.name);
    const bool related = symbol.starts_with(wanted) ||
                         (root.size() >= 2 && symbol_root(symbol) == root) ||
                         (wanted.size() >= 3 && name.find(wanted) != std::string::npos);
    if (related) out.push_back({{"stock", q.ticker}, {"name", q.name}});
  }
  return out;
}

std::string quote_path(const std::string& ticker) {
  // The site writes the ':' of SYMBOL:EXCHANGE as it is.
  auto colon = ticker.find(':');
  if (colon == std::string::npos) return path_encode(ticker);
  return path_encode(ticker.substr(0, colon)) + ":" + path_encode(ticker.substr(colon + 1));
}

class FinanceEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "search/finance"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"summary.title",
            "summary.price",
            "summary.extractedPrice",
            "summary.currency",
            "summary.priceMovement",
            "summary.previousClose",
            "summary.date",
            "graph",
            "keyStats.stats",
            "aboutCompany",
            "news",
            "financials",
            "discoverMore",
            "suggestions"};
  }
  const Parameters& parameters() const override { return finance_parameters(); }

  PageRequest build_request(const ValidatedParams& params) const override {
    PageRequest request;
    UrlBuilder url(kQuoteBase + quote_path(*params.string("q")));
    url.add("hl", language_tag(params.string("hl").value_or("en")));
    if (auto window = params.string("window")) url.add("window", *window);
    request.url = url.str();
    // The data blobs are inline scripts of the document.
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    const json& blobs = at(output, {"blobs"});
    const json& page = at(output, {"page"});
    if (!blobs.is_object() || blobs.empty()) {
      throw extraction_failed("could not find the quote's data on the page",
                              "no AF_initDataCallback blobs on the page");
    }
    const std::string ticker = *params.string("q");
    const std::vector<Quote> quotes = all_quotes(blobs);
    const Quote* quote = find_quote(quotes, ticker);
    if (!quote) return {{"suggestions", suggestions_of(quotes, ticker)}};

    json body = json::object();
    body["summary"] =
        summary_of(*quote, page, price_of(*quote, blobs, page, params.string("hl").value_or("en")));
    if (auto graph = graph_of(blobs, *quote, params.string("window").value_or("1D"))) {
      body["graph"] = std::move(*graph);
    }
    const json* company = company_of(blobs, *quote);
    body["keyStats"] = {{"stats", key_stats_of(page, company)}};
    if (auto about = about_of(page, company)) body["aboutCompany"] = std::move(*about);
    body["news"] = news_of(blobs, *quote);
    if (json f = financials_of(blobs, *quote); !f.empty()) body["financials"] = std::move(f);
    if (json d = discover_of(page, quotes); !d.empty()) body["discoverMore"] = std::move(d);
    return body;
  }

  // The quote's summary, or the suggestions for an unknown ticker (a real answer, not an error).
  bool has_content(const json& body) const override {
    return body.is_object() && (body.contains("summary") || body.contains("suggestions"));
  }
};

}  // namespace

std::string iso8601_at_offset(long long epoch_seconds, long long offset_seconds) {
  const long long local = epoch_seconds + offset_seconds;
  long long days = local / 86400;
  long long rest = local % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  int y, m, d;
  civil_from_days(days, y, m, d);
  char buf[24];
  std::snprintf(buf, sizeof buf, "T%02lld:%02lld:%02lld", rest / 3600, (rest % 3600) / 60,
                rest % 60);
  return date_text(y, m, d) + buf + offset_text(offset_seconds);
}

const Endpoint& finance_endpoint() {
  return the_endpoint<FinanceEndpoint>();
}

}  // namespace gleaner::extract::google
