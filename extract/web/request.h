#pragma once
// The body of POST /scrape/web, validated strictly: unknown fields, wrong types, bad enum values
// and bad URLs are a 400 naming the field (api.md "POST /scrape/web", conventions.md "Generic
// page-fetch extensions").
#include "core/clock.h"
#include "extract/rules/rules.h"
#include "extract/scenario/scenario.h"
#include "screenshots/format.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::web {

struct WebRequest {
  std::string url;
  // outputFormat; default ["html"].
  bool html = true;
  bool text = false;
  bool markdown = false;
  bool json = false;

  bool screenshot = false;
  /// screenshotFullPage, screenshotFormat, screenshotQuality.
  screenshots::ShotRequest screenshot_options;
  bool extract_links = false;
  bool extract_emails = false;
  std::optional<std::string> proxy_type;
  std::optional<std::string> proxy_country;

  /// Waited after the page is ready.
  Millis wait{0};
  /// CSS selector the page must show before it counts as ready.
  std::optional<std::string> wait_for;
  /// The whole request's time budget (at most 300 s).
  Millis timeout{60000};
  /// Sent to the site with every request of the page ("cookie" included).
  std::map<std::string, std::string> headers;
  /// Images, media and fonts are not loaded (default: true unless a screenshot is asked).
  bool block_resources = true;
  /// Requests to known ad and tracker hosts are not made.
  bool block_ads = true;
  std::optional<int> viewport_width;
  std::optional<int> viewport_height;

  // ---- Interactions, rules, no browser, main content (conventions.md) ----
  /// false: a plain HTTP client fetches the page, no browser (extract/web/plain_fetch.h).
  bool js_rendering = true;
  /// Run in order once the page is ready, before any output is taken.
  std::vector<scenario::Step> js_scenario;
  /// A failed step ends the request with 422 scenario_failed (else it is only reported).
  bool js_scenario_strict = true;
  /// Answered in `extractedData`.
  std::optional<rules::Rules> extract_rules;
  /// `text` and `markdown` hold the page's main content only.
  bool only_main_content = false;
  /// CSS selectors: `text` and `markdown` are made of these elements only / without these.
  std::vector<std::string> include_only_tags;
  std::vector<std::string> exclude_tags;
  /// data: images leave markdown.
  bool remove_base64_images = true;
  /// URL substrings whose requests fail (the page itself excepted).
  std::vector<std::string> block_urls;

  // ---- Sessions (docs/sessions.md) ----
  /// The caller's session to run in: its browser context, kept between requests.
  std::optional<std::string> session_id;
  /// The session ends after this long without a request (at most 1800 s).
  std::chrono::seconds session_ttl{300};
  /// Requests that may wait for the session's tab while another uses it (then 429).
  int session_queue = 4;
  /// Whether the request opens the session when it is not open (no body field: a batch's rows
  /// after its first may not, extract::SessionTerms::may_open).
  bool session_may_open = true;

  /// Whether any option chooses the part of the page `text` and `markdown` are made of.
  bool filters_content() const {
    return only_main_content || !include_only_tags.empty() || !exclude_tags.empty();
  }
};

/// Limits of the lists of selectors and URL parts.
inline constexpr std::size_t kMaxTagSelectors = 50;
inline constexpr std::size_t kMaxBlockUrls = 100;
inline constexpr std::size_t kMaxSessionIdLength = 64;

/// Largest `timeout` accepted (api.md: a page load is limited to 300 seconds).
inline constexpr Millis kMaxTimeout{300000};

/// Parses and validates a request body. `default_timeout` applies when `timeout` is absent.
/// Throws gleaner::Error: InvalidJson for a body that is not a JSON object; MissingParameter,
/// InvalidParameter naming the field otherwise (a `url` that is not http(s) with a valid host
/// included; private addresses are the gateway's to refuse, see fetch.h).
WebRequest parse_web_request(std::string_view body, Millis default_timeout);

}  // namespace gleaner::web
