#pragma once
// Query parameters of a data endpoint, declared once per endpoint; validation and every 400 error
// of the endpoint come from the declaration.
//
//   static const Parameters kParams{
//       {Param::string("q").required(),
//        Param::string("gl").pattern(kTwoLetters, "a two-letter country code"),
//        Param::integer("start").range(0, 1000),
//        Param::string("htichips").items(',', {"date:today", "date:week"}),
//        Param::list("homeTypes")},
//       {Rule::exclusive({"q", "topicToken", "storyToken"}),
//        Rule::only_with("so", {"storyToken"}),
//        Rule::one_of({"itemId", "url"})}};
//   ValidatedParams p = kParams.validate(query);  // throws gleaner::Error (400) naming the
//   parameter
//
// Decisions (docs/endpoints/README.md): an empty value counts as absent; a parameter the endpoint
// does not declare is rejected (invalid_parameter), as POST bodies reject unknown fields; a scalar
// given twice is rejected; list parameters are written `name[]` (the bare `name` is accepted too),
// or indexed as clients built on the `qs` encoding write arrays: `name[0]=a&name[1]=b`, and for a
// list whose client-side name is already `name[]`, `name[][0]=a` (docs/endpoints/README.md
// "Arrays"). One list is written in one form: indexed items mixed with repeated ones, or an index
// given twice, are a 400 naming the list.
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/regex.h"

namespace gleaner::extract {

/// The query string as parsed by the HTTP layer: name → value, repeated names kept (`a[]=1&a[]=2`).
using QueryParams = std::multimap<std::string, std::string>;

enum class ParamType {
  String,  ///< any text (optionally a pattern, an enumeration, or separated items)
  Int,     ///< a whole number, optionally within a range
  Number,  ///< a decimal number, optionally within a range
  Bool,    ///< `true`/`false`/`1`/`0`
  Date,    ///< a calendar date, `YYYY-MM-DD`
  List,    ///< `name[]` repeated; each item optionally from an enumeration
};

/// The typed values of one request after validation. Values are kept as JSON (string, integer,
/// number, boolean, array of strings) so they can be handed to an in-page script as they are.
class ValidatedParams {
 public:
  ValidatedParams() = default;
  explicit ValidatedParams(nlohmann::json values) : values_(std::move(values)) {}

  bool has(const std::string& name) const { return values_.contains(name); }
  std::optional<std::string> string(const std::string& name) const;
  std::optional<long long> integer(const std::string& name) const;
  std::optional<double> number(const std::string& name) const;
  std::optional<bool> boolean(const std::string& name) const;
  /// Items of a List parameter (keyed by its name without `[]`); empty if absent.
  std::vector<std::string> list(const std::string& name) const;
  /// Every value present, keyed by parameter name.
  const nlohmann::json& json() const { return values_; }

  /// Sets a value (validation and defaults; tests).
  void set(const std::string& name, nlohmann::json value) { values_[name] = std::move(value); }

 private:
  nlohmann::json values_ = nlohmann::json::object();
};

/// One declared parameter. Built with the named constructors and chained modifiers.
class Param {
 public:
  static Param string(std::string name) { return Param(std::move(name), ParamType::String); }
  static Param integer(std::string name) { return Param(std::move(name), ParamType::Int); }
  static Param number(std::string name) { return Param(std::move(name), ParamType::Number); }
  static Param boolean(std::string name) { return Param(std::move(name), ParamType::Bool); }
  static Param date(std::string name) { return Param(std::move(name), ParamType::Date); }
  static Param list(std::string name) { return Param(std::move(name), ParamType::List); }

  Param required() const;
  /// Inclusive bounds of an Int or Number parameter (either may be omitted with nullopt).
  Param range(std::optional<double> min, std::optional<double> max) const;
  /// Int only: the value must be a multiple of `step` (e.g. result offsets in tens).
  Param multiple_of(long long step) const;
  /// The whole value (String) or each item (List) must be one of `values` (exact, case-sensitive).
  Param one_of(std::vector<std::string> values) const;
  /// Other words a client may send for a value (`{"house", "houses"}`: a hosted-service client's
  /// word, then the word this API and the site use). An alias is checked and handed on as the
  /// value it stands for, so URL builders only ever see their own words. Applies to the whole
  /// value (String), each item (List, or a String with items).
  Param aliases(std::vector<std::pair<std::string, std::string>> words) const;
  /// Values a client may send that cannot be served (another site behind a domain, a device the
  /// browser does not emulate): a 400 naming the value and saying `why`.
  Param unserved(std::vector<std::string> values, std::string why) const;
  /// The whole value must match `regex` (RE2, whole value); `expected` says what in words,
  /// for the error message ("a two-letter country code").
  Param pattern(const std::string& regex, std::string expected) const;
  /// A String holding `separator`-separated items, each one of `values` (empty = any), none empty
  /// or repeated; the value stays the caller's string.
  Param items(char separator, std::vector<std::string> values = {}) const;
  /// Filled in when the parameter is absent.
  Param default_value(nlohmann::json value) const;
  /// Maximum length of a String value in characters (bytes); 2048 unless set.
  Param max_length(std::size_t n) const;

  const std::string& name() const { return name_; }
  ParamType type() const { return type_; }
  bool is_required() const { return required_; }

  /// Checks one raw value (or the items of a List) and returns the typed value; throws
  /// invalid_parameter naming this parameter.
  nlohmann::json parse(const std::vector<std::string>& raw) const;
  const std::optional<nlohmann::json>& fallback() const { return default_; }

  // Read access to the declaration, for the OpenAPI document (api/openapi.h).
  const std::optional<double>& minimum() const { return min_; }
  const std::optional<double>& maximum() const { return max_; }
  long long step() const { return step_; }
  /// The enumeration of the whole value (String) or of each item (List, or a String with items).
  const std::vector<std::string>& allowed() const { return allowed_; }
  /// Alias words with the value each stands for (aliases()).
  const std::vector<std::pair<std::string, std::string>>& value_aliases() const { return aliases_; }
  /// Values refused as unservable (unserved()), and why.
  const std::vector<std::string>& unserved_values() const { return unserved_; }
  const std::string& unserved_reason() const { return unserved_why_; }
  /// Every word the parameter accepts: allowed() then the alias words (empty when open).
  std::vector<std::string> accepted_words() const;
  /// The regex given to pattern() (matched against the whole value), empty if none.
  const std::string& pattern_source() const { return pattern_source_; }
  const std::string& pattern_expected() const { return pattern_expected_; }
  /// The separator of a String holding items, '\0' if it holds one value.
  char separator() const { return separator_; }
  std::size_t length_limit() const { return max_length_; }

 private:
  Param(std::string name, ParamType type) : name_(std::move(name)), type_(type) {}
  void check_allowed(const std::string& value) const;
  void check_range(double value) const;
  /// The value an alias stands for (or `value` itself); a 400 for an unserved value.
  std::string resolve(const std::string& value) const;

  std::string name_;
  ParamType type_;
  bool required_ = false;
  std::optional<double> min_;
  std::optional<double> max_;
  long long step_ = 0;
  std::vector<std::string> allowed_;
  std::vector<std::pair<std::string, std::string>> aliases_;
  std::vector<std::string> unserved_;
  std::string unserved_why_;
  std::optional<Regex> pattern_;
  std::string pattern_expected_;
  std::string pattern_source_;
  char separator_ = '\0';
  std::optional<nlohmann::json> default_;
  std::size_t max_length_ = 2048;
};

/// A rule over several parameters, checked after each parameter on its own is valid.
class Rule {
 public:
  /// Check run on the typed values; throws gleaner::Error naming the parameter at fault.
  using Check = std::function<void(const ValidatedParams&)>;

  /// At most one of `names` may be given (conflicting_parameters naming the second one seen).
  static Rule exclusive(std::vector<std::string> names);
  /// `name` may only be given together with at least one of `partners` (invalid_parameter naming
  /// `name`), e.g. `so` only with `storyToken`.
  static Rule only_with(std::string name, std::vector<std::string> partners);
  /// At least one of `names` must be given (missing_parameter naming the first), e.g. itemId/url.
  static Rule one_of(std::vector<std::string> names);
  /// When `name` is given, `needed` must be too (missing_parameter naming `needed`).
  static Rule requires_with(std::string name, std::string needed);
  /// Anything else (ordered dates, counts that must match): `check` throws the error itself.
  static Rule custom(Check check) { return Rule(std::move(check)); }

  void apply(const ValidatedParams& params) const { check_(params); }

 private:
  explicit Rule(Check check) : check_(std::move(check)) {}
  Check check_;
};

/// Everything an endpoint accepts. Validation order: unknown names, each parameter (type, range,
/// enumeration, pattern) in declaration order, required ones, then the rules in order.
class Parameters {
 public:
  Parameters(std::vector<Param> params, std::vector<Rule> rules = {});

  /// Validates a request's query; throws gleaner::Error (400) naming the parameter at fault.
  ValidatedParams validate(const QueryParams& query) const;
  const std::vector<Param>& params() const { return params_; }
  const Param* find(std::string_view name) const;

 private:
  std::vector<Param> params_;
  std::vector<Rule> rules_;
};

/// A site's domains as a parameter accepts them: each as given and with a leading "www.", then
/// `other_hosts` as they are (a country's hosts for its other languages, such as fr.yelp.ch).
std::vector<std::string> with_and_without_www(const std::vector<std::string>& domains,
                                              const std::vector<std::string>& other_hosts = {});

/// Patterns several endpoints share.
namespace patterns {
/// ISO 3166-1 alpha-2 country / ISO 639-1 language: exactly two ASCII letters (any case).
inline constexpr const char* kTwoLetters = "[A-Za-z]{2}";
/// A language tag as the sites take it (`hl`, `language`): an ISO 639-1 language, optionally with
/// an ISO 3166-1 region: `en`, `zh-TW`, `pt-BR`, `en-GB` (any case; see language_tag()).
inline constexpr const char* kLanguageTag = "[A-Za-z]{2}([-_][A-Za-z]{2})?";
inline constexpr const char* kLanguageTagWords = "a language code `ll` or `ll-CC` (en, zh-TW, pt-BR)";
/// Google's interface languages (`hl`) as Google lists them: a two- or three-letter language
/// (`en`, `fil`, `haw`), optionally with a region or a UN M.49 area (`zh-TW`, `es-419`, `sr-ME`),
/// and Google's own joke languages (`xx-pirate`).
inline constexpr const char* kGoogleLanguage =
    "[A-Za-z]{2,3}([-_]([A-Za-z]{2}|[0-9]{3}))?|xx-(bork|elmer|hacker|klingon|pirate)";
inline constexpr const char* kGoogleLanguageWords =
    "a Google interface language such as en, fil, zh-TW or es-419";
}  // namespace patterns

/// A tag that matched patterns::kLanguageTag or kGoogleLanguage written the way the sites write
/// it: the language in lower case, a two-letter region in upper case, joined by '-' (`ZH_tw` →
/// `zh-TW`, `es-419`, `xx-pirate`).
std::string language_tag(std::string_view tag);
/// The language part of such a tag (`zh-TW` → `zh`, `fil` → `fil`), lower case.
std::string tag_language(std::string_view tag);
/// The two-letter region of such a tag, upper case (`zh-tw` → `TW`), empty when it has none.
std::string tag_region(std::string_view tag);

}  // namespace gleaner::extract
