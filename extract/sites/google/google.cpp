#include "extract/sites/google/google.h"

#include "extract/sites/common/text.h"

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
  std::string message = "\x08\x02\x10\x20\x22";
  // Field 4's length as a protobuf varint.
  std::size_t n = canonical_name.size();
  while (n >= 0x80) {
    message += static_cast<char>((n & 0x7F) | 0x80);
    n >>= 7;
  }
  message += static_cast<char>(n);
  message += canonical_name;
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

}  // namespace gleaner::extract::google
