#include "extract/sites/google/google.h"

#include "core/regex.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/protobuf.h"

namespace gleaner::extract::google {

std::vector<Param> search_params() {
  return {
      Param::string("q").required(),
      Param::string("location").max_length(256),
      Param::string("uule").pattern("[A-Za-z0-9+/_=.-]{4,512}", "an encoded location (uule)"),
      Param::string("domain").pattern("(www\\.)?google\\.(com|cat|(com?\\.)?[A-Za-z]{2})",
                                      "a Google search domain such as google.co.uk"),
      Param::string("gl").pattern(patterns::kTwoLetters, "a two-letter country code"),
      Param::string("hl").pattern(patterns::kGoogleLanguage, patterns::kGoogleLanguageWords),
  };
}

Rule location_rule() {
  return Rule::exclusive({"location", "uule"});
}

std::string origin(const ValidatedParams& params) {
  std::string domain = lower(params.string("domain").value_or("google.com"));
  if (domain.starts_with("www.")) domain = domain.substr(4);
  return "https://www." + domain;
}

std::string uule_for_location(std::string_view canonical_name) {
  std::string message;
  put_varint_field(message, 1, 2);
  put_varint_field(message, 2, 32);
  put_bytes_field(message, 4, canonical_name);
  return "w+" + base64url_encode(message);
}

void add_locale(UrlBuilder& url, const ValidatedParams& params) {
  if (auto gl = params.string("gl")) url.add("gl", lower(*gl));
  if (auto hl = params.string("hl")) url.add("hl", language_tag(*hl));
  if (auto uule = params.string("uule")) {
    url.add("uule", *uule);
  } else if (auto location = params.string("location")) {
    url.add("uule", uule_for_location(*location));
  }
}

UrlBuilder results_url(const ValidatedParams& params) {
  UrlBuilder url(origin(params) + "/search");
  url.add("q", params.string("q").value_or(""));
  add_locale(url, params);
  return url;
}

// Google's own parameters of a results page, each checked against what Google takes (known
// values, Google's own shapes of ids, bounded lengths) so a request never reaches the page with
// something Google would ignore or misread.
std::vector<Param> page_params() {
  return {
      Param::integer("num").range(1, 100),
      Param::string("filter").one_of({"0", "1"}),
      Param::string("nfpr").one_of({"0", "1"}),
      Param::string("safe").one_of({"active", "off"}),
      Param::string("tbs")
          .pattern("[A-Za-z0-9_]+:[A-Za-z0-9_./-]*(,[A-Za-z0-9_]+:[A-Za-z0-9_./-]*)*",
                   "Google's search tools, such as qdr:w or cdr:1,cd_min:1/1/2024")
          .max_length(256),
      Param::string("tbm").one_of({"isch", "lcl", "nws", "shop", "vid"}),
      Param::list("lr").pattern("lang_[A-Za-z]{2}(-[A-Za-z]{2})?",
                                "a language as lang_de or lang_zh-TW"),
      Param::string("cr")
          .pattern("country[A-Z]{2}(\\|country[A-Z]{2})*",
                   "countries as countryDE or countryDE|countryFR")
          .max_length(512),
      Param::string("ludocid").pattern("[0-9]{1,20}", "a Google place id (digits)"),
      Param::string("lsig").pattern("[A-Za-z0-9_-]{1,64}", "a Google place signature"),
      Param::string("kgmid").pattern("/[gm]/[0-9a-z_]{2,24}", "a Knowledge Graph id as /m/0dl567"),
      // 1 to 2,048 characters, in three runs: RE2 repeats at most 1,000 times.
      Param::string("si").pattern("[A-Za-z0-9_=+/-]{1,1000}[A-Za-z0-9_=+/-]{0,1000}[A-Za-z0-9_=+/-]{0,48}",
                                  "a cached search id as Google writes it"),
  };
}

std::vector<Param> page_params(std::initializer_list<std::string_view> names) {
  std::vector<Param> out;
  for (Param& p : page_params()) {
    for (std::string_view n : names) {
      if (p.name() == n) out.push_back(std::move(p));
    }
  }
  return out;
}

void add_page_params(UrlBuilder& url, const ValidatedParams& params) {
  if (auto num = params.integer("num")) url.add("num", std::to_string(*num));
  for (const char* name : {"filter", "nfpr", "safe", "tbs", "tbm"}) {
    if (auto v = params.string(name)) url.add(name, *v);
  }
  // Several languages are one `lr`, joined by '|' as Google's advanced search writes them.
  std::string languages;
  for (const std::string& lang : params.list("lr")) {
    languages += (languages.empty() ? "" : "|") + lang;
  }
  if (!languages.empty()) url.add("lr", languages);
  for (const char* name : {"cr", "ludocid", "lsig", "kgmid", "si"}) {
    if (auto v = params.string(name)) url.add(name, *v);
  }
}

void put_text(nlohmann::json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

Param device_param() {
  return Param::string("deviceType").one_of({"desktop", "mobile", "tablet"});
}

BrowserProfile::Device device_of(const ValidatedParams& params) {
  const std::string device = params.string("deviceType").value_or("desktop");
  if (device == "mobile") return BrowserProfile::Device::Mobile;
  if (device == "tablet") return BrowserProfile::Device::Tablet;
  return BrowserProfile::Device::Desktop;
}

}  // namespace gleaner::extract::google
