#include "extract/sites/youtube/video.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/error.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"

namespace gleaner::extract::youtube {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr const char* kSite = "https://www.youtube.com";

const Parameters& video_parameters() {
  static const Parameters params{
      {Param::string("v").required().pattern("[A-Za-z0-9_-]{11}",
                                             "an 11-character video id ([A-Za-z0-9_-])"),
       Param::string("gl").pattern(patterns::kTwoLetters, "a two-letter country code"),
       Param::string("hl").pattern(patterns::kLanguageTag, patterns::kLanguageTagWords),
       Param::string("deviceType").one_of({"desktop", "mobile"})}};
  return params;
}

// ---- reading the site's JSON -------------------------------------------------------------

// The site's text objects: {simpleText}, {runs: [{text}]} or the newer {content}.
std::string text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_object()) return {};
  if (auto it = v.find("simpleText"); it != v.end() && it->is_string())
    return it->get<std::string>();
  if (auto it = v.find("content"); it != v.end() && it->is_string()) return it->get<std::string>();
  std::string out;
  if (auto it = v.find("runs"); it != v.end() && it->is_array()) {
    for (const json& run : *it) out += str(at(run, {"text"}));
  }
  return out;
}

// Numbers the site sends as strings ("1856109") or numbers.
std::optional<long long> integer(const json& v) {
  if (v.is_number_integer()) return v.get<long long>();
  if (v.is_number()) return std::llround(v.get<double>());
  if (v.is_string() && !v.get<std::string>().empty()) {
    const std::string s = v.get<std::string>();
    if (s.find_first_not_of("0123456789") == std::string::npos && s.size() < 19) {
      return std::stoll(s);
    }
  }
  return std::nullopt;
}

// The suffixes the site abbreviates counts with, by the page's language (CLDR's short decimal
// formats): "43K", "1,2 Mio.", "12 k", "3.4万", "34,2 N", "1,2 тыс.", "1.5 लाख". One suffix means
// different things in different languages (Turkish "B" is a thousand, English "B" a billion), so
// they are read in the language the page is written in. Longer suffixes first.
struct Suffix {
  std::string_view text;
  double multiplier;
};

std::span<const Suffix> suffixes_of(std::string_view language) {
  static const std::pair<std::string_view, std::vector<Suffix>> kTables[] = {
      {"en", {{"K", 1e3}, {"M", 1e6}, {"B", 1e9}}},
      {"de", {{"Tsd.", 1e3}, {"Mio.", 1e6}, {"Mrd.", 1e9}}},
      {"fr", {{"k", 1e3}, {"Md", 1e9}, {"M", 1e6}}},
      {"es", {{"mil M", 1e9}, {"mil", 1e3}, {"M", 1e6}}},
      {"pt", {{"mil", 1e3}, {"mi", 1e6}, {"bi", 1e9}, {"mM", 1e9}, {"M", 1e6}}},
      {"it", {{"Mln", 1e6}, {"Mrd", 1e9}}},
      {"nl", {{"mln.", 1e6}, {"mld.", 1e9}, {"K", 1e3}}},
      {"ru", {{"тыс.", 1e3}, {"млрд", 1e9}, {"млн", 1e6}}},
      {"uk", {{"тис.", 1e3}, {"млрд", 1e9}, {"млн", 1e6}}},
      {"pl", {{"tys.", 1e3}, {"mln", 1e6}, {"mld", 1e9}}},
      {"cs", {{"tis.", 1e3}, {"mil.", 1e6}, {"mld.", 1e9}}},
      {"tr", {{"Mn", 1e6}, {"Mr", 1e9}, {"B", 1e3}}},
      {"vi", {{"Tr", 1e6}, {"N", 1e3}, {"T", 1e9}}},
      {"id", {{"rb", 1e3}, {"jt", 1e6}, {"M", 1e9}}},
      {"sv", {{"tn", 1e3}, {"mn", 1e6}, {"md", 1e9}}},
      {"ja", {{"万", 1e4}, {"億", 1e8}}},
      {"zh", {{"千", 1e3}, {"万", 1e4}, {"萬", 1e4}, {"亿", 1e8}, {"億", 1e8}}},
      {"ko", {{"천", 1e3}, {"만", 1e4}, {"억", 1e8}}},
      {"hi", {{"हज़ार", 1e3}, {"लाख", 1e5}, {"करोड़", 1e7}, {"क॰", 1e7}, {"अरब", 1e9}}},
      {"ar", {{"ألف", 1e3}, {"مليون", 1e6}, {"مليار", 1e9}}},
  };
  const std::string lang = lower(language.substr(0, language.find_first_of("-_")));
  for (const auto& [code, table] : kTables) {
    if (code == lang) return table;
  }
  return {};
}

bool ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

// The byte length of a space the site writes between a number and its suffix or between digit
// groups at `i` (' ', U+00A0, U+202F), or 0.
std::size_t space_at(std::string_view s, std::size_t i) {
  if (i < s.size() && s[i] == ' ') return 1;
  if (s.substr(i).starts_with("\xC2\xA0")) return 2;
  if (s.substr(i).starts_with("\xE2\x80\xAF")) return 3;
  return 0;
}

// A count as written: its number and the multiplier of its suffix (1 when written in full; 0
// when the language has no table and the kit read it).
struct WrittenCount {
  long long value = 0;
  double multiplier = 0;
};

std::optional<WrittenCount> read_count(std::string_view text, std::string_view language) {
  const std::span<const Suffix> suffixes = suffixes_of(language);
  if (suffixes.empty()) {
    if (auto n = parse_count(text)) return WrittenCount{*n, 0};
    return std::nullopt;
  }
  std::size_t begin = 0;
  while (begin < text.size() && !ascii_digit(text[begin])) ++begin;
  if (begin == text.size()) return std::nullopt;
  std::size_t end = begin;
  while (end < text.size()) {
    if (ascii_digit(text[end])) {
      ++end;
    } else if ((text[end] == ',' || text[end] == '.') && end + 1 < text.size() &&
               ascii_digit(text[end + 1])) {
      ++end;
    } else if (std::size_t w = space_at(text, end);
               w > 0 && end + w + 3 <= text.size() && ascii_digit(text[end + w]) &&
               ascii_digit(text[end + w + 1]) && ascii_digit(text[end + w + 2]) &&
               (end + w + 3 == text.size() || !ascii_digit(text[end + w + 3]))) {
      end += w;  // "1 234": a group of three digits
    } else {
      break;
    }
  }
  const auto value = parse_number(text.substr(begin, end - begin), decimal_mark_of(language));
  if (!value || *value < 0) return std::nullopt;
  std::size_t at = end;
  while (std::size_t w = space_at(text, at)) at += w;
  const std::string_view rest = text.substr(at);
  double multiplier = 1;
  for (const Suffix& suffix : suffixes) {
    if (!rest.starts_with(suffix.text)) continue;
    // A Latin suffix ends where its word ends ("M" is not the start of "Mio."); a suffix in
    // another script is written against the next word ("3.4万回視聴").
    const char last = suffix.text.back();
    const bool latin_end = static_cast<unsigned char>(last) < 0x80 && last != '.';
    const char after = rest.size() > suffix.text.size() ? rest[suffix.text.size()] : ' ';
    const bool letter_after = (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
                              static_cast<unsigned char>(after) >= 0x80;
    if (latin_end && letter_after && space_at(rest, suffix.text.size()) == 0) continue;
    multiplier = suffix.multiplier;
    break;
  }
  const double n = *value * multiplier;
  if (n >= 1e18) return std::nullopt;
  return WrittenCount{std::llround(n), multiplier};
}

// The widest of a list of {url, width} images (thumbnail.thumbnails or image.sources).
std::string widest(const json& images) {
  std::string best;
  long long best_width = -1;
  if (!images.is_array()) return best;
  for (const json& img : images) {
    long long w = integer(at(img, {"width"})).value_or(0);
    std::string url = str(at(img, {"url"}));
    if (!url.empty() && w > best_width) {
      best = url;
      best_width = w;
    }
  }
  return best;
}

std::string absolute(const std::string& path) {
  if (path.empty() || path.starts_with("http")) return path;
  return std::string(kSite) + path;
}

// Every object stored under `key` anywhere below `node`, in document order.
void collect(const json& node, std::string_view key, std::vector<const json*>& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it.key() == key) out.push_back(&it.value());
      collect(it.value(), key, out);
    }
  } else if (node.is_array()) {
    for (const json& child : node) collect(child, key, out);
  }
}

const json* first(const json& node, std::string_view key) {
  std::vector<const json*> found;
  collect(node, key, found);
  return found.empty() ? nullptr : found.front();
}

// ---- the parts of the answer -------------------------------------------------------------

const json& watch_contents(const json& next) {
  return at(next, {"contents", "twoColumnWatchNextResults", "results", "results", "contents"});
}

const json* renderer_in(const json& contents, std::string_view name) {
  if (!contents.is_array()) return nullptr;
  for (const json& c : contents) {
    if (auto it = c.find(name); c.is_object() && it != c.end()) return &*it;
  }
  return nullptr;
}

json channel_of(const json& details, const json& microformat, const json* owner,
                std::string_view language) {
  // The channel the page shows is the owner under the video; the uploader of videoDetails may
  // be another (an artist's VEVO channel under the artist's own).
  json channel = json::object();
  std::string id;
  std::string name;
  if (owner) {
    // A channel id is "UC…"; a show's owner is browsed by another kind of id.
    id = str(at(*owner, {"navigationEndpoint", "browseEndpoint", "browseId"}));
    if (!id.starts_with("UC")) id.clear();
    name = text(at(*owner, {"title"}));
  }
  if (id.empty()) id = str(at(details, {"channelId"}));
  if (name.empty()) name = str(at(details, {"author"}));
  if (!id.empty()) channel["id"] = id;
  if (!name.empty()) channel["name"] = name;
  std::string link;
  if (owner) {
    link = str(at(*owner, {"navigationEndpoint", "browseEndpoint", "canonicalBaseUrl"}));
  }
  if (link.empty()) {
    // The microformat writes http://www.youtube.com/@Name; the site links with https.
    link = str(at(microformat, {"ownerProfileUrl"}));
    if (link.starts_with("http://")) link = "https://" + link.substr(7);
  }
  if (!link.empty()) channel["link"] = absolute(link);
  if (owner) {
    if (std::string subs = text(at(*owner, {"subscriberCountText"})); !subs.empty()) {
      channel["subscribers"] = subs;
      if (auto n = count_in(subs, language)) channel["extractedSubscribers"] = *n;
    }
    bool verified = false;
    for (const json& badge : at(*owner, {"badges"})) {
      std::string style = str(at(badge, {"metadataBadgeRenderer", "style"}));
      if (style.starts_with("BADGE_STYLE_TYPE_VERIFIED")) verified = true;
    }
    channel["verified"] = verified;
  }
  return channel;
}

bool has_digit(std::string_view t) {
  return t.find_first_of("0123456789") != std::string_view::npos;
}

// The like button as the page shows it, in the layouts the site has used: the button view model
// (title "43K", accessibilityText "like this video along with 43,864 other people"; 2023-), and
// the older toggle button with the LIKE icon, alone or in a segmented like/dislike button
// (defaultText "79K", its accessibility label "79,487 likes"; -2023).
struct LikeButton {
  std::string shown;       // "43K"
  std::string accessible;  // "like this video along with 43,864 other people"
};

LikeButton like_button_of(const json* primary) {
  LikeButton button_text;
  std::string& shown = button_text.shown;
  std::string& accessible = button_text.accessible;
  if (primary) {
    if (const json* like = first(*primary, "likeButtonViewModel")) {
      if (const json* button = first(*like, "buttonViewModel")) {
        shown = str(at(*button, {"title"}));
        accessible = str(at(*button, {"accessibilityText"}));
      }
    }
    if (shown.empty()) {
      std::vector<const json*> toggles;
      collect(*primary, "toggleButtonRenderer", toggles);
      for (const json* toggle : toggles) {
        if (str(at(*toggle, {"defaultIcon", "iconType"})) != "LIKE") continue;
        shown = text(at(*toggle, {"defaultText"}));
        accessible =
            str(at(*toggle, {"defaultText", "accessibility", "accessibilityData", "label"}));
        if (accessible.empty()) accessible = str(at(*toggle, {"accessibility", "label"}));
        break;
      }
    }
  }
  return button_text;
}

void add_likes(json& out, const LikeButton& button, const json& microformat,
               std::string_view language) {
  const std::string& shown = button.shown;
  const std::string& accessible = button.accessible;
  std::optional<long long> exact = integer(at(microformat, {"likeCount"}));
  // A button that shows no count ("Like", "Mag ich": the creator hid them) is no count.
  if (!has_digit(shown)) return;
  out["likes"] = shown;
  // "like this video along with 43,864 other people" holds the exact count when the microformat
  // does not.
  if (!exact && has_digit(accessible)) exact = count_in(accessible, language);
  if (!exact) exact = count_in(shown, language);
  if (exact) out["extractedLikes"] = *exact;
}

// Chapters from the macro-markers panels: the creator's own chapters when there are, otherwise
// the site's automatic key moments.
json chapters_of(const json& next) {
  const json* chosen = nullptr;
  for (const json& panel : at(next, {"engagementPanels"})) {
    const json& section = at(panel, {"engagementPanelSectionListRenderer"});
    const json& list = at(section, {"content", "macroMarkersListRenderer", "contents"});
    if (!list.is_array() || list.empty()) continue;
    const std::string id = str(at(section, {"panelIdentifier"}));
    if (!chosen || id.find("description-chapters") != std::string::npos) chosen = &list;
  }
  json chapters = json::array();
  if (!chosen) return chapters;
  for (const json& item : *chosen) {
    const json& marker = at(item, {"macroMarkersListItemRenderer"});
    if (!marker.is_object()) continue;
    std::optional<long long> start;
    const json& seconds = at(marker, {"onTap", "watchEndpoint", "startTimeSeconds"});
    if (seconds.is_number()) start = static_cast<long long>(std::floor(seconds.get<double>()));
    if (!start) start = duration_seconds(text(at(marker, {"timeDescription"})));
    const std::string title = text(at(marker, {"title"}));
    if (title.empty() || !start) continue;
    chapters.push_back({{"title", title}, {"startSeconds", *start}});
  }
  return chapters;
}

void add_length(json& video, const std::string& length) {
  if (length.empty()) return;
  video["length"] = length;
  if (auto s = duration_seconds(length)) video["lengthSeconds"] = *s;
}

void add_views(json& video, const std::string& views, std::string_view language) {
  if (views.empty()) return;
  video["views"] = views;
  if (auto n = count_in(views, language)) video["extractedViews"] = *n;
}

// A sidebar item's date as shown ("6 years ago", "vor 3 Jahren") and, where the kit knows the
// language's words, the day it stands for as of now.
void add_published(json& video, const std::string& shown, std::string_view language) {
  if (shown.empty()) return;
  video["publishedDate"] = shown;
  if (auto day = parse_date(shown, site_clock().now(), date_order_of(language))) {
    video["extractedPublishedDate"] = *day;
  }
}

// The older related-video renderer.
json from_compact(const json& r, std::string_view language) {
  const std::string id = str(at(r, {"videoId"}));
  json video = {{"videoId", id},
                {"title", text(at(r, {"title"}))},
                {"link", std::string(kSite) + "/watch?v=" + id}};
  const json& byline = at(r, {"longBylineText", "runs", 0});
  // A film for sale names no channel.
  if (std::string name = text(at(r, {"longBylineText"})); !name.empty()) {
    json channel = {{"name", name}};
    if (std::string link =
            str(at(byline, {"navigationEndpoint", "browseEndpoint", "canonicalBaseUrl"}));
        !link.empty()) {
      channel["link"] = absolute(link);
    }
    video["channel"] = std::move(channel);
  }
  add_views(video, text(at(r, {"viewCountText"})), language);
  add_length(video, text(at(r, {"lengthText"})));
  add_published(video, text(at(r, {"publishedTimeText"})), language);
  video["thumbnail"] = widest(at(r, {"thumbnail", "thumbnails"}));
  return video;
}

// The newer related-video view model: title and metadata rows (channel; views • age) in
// lockupMetadataViewModel, the length as a badge over the thumbnail.
json from_lockup(const json& l, std::string_view language) {
  const std::string id = str(at(l, {"contentId"}));
  const json& meta = at(l, {"metadata", "lockupMetadataViewModel"});
  json video = {{"videoId", id},
                {"title", text(at(meta, {"title"}))},
                {"link", std::string(kSite) + "/watch?v=" + id}};
  const json& rows = at(meta, {"metadata", "contentMetadataViewModel", "metadataRows"});
  json channel = {{"name", text(at(rows, {0, "metadataParts", 0, "text"}))}};
  // The channel's link is on its name, or (2026) only on its avatar beside the title.
  const json* browse = first(at(rows, {0}), "browseEndpoint");
  if (!browse) browse = first(at(meta, {"image"}), "browseEndpoint");
  if (browse) {
    if (std::string link = str(at(*browse, {"canonicalBaseUrl"})); !link.empty()) {
      channel["link"] = absolute(link);
    }
  }
  video["channel"] = std::move(channel);
  add_views(video, text(at(rows, {1, "metadataParts", 0, "text"})), language);
  add_published(video, text(at(rows, {1, "metadataParts", 1, "text"})), language);
  const json& image = at(l, {"contentImage", "thumbnailViewModel"});
  std::vector<const json*> badges;
  collect(at(image, {"overlays"}), "thumbnailBadgeViewModel", badges);
  for (const json* badge : badges) {
    std::string t = text(at(*badge, {"text"}));
    if (duration_seconds(t)) {
      add_length(video, t);
      break;
    }
  }
  video["thumbnail"] = widest(at(image, {"image", "sources"}));
  return video;
}

// Related videos in page order; item sections and the older "Up next" autoplay item are looked
// into, playlists, mixes and continuation items skipped.
void related_in(const json& items, std::string_view language, json& out) {
  if (!items.is_array()) return;
  for (const json& item : items) {
    if (!item.is_object()) continue;
    if (auto it = item.find("compactVideoRenderer"); it != item.end()) {
      out.push_back(from_compact(*it, language));
    } else if (auto lk = item.find("lockupViewModel"); lk != item.end()) {
      if (str(at(*lk, {"contentType"})) == "LOCKUP_CONTENT_TYPE_VIDEO") {
        out.push_back(from_lockup(*lk, language));
      }
    } else if (auto sec = item.find("itemSectionRenderer"); sec != item.end()) {
      related_in(at(*sec, {"contents"}), language, out);
    } else if (auto next = item.find("compactAutoplayRenderer"); next != item.end()) {
      related_in(at(*next, {"contents"}), language, out);
    }
  }
}

json related_of(const json& next, std::string_view language) {
  json videos = json::array();
  related_in(at(next, {"contents", "twoColumnWatchNextResults", "secondaryResults",
                       "secondaryResults", "results"}),
             language, videos);
  std::size_t position = 0;
  for (json& v : videos) {
    v["position"] = ++position;
    if (v["thumbnail"].get<std::string>().empty()) v.erase("thumbnail");
  }
  return videos;
}

// The site's bot check: its reason says so ("not a bot", "kein Bot", "pas un robot"), and in
// every language its "Learn more" links to the help article on it (answer 3037019).
bool is_bot_check(const json& status) {
  if (lower(text(at(status, {"reason"}))).find("bot") != std::string::npos) return true;
  std::vector<const json*> urls;
  collect(at(status, {"errorScreen"}), "url", urls);
  for (const json* url : urls) {
    if (url->is_string() && url->get<std::string>().find("/answer/3037019") != std::string::npos) {
      return true;
    }
  }
  return false;
}

void check_playable(const json& player) {
  const json& status = at(player, {"playabilityStatus"});
  const std::string state = str(at(status, {"status"}));
  const std::string reason = text(at(status, {"reason"}));
  if (at(player, {"videoDetails"}).is_object()) return;
  if (state == "LOGIN_REQUIRED" && is_bot_check(status)) {
    throw Error(ErrorCode::UpstreamBlocked, "the site asked to sign in to prove this is no bot",
                "playability LOGIN_REQUIRED: " + reason);
  }
  if (state == "ERROR" || state == "UNPLAYABLE" || state == "LOGIN_REQUIRED") {
    throw Error(ErrorCode::NotFound,
                "the video is not available" + (reason.empty() ? "" : ": " + reason),
                "playability " + state);
  }
  throw extraction_failed("could not find the video's data on the page",
                          "no videoDetails in the page (playability '" + state + "')");
}

// ---- the layout before 2020 ----------------------------------------------------------------
// video.js's `legacy`: the server-rendered markup of #watch7-content in plain fields.

void add_legacy_channel(json& channel, const json& legacy, std::string_view language) {
  const json& owner = at(legacy, {"owner"});
  if (std::string name = str(at(owner, {"name"})); !name.empty()) channel["name"] = name;
  if (std::string href = str(at(owner, {"href"})); !href.empty()) {
    channel["link"] = absolute(href);
  }
  if (std::string subs = str(at(legacy, {"subscribers"})); has_digit(subs)) {
    channel["subscribers"] = subs;
    if (auto n = count_in(subs, language)) channel["extractedSubscribers"] = *n;
  }
  if (const json& verified = at(owner, {"verified"}); verified.is_boolean()) {
    channel["verified"] = verified;
  }
}

json legacy_related(const json& legacy, std::string_view language) {
  json videos = json::array();
  for (const json& item : at(legacy, {"related"})) {
    // Videos only: a playlist's link carries its list.
    const std::string href = str(at(item, {"href"}));
    const std::string prefix = "/watch?v=";
    if (!href.starts_with(prefix) || href.find("list=") != std::string::npos) continue;
    const std::string id = href.substr(prefix.size(), 11);
    json video = {{"position", videos.size() + 1},
                  {"videoId", id},
                  {"title", str(at(item, {"title"}))},
                  {"link", std::string(kSite) + "/watch?v=" + id}};
    if (std::string name = str(at(item, {"channel"})); !name.empty()) {
      video["channel"] = {{"name", name}};
    }
    // The first item's counter may say "Recommended for you".
    if (std::string views = str(at(item, {"views"})); has_digit(views)) {
      add_views(video, views, language);
    }
    add_length(video, str(at(item, {"length"})));
    if (std::string thumb = str(at(item, {"thumbnail"})); !thumb.empty()) {
      video["thumbnail"] = thumb;
    }
    videos.push_back(std::move(video));
  }
  return videos;
}

// Seconds since the epoch as an ISO 8601 time in UTC ("2017-05-02T09:50:00Z").
std::string iso_utc(long long seconds) {
  const std::chrono::sys_seconds t{std::chrono::seconds(seconds)};
  const auto day = std::chrono::floor<std::chrono::days>(t);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss hms{t - day};
  char out[32];
  std::snprintf(out, sizeof out, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  return out;
}

// Why the page's player does not play the video although the page describes it (the site's
// status word and reason: LOGIN_REQUIRED for an age check, UNPLAYABLE for a paid rental,
// LIVE_STREAM_OFFLINE before a premiere); absent when it plays.
json playability_of(const json& player) {
  const json& status = at(player, {"playabilityStatus"});
  const std::string state = str(at(status, {"status"}));
  if (state.empty() || state == "OK") return nullptr;
  json out = {{"status", state}};
  if (std::string reason = text(at(status, {"reason"})); !reason.empty()) out["reason"] = reason;
  // The age gate is marked apart from the reason's words, in every language.
  const json& age_gate = at(status, {"desktopLegacyAgeGateReason"});
  out["ageRestricted"] = age_gate.is_number() && age_gate.get<double>() != 0;
  // A stream or premiere yet to come: when it is to start (seconds since the epoch).
  const json& slate = at(status, {"liveStreamability", "liveStreamabilityRenderer", "offlineSlate",
                                  "liveStreamOfflineSlateRenderer"});
  if (auto start = integer(at(slate, {"scheduledStartTime"}))) {
    out["scheduledStartTime"] = iso_utc(*start);
  }
  return out;
}

json shape_video(const json& player, const json& next, const json& legacy,
                 std::string_view language) {
  check_playable(player);
  const json& details = at(player, {"videoDetails"});
  const json& microformat = at(player, {"microformat", "playerMicroformatRenderer"});
  const json& contents = watch_contents(next);
  const json* primary = renderer_in(contents, "videoPrimaryInfoRenderer");
  const json* secondary = renderer_in(contents, "videoSecondaryInfoRenderer");
  const json* owner = secondary ? &at(*secondary, {"owner", "videoOwnerRenderer"}) : nullptr;
  if (owner && !owner->is_object()) owner = nullptr;

  // The layout before 2020 has its counter, date, like button and owner in markup.
  const bool old_layout = !primary && legacy.is_object();
  const json& microdata = old_layout ? at(legacy, {"microdata"}) : json::object();

  json out = json::object();
  out["videoId"] = str(at(details, {"videoId"}));
  out["title"] = str(at(details, {"title"}));
  // An upcoming stream's player response of that layout has no details but the page's
  // microdata and title.
  if (out["videoId"].get_ref<const std::string&>().empty()) {
    out["videoId"] = str(at(microdata, {"videoId"}));
  }
  if (out["title"].get_ref<const std::string&>().empty() && old_layout) {
    out["title"] = str(at(legacy, {"title"}));
  }
  std::string description = str(at(details, {"shortDescription"}));
  if (description.empty()) description = text(at(microformat, {"description"}));
  if (description.empty() && old_layout) description = str(at(legacy, {"description"}));
  out["description"] = description;
  out["channel"] = channel_of(details, microformat, owner, language);
  if (old_layout) {
    add_legacy_channel(out["channel"], legacy, language);
    if (std::string id = str(at(microdata, {"channelId"}));
        !out["channel"].contains("id") && !id.empty()) {
      out["channel"]["id"] = id;
    }
  }

  // While live the counter shows who is watching ("30,930 watching now"); the exact count of
  // views stays in videoDetails.
  const json* counter = primary ? &at(*primary, {"viewCount", "videoViewCountRenderer"}) : nullptr;
  std::string views = counter ? text(at(*counter, {"viewCount"})) : std::string();
  if (old_layout && has_digit(str(at(legacy, {"views"})))) views = str(at(legacy, {"views"}));
  const bool counts_watchers = counter && at(*counter, {"isLive"}) == json(true);
  if (!views.empty()) out["views"] = views;
  // The count the page shows when it is written in full (the player's may lag behind it), else
  // the player's exact one, else the abbreviated count read.
  // Before a premiere the counter shows who is waiting.
  const bool upcoming = at(details, {"isUpcoming"}) == json(true);
  const std::optional<WrittenCount> shown =
      counts_watchers || upcoming ? std::nullopt : read_count(views, language);
  if (shown && shown->multiplier == 1) {
    out["extractedViews"] = shown->value;
  } else if (auto n = integer(at(details, {"viewCount"}))) {
    out["extractedViews"] = *n;
  } else if (shown) {
    out["extractedViews"] = shown->value;
  }
  // Before the stream starts the same counter shows who is waiting ("6 waiting"): no watchers.
  if (counts_watchers && !upcoming) {
    if (auto n = count_in(views, language)) out["watching"] = *n;
  }
  add_likes(out,
            old_layout ? LikeButton{str(at(legacy, {"likes"})), str(at(legacy, {"likesLabel"}))}
                       : like_button_of(primary),
            microformat, language);

  // A stream that is live or yet to come has no length yet (the site says 0).
  const bool streaming =
      at(details, {"isLive"}) == json(true) || at(details, {"isUpcoming"}) == json(true);
  if (auto len = integer(at(details, {"lengthSeconds"})); len && !(streaming && *len == 0)) {
    out["lengthSeconds"] = *len;
  }
  std::string shown_date = primary ? text(at(*primary, {"dateText"})) : std::string();
  if (old_layout) shown_date = str(at(legacy, {"date"}));
  if (!shown_date.empty()) out["date"] = shown_date;
  std::string published = str(at(microformat, {"publishDate"}));
  if (published.empty()) published = str(at(microdata, {"datePublished"}));
  // Without either, the date the page shows, read in its language ("15 févr. 2021").
  if (published.empty() && !shown_date.empty()) {
    published = parse_date(shown_date, site_clock().now(), date_order_of(language)).value_or("");
  }
  if (!published.empty()) out["publishedDate"] = published;
  std::string uploaded = str(at(microformat, {"uploadDate"}));
  if (uploaded.empty()) uploaded = str(at(microdata, {"uploadDate"}));
  if (!uploaded.empty()) out["uploadDate"] = uploaded;
  json keywords = at(details, {"keywords"});
  out["keywords"] = keywords.is_array() ? keywords : json::array();
  std::string category = str(at(microformat, {"category"}));
  if (category.empty()) category = str(at(microdata, {"genre"}));
  if (!category.empty()) out["category"] = category;
  std::string thumbnail = widest(at(details, {"thumbnail", "thumbnails"}));
  if (thumbnail.empty()) thumbnail = widest(at(microformat, {"thumbnail", "thumbnails"}));
  if (!thumbnail.empty()) out["thumbnail"] = thumbnail;
  if (const json& v = at(microformat, {"isFamilySafe"}); v.is_boolean()) out["isFamilySafe"] = v;
  if (const json& v = at(microformat, {"isUnlisted"}); v.is_boolean()) out["isUnlisted"] = v;
  // Live now: videoDetails says so during the broadcast, the microformat's broadcast details too.
  const json& live = at(details, {"isLive"});
  const json& live_now = at(microformat, {"liveBroadcastDetails", "isLiveNow"});
  out["isLive"] =
      (live.is_boolean() && live.get<bool>()) || (live_now.is_boolean() && live_now.get<bool>());

  if (json playability = playability_of(player); !playability.is_null()) {
    out["playability"] = std::move(playability);
  }

  if (json chapters = chapters_of(next); !chapters.empty()) out["chapters"] = std::move(chapters);
  out["relatedVideos"] = old_layout ? legacy_related(legacy, language) : related_of(next, language);
  return out;
}

class VideoEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "video/video"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"videoId",
            "title",
            "description",
            "channel.name",
            "channel.subscribers",
            "views",
            "extractedViews",
            "likes",
            "lengthSeconds",
            "publishedDate",
            "keywords",
            "category",
            "thumbnail",
            "chapters",
            "relatedVideos[].title",
            "relatedVideos[].videoId"};
  }
  const Parameters& parameters() const override { return video_parameters(); }

  PageRequest build_request(const ValidatedParams& params) const override {
    PageRequest request;
    UrlBuilder url(std::string(kSite) + "/watch");
    url.add("v", *params.string("v"));
    if (auto hl = params.string("hl")) url.add("hl", language_tag(*hl));
    if (auto gl = params.string("gl")) url.add("gl", site_json::ascii_upper(*gl));
    request.url = url.str();
    if (params.string("deviceType") == "mobile") {
      request.profile.device = BrowserProfile::Device::Mobile;
    }
    // The player response and the watch-next data are inline scripts of the document itself.
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams&) const override {
    if (!output.is_object()) {
      throw extraction_failed("could not find the video's data on the page",
                              "video.js returned no object");
    }
    const json& player = at(output, {"player"});
    const json& next = at(output, {"next"});
    // A page of the layout before 2020 that shows only "This video is unavailable." in place of
    // its player has no player response.
    if (std::string notice = str(at(output, {"unavailable"}));
        !notice.empty() && !at(player, {"videoDetails"}).is_object()) {
      throw Error(ErrorCode::NotFound, "the video is not available: " + notice,
                  "the page shows its unavailable notice and no player response");
    }
    return shape_video(player.is_object() ? player : json::object(),
                       next.is_object() ? next : json::object(), at(output, {"legacy"}),
                       str(at(output, {"hl"})));
  }

  bool has_content(const json& body) const override {
    return body.is_object() && !body.value("videoId", std::string()).empty() &&
           !body.value("title", std::string()).empty();
  }

  // The watch page's text is drawn by the site's scripts while its data is inline JSON: where
  // the scripts do not run (or not yet), the body has no text. A page whose player response was
  // read is not an empty shell, nor is one whose player response says why there is no video
  // ("Video unavailable": a 404 of shape(), not a wall; a bot check is shape()'s 502); every
  // other block signal still decides, and has_content() judges the data.
  bool data_without_text(const json& output) const override {
    return at(output, {"player", "videoDetails"}).is_object() ||
           !str(at(output, {"player", "playabilityStatus", "status"})).empty();
  }
};

}  // namespace

std::optional<long long> duration_seconds(std::string_view t) {
  // H:MM:SS or M:SS (or MM:SS); every part digits, minutes and seconds below 60 after the first.
  long long total = 0;
  int parts = 0;
  std::size_t i = 0;
  while (i <= t.size()) {
    std::size_t j = t.find(':', i);
    std::string_view part =
        t.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i);
    if (part.empty() || part.size() > 3 ||
        part.find_first_not_of("0123456789") != std::string_view::npos) {
      return std::nullopt;
    }
    long long v = std::stoll(std::string(part));
    if (parts > 0 && (v >= 60 || part.size() != 2)) return std::nullopt;
    total = total * 60 + v;
    ++parts;
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  if (parts < 2 || parts > 3) return std::nullopt;
  return total;
}

std::optional<long long> count_in(std::string_view text, std::string_view language) {
  if (auto count = read_count(text, language)) return count->value;
  return std::nullopt;
}

const Endpoint& video_endpoint() {
  return the_endpoint<VideoEndpoint>();
}

}  // namespace gleaner::extract::youtube
