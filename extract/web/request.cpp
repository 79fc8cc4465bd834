#include "extract/web/request.h"

#include "core/error.h"
#include "core/http_header.h"
#include "core/json_depth.h"
#include "extract/html/css_xpath.h"
#include "extract/sessions.h"
#include "extract/web/css_selector.h"
#include "proxies/guard.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <functional>

namespace gleaner::web {
namespace {

using nlohmann::json;

// Viewport bounds: what Chromium renders sensibly and what a screenshot may cover.
constexpr int kMinViewport = 100;
constexpr int kMaxViewportWidth = 3840;
constexpr int kMaxViewportHeight = 2160;

std::string type_name(const json& v) {
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return "null";
}

[[noreturn]] void wrong_type(const std::string& field, const char* expected, const json& v) {
  throw invalid_parameter(field, "'" + field + "' must be " + expected + ", not " + type_name(v));
}

bool as_bool(const std::string& field, const json& v) {
  if (!v.is_boolean()) wrong_type(field, "true or false", v);
  return v.get<bool>();
}

std::string as_string(const std::string& field, const json& v) {
  if (!v.is_string()) wrong_type(field, "a string", v);
  return v.get<std::string>();
}

long long as_integer(const std::string& field, const json& v, long long min, long long max) {
  if (!v.is_number_integer() && !v.is_number_unsigned()) wrong_type(field, "a whole number", v);
  long long n = v.is_number_unsigned() ? static_cast<long long>(std::min<std::uint64_t>(
                                             v.get<std::uint64_t>(), 1ULL << 62))
                                       : v.get<long long>();
  if (n < min || n > max) {
    throw invalid_parameter(field, "'" + field + "' must be between " + std::to_string(min) +
                                       " and " + std::to_string(max));
  }
  return n;
}

/// An array of 1 to `max` non-empty strings of at most 1000 characters.
std::vector<std::string> string_list(const std::string& field, const json& v, std::size_t max) {
  if (!v.is_array()) wrong_type(field, "an array of strings", v);
  if (v.size() > max) {
    throw invalid_parameter(field, "'" + field + "' has more than " + std::to_string(max) + " entries");
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string where = field + "[" + std::to_string(i) + "]";
    std::string s = as_string(where, v[i]);
    if (s.empty() || s.size() > 1000) {
      throw invalid_parameter(where, "'" + where + "' must have 1 to 1000 characters");
    }
    out.push_back(std::move(s));
  }
  return out;
}

/// includeOnlyTags / excludeTags: CSS selectors that both roads can apply (the plain road
/// compiles them to XPath, extract/html/css_xpath.h, so only what it supports is accepted).
std::vector<std::string> selector_list(const std::string& field, const json& v) {
  std::vector<std::string> out = string_list(field, v, kMaxTagSelectors);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::string why;
    if (html::is_xpath(out[i]) || html::css_to_xpath(out[i], &why).empty()) {
      const std::string where = field + "[" + std::to_string(i) + "]";
      throw invalid_parameter(where, "'" + where + "' is not a supported CSS selector: " +
                                         (why.empty() ? "XPath is not accepted here" : why));
    }
  }
  return out;
}

}  // namespace

WebRequest parse_web_request(std::string_view body, Millis default_timeout) {
  json doc = parse_json_body(body);
  if (!doc.is_object()) throw Error(ErrorCode::InvalidJson, "the request body must be a JSON object");

  WebRequest r;
  r.timeout = std::min(default_timeout, kMaxTimeout);
  std::optional<bool> block_resources;
  // Given fields that only a browser can honour: a 400 with jsRendering: false.
  std::vector<std::string> browser_only;
  auto needs_browser = [&](const char* field) { browser_only.emplace_back(field); };
  // sessionTtl, sessionQueue: they mean nothing without a sessionId.
  std::vector<std::string> session_terms;

  // Every accepted field, each with how to read it; anything else is refused.
  const std::map<std::string, std::function<void(const json&)>> fields = {
      {"url", [&](const json& v) { r.url = as_string("url", v); }},
      {"outputFormat",
       [&](const json& v) {
         if (!v.is_array()) wrong_type("outputFormat", "an array of strings", v);
         r.html = false;
         for (const auto& item : v) {
           std::string f = as_string("outputFormat", item);
           if (f == "html") r.html = true;
           else if (f == "text") r.text = true;
           else if (f == "markdown") r.markdown = true;
           else if (f == "json") r.json = true;
           else
             throw invalid_parameter("outputFormat", "unknown output format '" + f +
                                                         "'; allowed: html, text, markdown, json");
         }
       }},
      {"screenshot",
       [&](const json& v) {
         r.screenshot = as_bool("screenshot", v);
         if (r.screenshot) needs_browser("screenshot");
       }},
      {"screenshotFullPage",
       [&](const json& v) {
         r.screenshot_options.full_page = as_bool("screenshotFullPage", v);
         needs_browser("screenshotFullPage");
       }},
      {"screenshotFormat",
       [&](const json& v) {
         const auto format = screenshots::parse_format(as_string("screenshotFormat", v));
         if (!format) {
           throw invalid_parameter("screenshotFormat",
                                   "screenshotFormat must be 'png', 'jpeg' or 'webp'");
         }
         r.screenshot_options.format = *format;
         needs_browser("screenshotFormat");
       }},
      {"screenshotQuality",
       [&](const json& v) {
         r.screenshot_options.quality =
             static_cast<int>(as_integer("screenshotQuality", v, 0, 100));
         needs_browser("screenshotQuality");
       }},
      {"extractLinks", [&](const json& v) { r.extract_links = as_bool("extractLinks", v); }},
      {"extractEmails", [&](const json& v) { r.extract_emails = as_bool("extractEmails", v); }},
      {"proxyType",
       [&](const json& v) {
         std::string t = as_string("proxyType", v);
         if (t != "residential" && t != "datacenter") {
           throw invalid_parameter("proxyType", "proxyType must be 'residential' or 'datacenter'");
         }
         r.proxy_type = t;
       }},
      // Checked against the ISO list and the configured pools by proxies::UpstreamPools::route.
      {"proxyCountry", [&](const json& v) { r.proxy_country = as_string("proxyCountry", v); }},
      {"wait",
       [&](const json& v) {
         r.wait = Millis(as_integer("wait", v, 0, kMaxTimeout.count()));
         needs_browser("wait");
       }},
      {"waitFor",
       [&](const json& v) {
         std::string s = as_string("waitFor", v);
         if (s.empty() || s.size() > 1000) {
           throw invalid_parameter("waitFor", "waitFor must be a CSS selector of 1 to 1000 characters");
         }
         if (std::string why = css_selector_error(s); !why.empty()) {
           throw invalid_parameter("waitFor", "waitFor is not a valid CSS selector: " + why);
         }
         r.wait_for = s;
         needs_browser("waitFor");
       }},
      {"timeout",
       [&](const json& v) { r.timeout = Millis(as_integer("timeout", v, 1000, kMaxTimeout.count())); }},
      {"headers",
       [&](const json& v) {
         if (!v.is_object()) wrong_type("headers", "an object of strings", v);
         if (v.size() > http_header::kMaxCustomHeaders) {
           throw invalid_parameter("headers", "at most " +
                                                  std::to_string(http_header::kMaxCustomHeaders) +
                                                  " headers");
         }
         for (auto it = v.begin(); it != v.end(); ++it) {
           std::string value = as_string("headers", it.value());
           if (!http_header::valid_name(it.key())) {
             throw invalid_parameter("headers", "header '" + it.key() + "' is not a valid HTTP header");
           }
           // The name is a token from here on: safe to name in the parameter.
           if (auto why = http_header::reserved_because(it.key()); !why.empty()) {
             // Chromium refuses such a header when it loads the page: say so now, not as a 502.
             throw invalid_parameter("headers." + it.key(),
                                     "header '" + it.key() + "' may not be set: it " + std::string(why));
           }
           // Issue 23, item 5: the webhook's bound on a value (core/http_header.h), far below
           // the 8 KiB per header line that servers and the egress gateway take.
           if (std::string why = http_header::value_refused_because(value); !why.empty()) {
             throw invalid_parameter("headers." + it.key(),
                                     "header '" + it.key() + "' may not be sent: its value " + why);
           }
           r.headers[it.key()] = value;
         }
       }},
      {"blockResources", [&](const json& v) { block_resources = as_bool("blockResources", v); }},
      {"blockAds", [&](const json& v) { r.block_ads = as_bool("blockAds", v); }},
      {"viewport",
       [&](const json& v) {
         if (!v.is_object()) wrong_type("viewport", "an object {width, height}", v);
         needs_browser("viewport");
         for (auto it = v.begin(); it != v.end(); ++it) {
           if (it.key() == "width") {
             r.viewport_width = static_cast<int>(
                 as_integer("viewport.width", it.value(), kMinViewport, kMaxViewportWidth));
           } else if (it.key() == "height") {
             r.viewport_height = static_cast<int>(
                 as_integer("viewport.height", it.value(), kMinViewport, kMaxViewportHeight));
           } else {
             throw invalid_parameter("viewport." + it.key(),
                                     "unknown field 'viewport." + it.key() + "'");
           }
         }
       }},
      {"jsRendering", [&](const json& v) { r.js_rendering = as_bool("jsRendering", v); }},
      {"jsScenario",
       [&](const json& v) {
         r.js_scenario = scenario::parse_scenario(v, "jsScenario");
         if (!r.js_scenario.empty()) needs_browser("jsScenario");
       }},
      {"jsScenarioStrict", [&](const json& v) { r.js_scenario_strict = as_bool("jsScenarioStrict", v); }},
      {"extractRules", [&](const json& v) { r.extract_rules = rules::parse_rules(v, "extractRules"); }},
      {"onlyMainContent", [&](const json& v) { r.only_main_content = as_bool("onlyMainContent", v); }},
      {"includeOnlyTags", [&](const json& v) { r.include_only_tags = selector_list("includeOnlyTags", v); }},
      {"excludeTags", [&](const json& v) { r.exclude_tags = selector_list("excludeTags", v); }},
      {"removeBase64Images",
       [&](const json& v) { r.remove_base64_images = as_bool("removeBase64Images", v); }},
      {"blockUrls", [&](const json& v) { r.block_urls = string_list("blockUrls", v, kMaxBlockUrls); }},
      // docs/sessions.md: a browser context kept for the caller's account under this name.
      {"sessionId",
       [&](const json& v) {
         std::string id = as_string("sessionId", v);
         const bool valid = !id.empty() && id.size() <= kMaxSessionIdLength &&
                            std::all_of(id.begin(), id.end(), [](unsigned char c) {
                              return std::isalnum(c) || c == '_' || c == '-';
                            });
         if (!valid) {
           throw invalid_parameter("sessionId", "sessionId must be 1 to " +
                                                    std::to_string(kMaxSessionIdLength) +
                                                    " letters, digits, '_' or '-'");
         }
         r.session_id = std::move(id);
         needs_browser("sessionId");
       }},
      {"sessionTtl",
       [&](const json& v) {
         r.session_ttl = std::chrono::seconds(
             as_integer("sessionTtl", v, 1, extract::kMaxSessionTtl.count()));
         session_terms.emplace_back("sessionTtl");
       }},
      {"sessionQueue",
       [&](const json& v) {
         r.session_queue =
             static_cast<int>(as_integer("sessionQueue", v, 0, extract::kMaxSessionQueue));
         session_terms.emplace_back("sessionQueue");
       }},
  };

  for (auto it = doc.begin(); it != doc.end(); ++it) {
    auto field = fields.find(it.key());
    if (field == fields.end()) {
      throw invalid_parameter(it.key(), "unknown field '" + it.key() + "'");
    }
    if (it.value().is_null()) continue;  // an explicit null is the default
    field->second(it.value());
  }
  if (r.url.empty()) throw missing_parameter("url");
  // The scheme and the host's syntax are checked here, whatever serves the page: a replaying
  // service has no gateway to refuse file:, data: or javascript: URLs later.
  proxies::parse_http_url(r.url, "url");
  if (!r.js_rendering && !browser_only.empty()) {
    const std::string& field = browser_only.front();
    throw invalid_parameter(field, "'" + field + "' needs a browser: it cannot be used with "
                                                 "jsRendering: false");
  }
  if (!r.html && !r.text && !r.markdown && !r.json && !r.screenshot && !r.extract_links &&
      !r.extract_emails && !r.extract_rules && r.js_scenario.empty()) {
    throw invalid_parameter("outputFormat", "nothing to return: outputFormat is empty and no "
                                            "screenshot, links, e-mails, extractRules or "
                                            "jsScenario are asked");
  }
  if (!r.session_id && !session_terms.empty()) {
    throw invalid_parameter(session_terms.front(),
                            "'" + session_terms.front() + "' applies to a session: give a sessionId");
  }
  if (r.screenshot_options.quality && !screenshots::takes_quality(r.screenshot_options.format)) {
    // Chromium ignores it for PNG: say so rather than silently dropping what was asked.
    throw invalid_parameter("screenshotQuality",
                            "screenshotQuality applies to screenshotFormat 'jpeg' and 'webp' only");
  }
  r.block_resources = block_resources.value_or(!r.screenshot);
  return r;
}

}  // namespace gleaner::web
