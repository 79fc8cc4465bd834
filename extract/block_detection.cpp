#include "extract/block_detection.h"

#include <array>
#include <string_view>

#include "core/error.h"

namespace gleaner::extract {
namespace {

// Said by block and challenge pages of the sites we read (lower case). Checked only on short pages
// (kShortPage): a real article may well mention "access denied".
constexpr std::array<std::string_view, 21> kBlockPhrases = {
    "our systems have detected unusual traffic",
    "unusual traffic from your computer network",
    "robot or human?",
    "are you a robot",
    "verify you are human",
    "verify you are a human",
    "confirm you are human",
    "checking your browser before accessing",
    "checking if the site connection is secure",
    "press & hold to confirm",
    "please enable js and disable any ad blocker",
    "pardon our interruption",
    "request unsuccessful. incapsula",
    "access denied",
    "incapsula incident id",
    "sorry, you have been blocked",
    "enable javascript and cookies to continue",
    "you don't have permission to access",
    "as you were browsing something about your browser made us think you were a bot",
    "please verify you are a human",
    "powered and protected by akamai",
};

// Titles of challenge pages, matched at the start of document.title (any length of page).
constexpr std::array<std::string_view, 8> kBlockTitles = {
    "just a moment...",
    "attention required! | cloudflare",
    "robot or human?",
    "access denied",
    "pardon our interruption",
    "security check",
    "access to this page has been denied",
    "please wait... | cloudflare",
};

// Before you continue to Google / Avant de continuer: consent walls are short pages.
constexpr std::array<std::string_view, 4> kConsentPhrases = {
    "before you continue to google",
    "we use cookies and data to",
    "reject all",
    "accept all",
};

constexpr long long kShortPage = 4000;  // characters of visible text
// A wall says a sentence or two; a real page, even one its scripts have not drawn yet, says more
// (Walmart's product page shows 2,400 characters before its scripts run). Where a wall's weaker
// markers decide.
constexpr long long kThinPage = 1000;

std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

std::string host_of(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return {};
  auto start = scheme + 3;
  auto end = url.find_first_of("/?#:", start);
  return lower(url.substr(start, end == std::string::npos ? std::string::npos : end - start));
}

std::string path_of(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return {};
  auto slash = url.find('/', scheme + 3);
  if (slash == std::string::npos) return "/";
  auto end = url.find_first_of("?#", slash);
  return url.substr(slash, end == std::string::npos ? std::string::npos : end - slash);
}

bool is_block_path(const std::string& url) {
  std::string path = path_of(url);
  return path.starts_with("/sorry/") || path == "/sorry";
}

// How a wall's marker is reported.
std::string wall_text(const nlohmann::json& wall, long long text_length, long long elements) {
  return wall.value("vendor", std::string("unknown")) + " wall (" +
         wall.value("marker", std::string()) + ") on a page of " + std::to_string(text_length) +
         " characters, " + std::to_string(elements) + " elements";
}

}  // namespace

void check_navigation(const Navigation& nav, PageKind kind) {
  const int s = nav.status;
  if (kind == PageKind::SiteData && is_block_path(nav.url)) {
    throw Error(ErrorCode::UpstreamBlocked, "the site answered with a block page",
                "redirected to " + nav.url);
  }
  // Walls that say so in a response header, whatever the status (AWS WAF challenges with 202).
  if (auto it = nav.headers.find("cf-mitigated");
      it != nav.headers.end() && lower(it->second) == "challenge") {
    throw Error(ErrorCode::UpstreamBlocked, "the site answered with a block page",
                "cloudflare challenge (cf-mitigated) at " + nav.url);
  }
  if (auto it = nav.headers.find("x-amzn-waf-action"); it != nav.headers.end()) {
    throw Error(ErrorCode::UpstreamBlocked, "the site answered with a block page",
                "aws-waf " + it->second + " (x-amzn-waf-action) at " + nav.url);
  }
  if (s == 404 || s == 410) {
    throw Error(ErrorCode::NotFound, "the page does not exist on the site",
                "status " + std::to_string(s) + " for " + nav.url);
  }
  if (s == 401 || s == 403 || s == 407 || s == 429) {
    throw Error(ErrorCode::UpstreamBlocked,
                "the site refused the request (HTTP " + std::to_string(s) + ")",
                "status " + std::to_string(s) + " for " + nav.url);
  }
  if (s >= 500 || (s >= 400 && kind == PageKind::SiteData)) {
    throw Error(ErrorCode::UpstreamError, "the site answered with HTTP " + std::to_string(s),
                "status " + std::to_string(s) + " for " + nav.url);
  }
}

std::optional<std::string> wall_reason(const nlohmann::json& signals) {
  if (!signals.is_object()) return std::nullopt;
  const std::string url = signals.value("url", "");
  const std::string title = lower(signals.value("title", ""));
  const std::string text = signals.value("text", "");
  const long long text_length = signals.value("textLength", 0LL);
  const long long elements = signals.value("elementCount", 0LL);

  if (is_block_path(url)) return "block page at " + url;
  if (host_of(url).starts_with("consent.")) return "consent wall at " + url;
  if (const nlohmann::json& walls = signals.value("walls", nlohmann::json()); walls.is_array()) {
    for (const nlohmann::json& wall : walls) {
      if (!wall.is_object() || !wall.value("strong", false)) continue;
      return wall_text(wall, text_length, elements);
    }
  }
  for (auto t : kBlockTitles) {
    if (title.starts_with(t)) return "challenge page titled '" + signals.value("title", "") + "'";
  }
  if (text_length < kShortPage) {
    for (auto phrase : kBlockPhrases) {
      if (text.find(phrase) != std::string::npos) {
        return "block page saying '" + std::string(phrase) + "'";
      }
    }
    if (signals.value("consentForm", false)) return "consent wall";
    int consent_hits = 0;
    for (auto phrase : kConsentPhrases) {
      if (text.find(phrase) != std::string::npos) ++consent_hits;
    }
    if (consent_hits >= 2) return "consent wall";
  }
  return std::nullopt;
}

std::optional<std::string> block_reason(const nlohmann::json& signals, bool data_without_text) {
  if (!signals.is_object()) return "the page could not be read";
  if (auto reason = wall_reason(signals)) return reason;
  const long long text_length = signals.value("textLength", 0LL);
  const long long elements = signals.value("elementCount", 0LL);
  // A page with next to no content of its own: where a wall's weaker markers decide.
  if (!data_without_text && text_length < kThinPage) {
    if (const nlohmann::json& walls = signals.value("walls", nlohmann::json()); walls.is_array()) {
      for (const nlohmann::json& wall : walls) {
        if (wall.is_object()) return wall_text(wall, text_length, elements);
      }
    }
  }
  if (!data_without_text && (text_length == 0 || elements < 5)) return "empty page";
  return std::nullopt;
}

}  // namespace gleaner::extract
