#include "extract/sites/google/news.h"

#include <array>
#include <cstdio>

#include "core/error.h"
#include "extract/sites/common/json_path.h"
#include "extract/url.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

constexpr const char* kFeedBase = "https://news.google.com/rss";
// Tokens are the site's base64url ids (CAAqJggKIiBDQkFT...); anything else cannot be a token and
// would only reach the site as a broken path.
constexpr const char* kToken = "[A-Za-z0-9_-]{1,512}";
constexpr const char* kTokenWords = "a token as the site writes it (letters, digits, '-' and '_')";

const Parameters& news_parameters() {
  static const Parameters params{
      {Param::string("q"),
       // Google's own list of countries writes the United Kingdom `uk`; its editions, GB.
       Param::string("gl")
           .pattern(patterns::kTwoLetters, "a two-letter country code")
           .aliases({{"uk", "GB"}, {"UK", "GB"}}),
       Param::string("hl").pattern(patterns::kGoogleLanguage, patterns::kGoogleLanguageWords),
       Param::string("topicToken").pattern(kToken, kTokenWords),
       Param::string("sectionToken").pattern(kToken, kTokenWords),
       Param::string("publicationToken").pattern(kToken, kTokenWords),
       Param::string("storyToken").pattern(kToken, kTokenWords),
       // The full coverage page sorts by relevance (0) or by date (1).
       Param::string("so").one_of({"0", "1"})},
      {Rule::exclusive({"q", "topicToken", "publicationToken", "storyToken"}),
       Rule::only_with("sectionToken", {"topicToken", "publicationToken"}),
       Rule::only_with("so", {"storyToken"})}};
  return params;
}

// The feed path for the request's one source of articles (validation allows at most one).
std::string feed_path(const ValidatedParams& p) {
  const std::string section =
      p.has("sectionToken") ? "/sections/" + path_encode(*p.string("sectionToken")) : "";
  if (p.has("q")) return "/search";
  if (p.has("topicToken")) return "/topics/" + path_encode(*p.string("topicToken")) + section;
  if (p.has("publicationToken")) {
    return "/publications/" + path_encode(*p.string("publicationToken")) + section;
  }
  if (p.has("storyToken")) return "/stories/" + path_encode(*p.string("storyToken"));
  return "";  // top headlines
}

// The language part of an edition's ceid. Most editions use the bare language (US:en, DE:de);
// the site's editions for Chinese and for Latin-American Spanish and Portuguese use script and
// region subtags instead (TW:zh-Hant, CN:zh-Hans, BR:pt-419, MX:es-419).
std::string edition_language(const std::string& tag, const std::string& gl) {
  const std::string language = tag_language(tag);
  if (language == "zh") return (gl == "CN" || tag == "zh-CN") ? "zh-Hans" : "zh-Hant";
  if (language == "pt") return gl == "PT" ? "pt-150" : "pt-419";
  if (language == "es" && gl != "ES") return "es-419";
  return language;
}

std::string feed_url(const ValidatedParams& p) {
  // The edition: the site writes hl as language-COUNTRY, gl as the country and ceid as
  // COUNTRY:language (hl=en-US&gl=US&ceid=US:en).
  const std::string tag = language_tag(p.string("hl").value_or("en"));
  const std::string language = tag_language(tag);
  const std::string region = tag_region(tag);
  // A regional tag names its country when gl does not (hl=zh-TW is the Taiwan edition).
  const std::string gl =
      site_json::ascii_upper(p.string("gl").value_or(region.empty() ? std::string("US") : region));
  UrlBuilder url(std::string(kFeedBase) + feed_path(p));
  if (p.has("q")) url.add("q", *p.string("q"));
  // A tag with its own region or area (zh-TW, es-419) is the edition's hl as it is.
  url.add("hl", tag.find('-') == std::string::npos ? language + "-" + gl : tag)
      .add("gl", gl)
      .add_raw("ceid", gl + ":" + edition_language(tag, gl));
  if (p.has("so")) url.add("so", *p.string("so"));
  return url.str();
}

std::string text_of(const json& v, const char* key) {
  auto it = v.find(key);
  return it != v.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "Headline - Publisher" → "Headline", when the suffix is the item's own publisher.
std::string headline(const std::string& title, const std::string& source) {
  if (source.empty()) return title;
  const std::string suffix = " - " + source;
  if (title.size() > suffix.size() && title.ends_with(suffix)) {
    return title.substr(0, title.size() - suffix.size());
  }
  return title;
}

json shape_item(const json& item, std::size_t position) {
  const std::string source = text_of(item, "source");
  const std::string link = text_of(item, "link");
  json out = {
      {"position", position}, {"title", headline(text_of(item, "title"), source)}, {"link", link}};
  if (!source.empty()) {
    json src = {{"name", source}};
    if (std::string url = text_of(item, "sourceUrl"); !url.empty()) src["url"] = url;
    out["source"] = std::move(src);
  }
  if (auto date = rfc822_to_iso8601(text_of(item, "pubDate"))) out["date"] = *date;

  // A cluster lists the item's own article first; the rest is the story's other coverage.
  json stories = json::array();
  for (const json& s : item.value("cluster", json::array())) {
    const std::string story_link = text_of(s, "link");
    if (story_link.empty() || story_link == link) continue;
    json story = {{"title", text_of(s, "title")}, {"link", story_link}};
    if (std::string by = text_of(s, "source"); !by.empty()) story["source"] = by;
    stories.push_back(std::move(story));
  }
  if (!stories.empty()) out["stories"] = std::move(stories);
  return out;
}

class NewsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "search/news"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"newsResults[].title", "newsResults[].link", "newsResults[].source",
            "newsResults[].date", "newsResults[].stories"};
  }
  const Parameters& parameters() const override { return news_parameters(); }

  PageRequest build_request(const ValidatedParams& params) const override {
    PageRequest request;
    request.url = feed_url(params);
    // A feed is one document without scripts: loaded is complete.
    request.wait = WaitFor::load();
    return request;
  }

  json shape(const json& feed, const ValidatedParams&) const override {
    if (!feed.is_object() || !feed.value("isFeed", false)) {
      // An HTML page where a feed was asked for that the block check did not call a wall (its
      // consent and error pages are): no feed we can read.
      throw extraction_failed("could not find the feed on the page",
                              "no RSS channel in the document");
    }
    json results = json::array();
    std::size_t position = 0;
    for (const json& item : feed.value("items", json::array())) {
      if (text_of(item, "title").empty() || text_of(item, "link").empty()) continue;
      results.push_back(shape_item(item, ++position));
    }
    return {{"newsResults", std::move(results)}};
  }

  // A feed with no items is a real answer (nothing matches the query), not an empty shell: a page
  // that is no feed at all is refused in shape().
  bool has_content(const json& body) const override {
    return body.is_object() && body.contains("newsResults");
  }
};

int month_number(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kMonths = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (std::size_t i = 0; i < kMonths.size(); ++i) {
    if (kMonths[i] == name) return static_cast<int>(i) + 1;
  }
  return 0;
}

}  // namespace

std::optional<std::string> rfc822_to_iso8601(std::string_view text) {
  // [Day, ]DD Mon YYYY HH:MM[:SS] (GMT|UT|Z|+HHMM|-HHMM)
  if (auto comma = text.find(','); comma != std::string_view::npos) text.remove_prefix(comma + 1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  char mon[4] = {};
  char zone[8] = {};
  int day = 0, year = 0, hour = 0, minute = 0, second = 0, consumed = 0;
  const std::string s(text);
  int n = std::sscanf(s.c_str(), "%2d %3s %4d %2d:%2d:%2d %7s%n", &day, mon, &year, &hour, &minute,
                      &second, zone, &consumed);
  if (n != 7) {
    second = 0;
    n = std::sscanf(s.c_str(), "%2d %3s %4d %2d:%2d %7s%n", &day, mon, &year, &hour, &minute, zone,
                    &consumed);
    if (n != 6) return std::nullopt;
  }
  const int month = month_number(mon);
  if (month == 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::string offset;
  const std::string z(zone);
  if (z == "GMT" || z == "UT" || z == "UTC" || z == "Z") {
    offset = "Z";
  } else if (z.size() == 5 && (z[0] == '+' || z[0] == '-') &&
             z.find_first_not_of("0123456789", 1) == std::string::npos) {
    offset = z.substr(0, 3) + ":" + z.substr(3);
  } else {
    return std::nullopt;
  }
  char out[32];
  std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute,
                second);
  return std::string(out) + offset;
}

const Endpoint& news_endpoint() {
  return the_endpoint<NewsEndpoint>();
}

}  // namespace gleaner::extract::google
