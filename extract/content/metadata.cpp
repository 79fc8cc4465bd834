#include "extract/content/metadata.h"

#include "core/json_depth.h"
#include "core/log.h"
#include "extract/content/chars.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace gleaner::content {
namespace {

using nlohmann::json;

std::string string_at(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return {};
  return std::string(chars::trim(it->get_ref<const std::string&>()));
}

/// Which of the output's objects a tag key belongs to.
const char* group_of(std::string_view key) {
  static constexpr std::array<std::string_view, 7> kOpenGraph = {
      "og:", "article:", "book:", "profile:", "music:", "video:", "product:"};
  for (std::string_view prefix : kOpenGraph) {
    if (key.substr(0, prefix.size()) == prefix) return "openGraph";
  }
  if (key.substr(0, 8) == "twitter:") return "twitter";
  return "meta";
}

/// Adds `value` under `key`: a second, different value turns the entry into an array.
void add_value(json& object, const std::string& key, const std::string& value) {
  auto it = object.find(key);
  if (it == object.end()) {
    object[key] = value;
  } else if (it->is_string()) {
    if (*it != value) *it = json::array({it->get<std::string>(), value});
  } else if (std::find(it->begin(), it->end(), value) == it->end()) {
    it->push_back(value);
  }
}

/// The first value of `key` in `object` (a string or the first of an array), or empty.
std::string first_value(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  return it->is_array() && !it->empty() ? (*it)[0].get<std::string>() : std::string();
}

std::string_view strip_wrapper(std::string_view s, std::string_view open, std::string_view close) {
  s = chars::trim(s);
  if (s.substr(0, open.size()) == open) s.remove_prefix(open.size());
  if (s.size() >= close.size() && s.substr(s.size() - close.size()) == close) {
    s.remove_suffix(close.size());
  }
  return chars::trim(s);
}

/// A JSON-LD block, tolerating the wrappers pages put around it; discarded (null) when invalid.
json parse_json_ld(std::string_view text) {
  json parsed = parse_json_within_depth(text);
  if (!parsed.is_discarded()) return parsed;
  std::string_view s = strip_wrapper(text, "<!--", "-->");
  s = strip_wrapper(s, "//<![CDATA[", "//]]>");
  s = strip_wrapper(s, "<![CDATA[", "]]>");
  while (!s.empty() && (s.back() == ';' || chars::is_space(s.back()))) s.remove_suffix(1);
  return parse_json_within_depth(s);
}

}  // namespace

json page_metadata(const json& meta) {
  json out = json::object();
  json groups = {
      {"meta", json::object()}, {"openGraph", json::object()}, {"twitter", json::object()}};
  const json& tags = meta.is_object() && meta.contains("metas") ? meta["metas"] : json();
  if (tags.is_array()) {
    for (const json& tag : tags) {
      if (!tag.is_array() || tag.size() < 2 || !tag[0].is_string() || !tag[1].is_string()) {
        continue;
      }
      std::string key = chars::lower(chars::trim(tag[0].get_ref<const std::string&>()));
      std::string value(chars::trim(tag[1].get_ref<const std::string&>()));
      if (key.empty() || value.empty()) continue;
      add_value(groups[group_of(key)], key, value);
    }
  }
  const json& named = groups["meta"];
  const json& og = groups["openGraph"];
  const json& twitter = groups["twitter"];

  auto first_of = [](std::initializer_list<std::string> candidates) {
    for (const std::string& c : candidates) {
      if (!c.empty()) return c;
    }
    return std::string();
  };
  auto set = [&out](const char* key, const std::string& value) {
    if (!value.empty()) out[key] = value;
  };
  set("title", first_of({string_at(meta, "title"), first_value(og, "og:title"),
                         first_value(twitter, "twitter:title")}));
  set("description", first_of({first_value(named, "description"), first_value(og, "og:description"),
                               first_value(twitter, "twitter:description")}));
  set("language", first_of({string_at(meta, "lang"), first_value(named, "content-language")}));
  set("canonicalUrl", string_at(meta, "canonical"));
  out["meta"] = std::move(groups["meta"]);
  out["openGraph"] = std::move(groups["openGraph"]);
  out["twitter"] = std::move(groups["twitter"]);

  json blocks = json::array();
  const json& json_ld = meta.is_object() && meta.contains("jsonLd") ? meta["jsonLd"] : json();
  if (json_ld.is_array()) {
    for (const json& text : json_ld) {
      if (!text.is_string()) continue;
      json parsed = parse_json_ld(text.get_ref<const std::string&>());
      if (parsed.is_discarded()) {
        log::debug("content") << "skipped a JSON-LD block that does not parse ("
                              << text.get_ref<const std::string&>().size() << " bytes)";
        continue;
      }
      blocks.push_back(std::move(parsed));
    }
  }
  out["jsonLd"] = std::move(blocks);
  return out;
}

}  // namespace gleaner::content
