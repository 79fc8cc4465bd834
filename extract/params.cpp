#include "extract/params.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "core/error.h"

namespace gleaner::extract {
namespace {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (const auto& n : names) quoted.push_back("'" + n + "'");
  return join(quoted, ", ");
}

std::string format_bound(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

std::optional<long long> parse_whole(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  for (std::size_t j = i; j < text.size(); ++j) {
    if (text[j] < '0' || text[j] > '9') return std::nullopt;
  }
  return std::strtoll(text.c_str(), nullptr, 10);
}

std::optional<double> parse_decimal(const std::string& text) {
  if (text.empty() || text.size() > 64) return std::nullopt;
  // strtod accepts hex, "inf", "nan" and leading blanks: allow only plain decimal notation.
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
      return std::nullopt;
    }
  }
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

bool valid_date(const std::string& text) {
  static const Regex shape("([0-9]{4})-([0-9]{2})-([0-9]{2})");
  RegexMatch m;
  if (!shape.full_match(text, m)) return false;
  int y = std::stoi(m[1]), mo = std::stoi(m[2]), d = std::stoi(m[3]);
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo < 1 || mo > 12 || d < 1) return false;
  int limit = days[mo - 1] + ((mo == 2 && is_leap(y)) ? 1 : 0);
  return d <= limit;
}

}  // namespace

// --- ValidatedParams ------------------------------------------------------------------------

std::optional<std::string> ValidatedParams::string(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::optional<long long> ValidatedParams::integer(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<long long>();
}

std::optional<double> ValidatedParams::number(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<bool> ValidatedParams::boolean(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

std::vector<std::string> ValidatedParams::list(const std::string& name) const {
  auto it = values_.find(name);
  if (it != values_.end() && it->is_array()) return it->get<std::vector<std::string>>();
  return {};
}

// --- Param ----------------------------------------------------------------------------------

Param Param::required() const {
  Param p = *this;
  p.required_ = true;
  return p;
}

Param Param::range(std::optional<double> min, std::optional<double> max) const {
  Param p = *this;
  p.min_ = min;
  p.max_ = max;
  return p;
}

Param Param::multiple_of(long long step) const {
  Param p = *this;
  p.step_ = step;
  return p;
}

Param Param::one_of(std::vector<std::string> values) const {
  Param p = *this;
  p.allowed_ = std::move(values);
  return p;
}

Param Param::aliases(std::vector<std::pair<std::string, std::string>> words) const {
  Param p = *this;
  p.aliases_ = std::move(words);
  return p;
}

Param Param::unserved(std::vector<std::string> values, std::string why) const {
  Param p = *this;
  p.unserved_ = std::move(values);
  p.unserved_why_ = std::move(why);
  return p;
}

std::vector<std::string> Param::accepted_words() const {
  if (allowed_.empty()) return {};
  std::vector<std::string> words = allowed_;
  for (const auto& [word, value] : aliases_) words.push_back(word);
  return words;
}

std::string Param::resolve(const std::string& value) const {
  for (const auto& [word, meant] : aliases_) {
    if (word == value) return meant;
  }
  if (std::find(unserved_.begin(), unserved_.end(), value) != unserved_.end()) {
    throw invalid_parameter(
        name_, "'" + name_ + "' value '" + value + "' cannot be served: " + unserved_why_);
  }
  return value;
}

Param Param::pattern(const std::string& regex, std::string expected) const {
  Param p = *this;
  p.pattern_.emplace(regex);
  p.pattern_expected_ = std::move(expected);
  p.pattern_source_ = regex;
  return p;
}

Param Param::items(char separator, std::vector<std::string> values) const {
  Param p = *this;
  p.separator_ = separator;
  p.allowed_ = std::move(values);
  return p;
}

Param Param::default_value(nlohmann::json value) const {
  Param p = *this;
  p.default_ = std::move(value);
  return p;
}

Param Param::max_length(std::size_t n) const {
  Param p = *this;
  p.max_length_ = n;
  return p;
}

void Param::check_allowed(const std::string& value) const {
  if (pattern_ && !pattern_->full_match(value)) {
    throw invalid_parameter(name_, "'" + name_ + "' must be " + pattern_expected_);
  }
  if (!allowed_.empty() && std::find(allowed_.begin(), allowed_.end(), value) == allowed_.end()) {
    throw invalid_parameter(name_, "'" + name_ + "' must be one of: " +
                                       join(accepted_words(), ", ") + " (got '" + value + "')");
  }
}

void Param::check_range(double v) const {
  if ((!min_ || v >= *min_) && (!max_ || v <= *max_)) return;
  std::string bounds = min_ && max_
                           ? "between " + format_bound(*min_) + " and " + format_bound(*max_)
                       : min_ ? "at least " + format_bound(*min_)
                              : "at most " + format_bound(*max_);
  throw invalid_parameter(name_, "'" + name_ + "' must be " + bounds);
}

namespace {

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t extra = 0;
    unsigned min = 0;
    unsigned code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1;
      min = 0x80;
      code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
      min = 0x800;
      code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3;
      min = 0x10000;
      code = c & 0x07;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= extra; ++k) {
      if (i + k >= text.size()) return false;
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace

nlohmann::json Param::parse(const std::vector<std::string>& raw) const {
  // Values travel on as JSON (script arguments, stored requests, the site's own query state):
  // bytes that are not UTF-8 text are refused here, where the caller can be told which parameter.
  for (const auto& value : raw) {
    if (!valid_utf8(value)) {
      throw invalid_parameter(name_, "'" + name_ + "' must be UTF-8 text");
    }
  }
  if (type_ == ParamType::List) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& given : raw) {
      if (given.size() > max_length_) {
        throw invalid_parameter(name_, "an item of '" + name_ + "' is too long");
      }
      const std::string item = resolve(given);
      check_allowed(item);
      items.push_back(item);
    }
    return items;
  }
  if (raw.size() != 1) {
    throw invalid_parameter(name_, "'" + name_ + "' may be given only once");
  }
  const std::string text =
      type_ == ParamType::String && separator_ == '\0' ? resolve(raw.front()) : raw.front();
  switch (type_) {
    case ParamType::String: {
      if (text.size() > max_length_) {
        throw invalid_parameter(
            name_, "'" + name_ + "' is longer than " + std::to_string(max_length_) + " characters");
      }
      if (separator_ == '\0') {
        check_allowed(text);
        return text;
      }
      // Separated items: the pattern (if any) applies to the whole, the enumeration per item.
      if (pattern_ && !pattern_->full_match(text)) {
        throw invalid_parameter(name_, "'" + name_ + "' must be " + pattern_expected_);
      }
      std::set<std::string> seen;
      std::string given;
      std::string resolved;
      std::istringstream in(text);
      while (std::getline(in, given, separator_)) {
        if (given.empty()) {
          throw invalid_parameter(name_, "'" + name_ + "' has an empty item");
        }
        const std::string item = resolve(given);
        if (!resolved.empty()) resolved += separator_;
        resolved += item;
        if (!allowed_.empty() &&
            std::find(allowed_.begin(), allowed_.end(), item) == allowed_.end()) {
          throw invalid_parameter(
              name_, "'" + name_ + "' items must be among: " + join(accepted_words(), ", ") +
                         " (got '" + given + "')");
        }
        if (!seen.insert(item).second) {
          throw invalid_parameter(name_, "'" + name_ + "' repeats '" + item + "'");
        }
      }
      if (text.back() == separator_) {
        throw invalid_parameter(name_, "'" + name_ + "' has an empty item");
      }
      return resolved;
    }
    case ParamType::Int: {
      auto v = parse_whole(text);
      if (!v) throw invalid_parameter(name_, "'" + name_ + "' must be a whole number");
      check_range(static_cast<double>(*v));
      if (step_ > 0 && *v % step_ != 0) {
        throw invalid_parameter(name_,
                                "'" + name_ + "' must be a multiple of " + std::to_string(step_));
      }
      return *v;
    }
    case ParamType::Number: {
      auto v = parse_decimal(text);
      if (!v) throw invalid_parameter(name_, "'" + name_ + "' must be a number");
      check_range(*v);
      return *v;
    }
    case ParamType::Bool: {
      if (text == "true" || text == "1") return true;
      if (text == "false" || text == "0") return false;
      throw invalid_parameter(name_, "'" + name_ + "' must be true or false");
    }
    case ParamType::Date: {
      if (!valid_date(text)) {
        throw invalid_parameter(name_, "'" + name_ + "' must be a date written YYYY-MM-DD");
      }
      return text;
    }
    case ParamType::List: break;  // handled above
  }
  return text;
}

// --- Rule -----------------------------------------------------------------------------------

Rule Rule::exclusive(std::vector<std::string> names) {
  return Rule([names](const ValidatedParams& p) {
    const std::string* first = nullptr;
    for (const auto& n : names) {
      if (!p.has(n)) continue;
      if (first) {
        throw conflicting_parameters(n, "'" + n + "' cannot be used together with '" + *first +
                                            "' (only one of " + quoted_list(names) + ")");
      }
      first = &n;
    }
  });
}

Rule Rule::only_with(std::string name, std::vector<std::string> partners) {
  return Rule([name, partners](const ValidatedParams& p) {
    if (!p.has(name)) return;
    for (const auto& partner : partners) {
      if (p.has(partner)) return;
    }
    throw invalid_parameter(name, "'" + name + "' can only be used together with " +
                                      (partners.size() == 1 ? quoted_list(partners)
                                                            : "one of " + quoted_list(partners)));
  });
}

Rule Rule::one_of(std::vector<std::string> names) {
  return Rule([names](const ValidatedParams& p) {
    for (const auto& n : names) {
      if (p.has(n)) return;
    }
    throw Error(ErrorCode::MissingParameter, "one of " + quoted_list(names) + " is required")
        .with_parameter(names.front());
  });
}

Rule Rule::requires_with(std::string name, std::string needed) {
  return Rule([name, needed](const ValidatedParams& p) {
    if (p.has(name) && !p.has(needed)) {
      throw Error(ErrorCode::MissingParameter,
                  "'" + needed + "' is required when '" + name + "' is given")
          .with_parameter(needed);
    }
  });
}

// --- Parameters -----------------------------------------------------------------------------

Parameters::Parameters(std::vector<Param> params, std::vector<Rule> rules)
    : params_(std::move(params)), rules_(std::move(rules)) {}

const Param* Parameters::find(std::string_view name) const {
  for (const auto& p : params_) {
    if (p.name() == name) return &p;
  }
  return nullptr;
}

namespace {

// How a query key names a declared parameter: as it is declared, as `list[]`, or as one indexed
// item of a list (`list[3]`, `list[][3]`).
struct KeyForm {
  const Param* param = nullptr;
  std::optional<long> index;
};

KeyForm key_form(const Parameters& params, const std::string& key) {
  if (const Param* p = params.find(key)) return {p, std::nullopt};
  if (!key.ends_with("]")) return {};
  const std::size_t open = key.rfind('[');
  if (open == std::string::npos || open == 0) return {};
  const std::string inside = key.substr(open + 1, key.size() - open - 2);
  std::string base = key.substr(0, open);
  std::optional<long> index;
  if (!inside.empty()) {
    if (inside.size() > 4 ||
        !std::all_of(inside.begin(), inside.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return {};
    }
    index = std::stol(inside);
    if (base.ends_with("[]")) base.resize(base.size() - 2);
  }
  const Param* p = params.find(base);
  if (!p || p->type() != ParamType::List) return {};
  return {p, index};
}

}  // namespace

ValidatedParams Parameters::validate(const QueryParams& query) const {
  // Group the raw values by declared parameter; `name[]`, `name` and `name[i]` all reach a List.
  // Indexed items are ordered by index; repeated ones keep the order they were sent in.
  std::map<std::string, std::vector<std::string>> raw;
  std::map<std::string, std::map<long, std::string>> indexed;
  std::set<std::string> repeated;
  for (const auto& [key, value] : query) {
    const KeyForm form = key_form(*this, key);
    if (!form.param) {
      throw invalid_parameter(key, "unknown parameter '" + key + "'");
    }
    const std::string& name = form.param->name();
    if (form.index) {
      if (!indexed[name].emplace(*form.index, value).second) {
        throw invalid_parameter(name, "'" + key + "' is given twice");
      }
    } else if (form.param->type() == ParamType::List) {
      repeated.insert(name);
    }
    if (form.index && repeated.contains(name)) {
      throw invalid_parameter(name, "'" + name + "' is written both with indexes (" + key +
                                        ") and without: use one form");
    }
    if (!form.index && indexed.contains(name)) {
      throw invalid_parameter(name, "'" + name + "' is written both with indexes and without (" +
                                        key + "): use one form");
    }
    if (value.empty() || form.index) continue;  // `x=` counts as absent
    raw[name].push_back(value);
  }
  for (const auto& [name, items] : indexed) {
    for (const auto& [index, value] : items) {
      if (!value.empty()) raw[name].push_back(value);
    }
  }

  ValidatedParams out;
  for (const auto& p : params_) {
    auto it = raw.find(p.name());
    if (it != raw.end()) {
      out.set(p.name(), p.parse(it->second));
    }
  }
  for (const auto& p : params_) {
    if (p.is_required() && !out.has(p.name())) throw missing_parameter(p.name());
  }
  for (const auto& rule : rules_) rule.apply(out);
  // Defaults after the rules, so "only with" and exclusivity see only what the caller sent.
  for (const auto& p : params_) {
    if (!out.has(p.name()) && p.fallback()) out.set(p.name(), *p.fallback());
  }
  return out;
}

std::string tag_language(std::string_view tag) {
  std::string out;
  for (char c : tag.substr(0, tag.find_first_of("-_"))) {
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string tag_region(std::string_view tag) {
  const std::size_t cut = tag.find_first_of("-_");
  if (cut == std::string_view::npos) return "";
  const std::string_view rest = tag.substr(cut + 1);
  if (rest.size() != 2 || !std::isalpha(static_cast<unsigned char>(rest[0])) ||
      !std::isalpha(static_cast<unsigned char>(rest[1]))) {
    return "";
  }
  std::string out;
  for (char c : rest) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string language_tag(std::string_view tag) {
  const std::string language = tag_language(tag);
  const std::size_t cut = tag.find_first_of("-_");
  if (cut == std::string_view::npos) return language;
  const std::string region = tag_region(tag);
  if (!region.empty() && language != "xx") return language + "-" + region;
  // An area (`419`) or one of Google's joke languages (`xx-pirate`): lower case as written.
  std::string rest;
  for (char c : tag.substr(cut + 1)) {
    rest += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return language + "-" + rest;
}

std::vector<std::string> with_and_without_www(const std::vector<std::string>& domains,
                                              const std::vector<std::string>& other_hosts) {
  std::vector<std::string> out;
  for (const std::string& d : domains) {
    out.push_back(d);
    out.push_back("www." + d);
  }
  out.insert(out.end(), other_hosts.begin(), other_hosts.end());
  return out;
}

}  // namespace gleaner::extract
