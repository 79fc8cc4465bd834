#pragma once
// The body of POST /scrape/web, validated strictly: unknown fields, wrong types, bad enum values
// and bad URLs are a 400 naming the field (api.md "POST /scrape/web", conventions.md "Generic
// page-fetch extensions").
#include "core/clock.h"
#include "screenshots/format.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>

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
};

/// Largest `timeout` accepted (api.md: a page load is limited to 300 seconds).
inline constexpr Millis kMaxTimeout{300000};

/// Parses and validates a request body. `default_timeout` applies when `timeout` is absent.
/// Throws gleaner::Error: InvalidJson for a body that is not a JSON object; MissingParameter,
/// InvalidParameter naming the field otherwise (a `url` that is not http(s) with a valid host
/// included; private addresses are the gateway's to refuse, see fetch.h).
WebRequest parse_web_request(std::string_view body, Millis default_timeout);

}  // namespace gleaner::web
