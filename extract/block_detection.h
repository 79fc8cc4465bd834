#pragma once
// Block detection shared by every endpoint: a captcha, a consent wall, an "unusual traffic" page,
// a challenge page or an empty shell is an upstream block (502 upstream_blocked: never an empty
// success, never charged). Two stages: the main document's HTTP answer (check_navigation), then
// signals read inside the loaded page by block_signals.js (block_reason).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "extract/tab.h"

namespace gleaner::extract {

/// What a request expects of the page it loads.
enum class PageKind {
  /// One kind of page of a known site (the site endpoints): any other 4xx is not it, and a
  /// redirect to the site's block path (Google's /sorry/) is a block.
  SiteData,
  /// Whatever page the caller names (POST /scrape/web): another 4xx is still the page, returned
  /// with its status, and no path is special.
  AnyPage,
};

/// The one status check of every page: throws gleaner::Error for a navigation that did not give
/// the page asked for: 404/410 → NotFound; 401, 403, 407, 429 or a wall's response header
/// (`cf-mitigated: challenge`, `x-amzn-waf-action`) → UpstreamBlocked; 5xx → UpstreamError; for
/// PageKind::SiteData also a redirect to a known block path (UpstreamBlocked) and other 4xx
/// (UpstreamError). Status 0 (no HTTP answer seen) passes.
void check_navigation(const Navigation& navigation, PageKind kind = PageKind::SiteData);

/// Why a page is a block page, or nullopt when it looks like a real page. `signals` is what
/// block_signals.js returned: {url, title, text (start of the visible text, lower case),
/// textLength, elementCount, walls [{vendor, marker, strong}], consentForm (bool)}. A strong
/// marker of any vendor's wall decides alone; a weak one (also seen on ordinary pages of protected
/// sites) only on a page with next to no text. `data_without_text`: the endpoint read its data
/// from a page that shows no text yet (Endpoint::data_without_text): the page is then neither
/// empty nor thin. `recognized`: the endpoint found what tells its page apart
/// (Endpoint::page_recognized): a consent dialog over a short page is then not a consent wall,
/// nor is a weak marker a wall.
std::optional<std::string> block_reason(const nlohmann::json& signals,
                                        bool data_without_text = false, bool recognized = false);

/// A wall by its marks alone: wall_reason(), or a weak marker of a wall on a page with next to no
/// text. Not a page that is merely empty or thin: what judges a page that never settled or
/// answered with an error status (an error page is often empty), see read_page().
std::optional<std::string> marked_wall(const nlohmann::json& signals);

/// The part of block_reason() that holds while the page is still loading: a block path or host, a
/// strong marker, a challenge title, a short page's block or consent phrases. An empty or thin
/// page is not judged (an application's shell is both before it renders). A selector wait stops on
/// it rather than waiting out its patience on a wall. `consent` false: a short page's consent
/// dialog or phrases do not count (a consent host still does).
std::optional<std::string> wall_reason(const nlohmann::json& signals, bool consent = true);

}  // namespace gleaner::extract
