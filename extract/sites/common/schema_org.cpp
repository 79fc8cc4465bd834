#include "extract/sites/common/schema_org.h"

#include <cstdlib>

#include "core/regex.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract::schema_org {
namespace {

using nlohmann::json;

const json& property(const json& node, std::string_view name) {
  static const json kNull;
  if (!node.is_object()) return kNull;
  auto it = node.find(std::string(name));
  return it == node.end() ? kNull : *it;
}

const json& first(const json& v) {
  if (v.is_array()) {
    for (const json& item : v) {
      if (!item.is_null()) return item;
    }
    static const json kNull;
    return kNull;
  }
  return v;
}

constexpr const char* kDays[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                 "Friday", "Saturday", "Sunday"};

// "Mo" / "Monday" / "https://schema.org/Monday" → 0..6; -1 otherwise.
int day_index(std::string word) {
  if (auto slash = word.rfind('/'); slash != std::string::npos) word = word.substr(slash + 1);
  const std::string w = lower(word);
  static const char* kShort[] = {"mo", "tu", "we", "th", "fr", "sa", "su"};
  for (int i = 0; i < 7; ++i) {
    if (w == kShort[i] || w == lower(kDays[i]) ||
        (w.size() >= 3 && lower(kDays[i]).starts_with(w))) {
      return i;
    }
  }
  return -1;
}

std::string hhmm(const std::string& t) {
  // "11:00", "11:00:00", "9:30" → "HH:MM".
  static const Regex kTime(R"((\d{1,2}):(\d{2}))");
  RegexMatch m;
  if (!kTime.search(t, m)) return t;
  std::string h = m[1];
  if (h.size() == 1) h = "0" + h;
  return h + ":" + std::string(m[2]);
}

void add_short_form(const std::string& spec, json& out) {
  // "Mo-Th 11:00-21:30", "Fr,Sa 11:00-23:00", "Mo-Su" (all day), "Tu 09:00-12:00,13:00-17:00".
  static const Regex kSpec(
      R"(^\s*([A-Za-z]{2}(?:\s*[-,]\s*[A-Za-z]{2})*)\s*((?:\d{1,2}:\d{2}\s*-\s*\d{1,2}:\d{2}\s*,?\s*)*)\s*$)");
  RegexMatch m;
  if (!kSpec.full_match(spec, m)) return;
  std::vector<int> days;
  std::string list = m[1];
  std::size_t i = 0;
  while (i < list.size()) {
    const std::size_t j = list.find(',', i);
    std::string part = list.substr(i, j == std::string::npos ? std::string::npos : j - i);
    part.erase(0, part.find_first_not_of(' '));
    if (auto dash = part.find('-'); dash != std::string::npos) {
      int a = day_index(part.substr(0, dash));
      std::string b_text = part.substr(dash + 1);
      b_text.erase(0, b_text.find_first_not_of(' '));
      int b = day_index(b_text.substr(0, 2));
      if (a >= 0 && b >= 0) {
        for (int d = a;; d = (d + 1) % 7) {
          days.push_back(d);
          if (d == b) break;
        }
      }
    } else if (int d = day_index(part.substr(0, 2)); d >= 0) {
      days.push_back(d);
    }
    if (j == std::string::npos) break;
    i = j + 1;
  }
  static const Regex kRange(R"((\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2}))");
  const std::string times = m[2];
  std::vector<std::pair<std::string, std::string>> ranges;
  for (const RegexMatch& range : kRange.find_all(times)) {
    ranges.emplace_back(hhmm(range[1]), hhmm(range[2]));
  }
  if (ranges.empty()) ranges.emplace_back("00:00", "23:59");
  for (int d : days) {
    for (const auto& [opens, closes] : ranges) {
      out.push_back({{"day", kDays[d]}, {"opens", opens}, {"closes", closes}});
    }
  }
}

}  // namespace

bool is_type(const json& node, std::string_view type) {
  const json& t = property(node, "@type");
  if (t.is_string()) return t.get<std::string>() == type;
  if (t.is_array()) {
    for (const json& x : t) {
      if (x.is_string() && x.get<std::string>() == type) return true;
    }
  }
  return false;
}

std::vector<const json*> of_type(const json& nodes, const std::vector<std::string_view>& types) {
  std::vector<const json*> out;
  if (!nodes.is_array()) return out;
  for (const json& n : nodes) {
    for (std::string_view t : types) {
      if (is_type(n, t)) {
        out.push_back(&n);
        break;
      }
    }
  }
  return out;
}

const json& resolve(const json& value, const json& nodes) {
  const json& id = property(value, "@id");
  if (!id.is_string() || value.size() > 1 || !nodes.is_array()) return value;
  for (const json& n : nodes) {
    if (&n != &value && n.is_object() && n.size() > 1 && property(n, "@id") == id) return n;
  }
  return value;
}

std::string text(const json& node, std::string_view name) {
  const json& v = first(property(node, name));
  if (v.is_object()) {
    for (const char* key : {"name", "@value", "value", "text"}) {
      if (const json& inner = property(v, key); inner.is_string() || inner.is_number()) {
        return extract::text(inner);
      }
    }
    return {};
  }
  return extract::text(v);
}

std::optional<double> number(const json& node, std::string_view name) {
  const json& v = first(property(node, name));
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.find_first_of("0123456789") == std::string::npos) return std::nullopt;
    // JSON-LD numbers as strings: "4.5", "4,5", "1,215" (a count) are all read by the kit's
    // number parser.
    return parse_number(s);
  }
  return std::nullopt;
}

json address(const json& raw, const json& nodes) {
  const json& value = resolve(first(raw), nodes);
  if (value.is_string()) {
    return value.get<std::string>().empty() ? json() : json{{"full", value}};
  }
  if (!value.is_object()) return nullptr;
  json out = json::object();
  std::string full;
  for (const char* key :
       {"streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"}) {
    std::string part = text(value, key);
    if (part.empty()) continue;
    out[key] = part;
    if (!full.empty()) full += ", ";
    full += part;
  }
  if (full.empty()) return nullptr;
  out["full"] = full;
  return out;
}

json rating(const json& raw, const json& nodes) {
  const json& value = resolve(first(raw), nodes);
  auto v = number(value, "ratingValue");
  if (!v) return nullptr;
  json out = {{"value", *v}};
  auto count = number(value, "reviewCount");
  if (!count) count = number(value, "ratingCount");
  if (count) out["count"] = static_cast<long long>(*count);
  if (auto best = number(value, "bestRating")) out["best"] = *best;
  if (auto worst = number(value, "worstRating")) out["worst"] = *worst;
  return out;
}

json opening_hours(const json& node, const json& nodes) {
  json out = json::array();
  const json& spec = property(node, "openingHoursSpecification");
  auto add_spec = [&](const json& raw) {
    const json& s = resolve(raw, nodes);
    const std::string opens = hhmm(text(s, "opens"));
    const std::string closes = hhmm(text(s, "closes"));
    const json& days = property(s, "dayOfWeek");
    for (const json& d : days.is_array() ? days : json::array({days})) {
      int i = day_index(extract::text(d));
      if (i >= 0) out.push_back({{"day", kDays[i]}, {"opens", opens}, {"closes", closes}});
    }
  };
  if (spec.is_array()) {
    for (const json& s : spec) add_spec(s);
  } else if (spec.is_object()) {
    add_spec(spec);
  }
  if (!out.empty()) return out;
  const json& short_form = property(node, "openingHours");
  for (const json& s : short_form.is_array() ? short_form : json::array({short_form})) {
    if (s.is_string()) add_short_form(s.get<std::string>(), out);
  }
  return out;
}

std::vector<std::string> images(const json& value) {
  std::vector<std::string> out;
  auto add = [&](const std::string& url) {
    if (url.empty()) return;
    for (const std::string& u : out) {
      if (u == url) return;
    }
    out.push_back(url);
  };
  for (const json& v : value.is_array() ? value : json::array({value})) {
    if (v.is_string()) {
      add(v.get<std::string>());
    } else if (v.is_object()) {
      std::string url = text(v, "url");
      if (url.empty()) url = text(v, "contentUrl");
      add(url);
    }
  }
  return out;
}

std::optional<std::pair<double, double>> coordinates(const json& raw, const json& nodes) {
  const json& geo = resolve(first(raw), nodes);
  auto lat = number(geo, "latitude");
  auto lng = number(geo, "longitude");
  if (!lat || !lng) return std::nullopt;
  return std::make_pair(*lat, *lng);
}

json reviews(const json& node, const json& nodes, std::chrono::system_clock::time_point now) {
  json out = json::array();
  const json& listed = property(node, "review");
  for (const json& raw : listed.is_array() ? listed : json::array({listed})) {
    const json& rv = resolve(raw, nodes);
    if (!rv.is_object()) continue;
    std::string body = text(rv, "reviewBody");
    if (body.empty()) body = text(rv, "description");
    if (body.empty()) continue;
    json review = {{"text", body}};
    if (std::string t = text(rv, "name"); !t.empty()) review["title"] = t;
    if (auto score = number(resolve(property(rv, "reviewRating"), nodes), "ratingValue"))
      review["rating"] = *score;
    if (std::string d = text(rv, "datePublished"); !d.empty()) {
      if (auto iso = parse_date(d, now)) review["date"] = *iso;
    }
    if (std::string a = text(rv, "author"); !a.empty()) review["author"] = a;
    out.push_back(review);
  }
  return out;
}

}  // namespace gleaner::extract::schema_org
