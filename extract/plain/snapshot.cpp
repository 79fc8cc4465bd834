#include "extract/plain/snapshot.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "core/regex.h"
#include "extract/html/css_xpath.h"
#include "extract/plain/main_content.h"

namespace gleaner::plain {
namespace {

using nlohmann::json;

// The tag sets of snapshot.js, for the same tree.
const std::set<std::string, std::less<>> kSkip = {
    "script", "style", "template", "noscript", "head", "title", "meta", "link", "base", "svg",
    "iframe", "frame", "frameset", "object", "embed", "canvas", "video", "audio", "map", "area",
    "select", "datalist", "option", "optgroup", "textarea", "input", "param", "source", "track"};
const std::set<std::string, std::less<>> kSemantic = {
    "html", "body", "a", "abbr", "address", "article", "aside", "b", "bdi", "bdo", "blockquote",
    "br", "button", "caption", "center", "cite", "code", "col", "colgroup", "data", "dd", "del",
    "details", "dfn", "dialog", "dir", "dl", "dt", "em", "fieldset", "figcaption", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "i", "img",
    "ins", "kbd", "label", "legend", "li", "listing", "main", "mark", "menu", "nav", "ol", "p",
    "plaintext", "pre", "q", "rp", "rt", "ruby", "s", "samp", "search", "section", "small",
    "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead",
    "time", "tr", "tt", "u", "ul", "var", "wbr", "xmp", "math", "picture", "big", "meter",
    "progress", "output", "slot"};
const std::set<std::string, std::less<>> kKeepEmpty = {"br", "hr", "img", "td", "th", "wbr"};
const std::set<std::string, std::less<>> kPre = {"pre", "listing", "xmp", "plaintext"};
const std::set<std::string, std::less<>> kContent = {"p", "h1", "h2", "h3", "h4", "h5", "h6",
                                                     "li", "table", "article", "main", "section",
                                                     "form"};
constexpr int kMaxDepth = 400;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

std::string strip(std::string s) {
  auto blank = [](unsigned char ch) { return ch <= 0x20; };
  while (!s.empty() && blank(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && blank(static_cast<unsigned char>(s[start]))) ++start;
  return s.substr(start);
}

bool holds_content(xmlNodePtr el) {
  for (xmlNodePtr child : html::element_children(el)) {
    if (kContent.count(html::tag_of(child)) || holds_content(child)) return true;
  }
  return false;
}

}  // namespace

bool never_shown(std::string_view tag) { return kSkip.count(tag) != 0; }

bool hidden_in_markup(xmlNodePtr el) {
  bool found = false;
  html::attribute(el, "hidden", &found);
  if (found) return true;
  const std::string style = lower(html::attribute(el, "style"));
  if (!style.empty()) {
    static const Regex none(
        R"((^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important)?\s*(;|$))");
    if (none.search(style)) return true;
  }
  return html::attribute(el, "aria-hidden") == "true" && !holds_content(el);
}

namespace {

bool has_class_prefix(const std::string& classes, const Regex& pattern, std::string* lang) {
  std::size_t start = 0;
  while (start < classes.size()) {
    std::size_t end = classes.find_first_of(" \t\n\r\f", start);
    if (end == std::string::npos) end = classes.size();
    RegexMatch m;
    const std::string cls = classes.substr(start, end - start);
    if (pattern.full_match(cls, m)) {
      *lang = m[1];
      return true;
    }
    start = end + 1;
  }
  return false;
}

std::string code_language(xmlNodePtr el) {
  static const Regex own(R"(^(?:language|lang|highlight-source)-([A-Za-z0-9_+#.-]+)$)");
  static const Regex wrapper(R"(^(?:language|highlight-source)-([A-Za-z0-9_+#.-]+)$)");
  std::vector<xmlNodePtr> nodes{el};
  const auto kids = html::element_children(el);
  if (html::tag_of(el) == "pre" && !kids.empty() && html::tag_of(kids.front()) == "code") {
    nodes.push_back(kids.front());
  }
  std::string lang;
  for (xmlNodePtr node : nodes) {
    for (const char* name : {"data-lang", "data-language"}) {
      if (std::string v = html::attribute(node, name); !v.empty()) return v;
    }
    if (has_class_prefix(html::attribute(node, "class"), own, &lang)) return lang;
  }
  xmlNodePtr up = el->parent;
  for (int i = 0; up && up->type == XML_ELEMENT_NODE && i < 2; ++i, up = up->parent) {
    if (has_class_prefix(html::attribute(up, "class"), wrapper, &lang)) return lang;
  }
  return {};
}

class TreeBuilder {
 public:
  TreeBuilder(std::string base, const TreeFilter& filter) : base_(std::move(base)), filter_(filter) {}

  json build(xmlNodePtr root) {
    json holder = json::array({"holder"});
    add_node(root, holder, 0, false);
    return holder.size() > 1 ? holder[1] : json();
  }

 private:
  void add_text(json& parent, const std::string& text) {
    if (parent.size() > 1 && parent.back().is_string()) {
      parent.back() = parent.back().get<std::string>() + text;
    } else {
      parent.push_back(text);
    }
  }

  void add_children(xmlNodePtr el, json& parent, int depth, bool pre) {
    const bool closed_details = html::tag_of(el) == "details" && html::attribute(el, "open").empty() &&
                                !has_attr(el, "open");
    for (xmlNodePtr child = el->children; child; child = child->next) {
      if (closed_details && html::tag_of(child) != "summary") continue;
      add_node(child, parent, depth, pre);
    }
  }

  static bool has_attr(xmlNodePtr el, const char* name) {
    bool found = false;
    html::attribute(el, name, &found);
    return found;
  }

  json attributes_of(xmlNodePtr el, const std::string& tag) {
    json a = json::object();
    auto set = [&](const char* key, const std::string& value) {
      if (!value.empty()) a[key] = value;
    };
    if (tag == "a") {
      if (has_attr(el, "href")) set("href", resolve_url(base_, html::attribute(el, "href")));
      set("title", html::attribute(el, "title"));
    } else if (tag == "img") {
      // An empty src names no image (resolved, it would be the page's own URL), as in snapshot.js.
      const std::string written = strip(html::attribute(el, "src"));
      std::string src = written.empty() ? "" : resolve_url(base_, written);
      const bool data = src.rfind("data:", 0) == 0;
      if (src.empty() || data) {
        std::string lazy = html::attribute(el, "data-src");
        if (lazy.empty()) lazy = html::attribute(el, "data-lazy-src");
        if (lazy.empty()) lazy = html::attribute(el, "data-original");
        if (lazy.empty()) {
          std::string set_attr = strip(html::attribute(el, "data-srcset"));
          lazy = set_attr.substr(0, set_attr.find_first_of(" \t\n,"));
        }
        if (!lazy.empty()) src = resolve_url(base_, lazy);
        else if (!(data && filter_.keep_data_images)) src.clear();
      }
      if (src.rfind("data:", 0) == 0 && !filter_.keep_data_images) src.clear();
      set("src", src);
      set("alt", html::attribute(el, "alt"));
      set("title", html::attribute(el, "title"));
    } else if (tag == "td" || tag == "th") {
      for (const char* name : {"colspan", "rowspan"}) {
        try {
          const long n = std::stol(html::attribute(el, name));
          if (n > 1) a[name] = std::min(n, 1000L);
        } catch (const std::exception&) {
        }
      }
    } else if (tag == "ol") {
      try {
        const long n = std::stol(html::attribute(el, "start"));
        if (n != 1) a["start"] = n;
      } catch (const std::exception&) {
      }
    } else if (tag == "pre" || tag == "code") {
      set("lang", code_language(el));
    } else if (tag == "table") {
      const std::string role = html::attribute(el, "role");
      if (role == "presentation" || role == "none") set("role", role);
    }
    return a;
  }

  void add_node(xmlNodePtr node, json& parent, int depth, bool pre) {
    if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) {
      std::string text = node->content ? reinterpret_cast<const char*>(node->content) : "";
      if (!pre) {
        std::string collapsed;
        bool space = false;
        for (char ch : text) {
          if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f') {
            space = true;
            continue;
          }
          if (space) collapsed += ' ';
          space = false;
          collapsed += ch;
        }
        if (space) collapsed += ' ';
        text = std::move(collapsed);
      }
      if (!text.empty()) add_text(parent, text);
      return;
    }
    if (node->type != XML_ELEMENT_NODE) return;
    std::string tag(html::tag_of(node));
    if (kSkip.count(tag) || hidden_in_markup(node) || (filter_.skip && filter_.skip(node))) return;
    if (depth >= kMaxDepth) {
      const std::string text = html::collapse_whitespace(html::text_content(node));
      if (!text.empty()) add_text(parent, " " + text + " ");
      return;
    }
    if (!kSemantic.count(tag)) tag = tag == "div" ? "div" : "span";
    json result = json::array({tag});
    json attrs = attributes_of(node, tag);
    // As snapshot.js: an empty link is kept, for where it leads.
    const bool keep_empty = kKeepEmpty.count(tag) != 0 || (tag == "a" && attrs.contains("href"));
    if (!attrs.empty()) result.push_back(std::move(attrs));
    const std::size_t child_count = result.size();
    add_children(node, result, depth + 1, pre || kPre.count(tag) != 0);
    if (result.size() == child_count && !keep_empty) {
      // As snapshot.js: an empty div after text still ends that text's line; sent bare.
      if (tag == "div" && parent.size() > 1 && parent.back().is_string() &&
          parent.back().get_ref<const std::string&>().find_first_not_of(' ') != std::string::npos) {
        parent.push_back(json::array({"div"}));
      }
      return;
    }
    parent.push_back(std::move(result));
  }

  std::string base_;
  const TreeFilter& filter_;
};

std::string base_url(const html::Document& doc, const std::string& url) {
  auto found = html::evaluate_xpath(doc, nullptr, "(//base[@href])[1]", nullptr);
  if (found.nodes.empty()) return url;
  std::string resolved = resolve_url(url, html::attribute(found.nodes.front(), "href"));
  return resolved.empty() ? url : resolved;
}

json meta_of(const html::Document& doc, const std::string& base) {
  json meta = {{"title", ""}, {"lang", ""}, {"canonical", ""}, {"metas", json::array()},
               {"jsonLd", json::array()}};
  auto first = [&](const char* xpath) -> xmlNodePtr {
    auto found = html::evaluate_xpath(doc, nullptr, xpath, nullptr);
    return found.nodes.empty() ? nullptr : found.nodes.front();
  };
  // document.title: the first <title>'s text, white space stripped and collapsed.
  if (xmlNodePtr title = first("(//title)[1]")) meta["title"] = html::collapse_whitespace(html::text_content(title));
  std::string lang = html::attribute(doc.root(), "lang");
  if (lang.empty()) lang = html::attribute(doc.root(), "xml:lang");
  meta["lang"] = lang;
  static const std::string canonical =
      "(//link[@href][contains(concat(' ', normalize-space(translate(@rel, 'CANOKIL', 'canokil')), ' '), ' canonical ')])[1]";
  if (xmlNodePtr link = first(canonical.c_str())) {
    meta["canonical"] = resolve_url(base, html::attribute(link, "href"));
  }
  for (xmlNodePtr el : html::evaluate_xpath(doc, nullptr, "//meta[@content]", nullptr).nodes) {
    std::string key;
    for (const char* name : {"name", "property", "http-equiv", "itemprop"}) {
      key = html::attribute(el, name);
      if (!key.empty()) break;
    }
    if (!key.empty()) meta["metas"].push_back({key, html::attribute(el, "content")});
  }
  const char* ld =
      "//script[translate(@type, 'APLICTONDJS', 'aplictondjs') = 'application/ld+json']";
  for (xmlNodePtr el : html::evaluate_xpath(doc, nullptr, ld, nullptr).nodes) {
    meta["jsonLd"].push_back(html::text_content(el));
  }
  return meta;
}

}  // namespace

std::string resolve_url(const std::string& base, const std::string& ref_in) {
  const std::string ref = strip(ref_in);
  CURLU* h = curl_url();
  if (!h) return {};
  std::string out;
  if (curl_url_set(h, CURLUPART_URL, base.c_str(), 0) == CURLUE_OK) {
    const std::string target = ref.empty() ? base.substr(0, base.find('#')) : ref;
    if (curl_url_set(h, CURLUPART_URL, target.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
      char* url = nullptr;
      if (curl_url_get(h, CURLUPART_URL, &url, 0) == CURLUE_OK && url) {
        out = url;
        curl_free(url);
      }
    }
  }
  curl_url_cleanup(h);
  if (out.empty()) {
    // A scheme curl cannot parse a host from (mailto:, javascript:): as written, as a browser does.
    static const Regex scheme(R"(^[A-Za-z][A-Za-z0-9+.-]*:)");
    if (scheme.search(ref)) return ref;
  }
  return out;
}

json snapshot_of(const html::Document& doc, const std::string& source, const std::string& url,
                 const content::SnapshotParts& parts, const TreeFilter& filter) {
  const std::string base = base_url(doc, url);
  json out = {{"url", url}, {"baseUrl", base}};
  if (parts.html) {
    if (source.size() > parts.max_chars) {
      out["html"] = source.substr(0, parts.max_chars);
      out["truncated"].push_back("html");
    } else {
      out["html"] = source;
    }
  }
  if (parts.tree || parts.text) {
    TreeBuilder builder(base, filter);
    if (!filter.use_roots) {
      out["tree"] = builder.build(doc.body());
    } else {
      json holder = json::array({"body"});
      for (xmlNodePtr root : filter.roots) {
        json part = builder.build(root);
        if (!part.is_null()) holder.push_back(std::move(part));
      }
      out["tree"] = std::move(holder);
    }
  }
  if (parts.links) {
    json links = json::array();
    for (xmlNodePtr el : html::evaluate_xpath(doc, nullptr, "//a[@href] | //area[@href]", nullptr).nodes) {
      links.push_back(resolve_url(base, html::attribute(el, "href")));
    }
    out["links"] = std::move(links);
  }
  if (parts.meta) out["meta"] = meta_of(doc, base);
  return out;
}

}  // namespace gleaner::plain
