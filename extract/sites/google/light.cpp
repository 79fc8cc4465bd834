// GET /scrape/google-light/serp (also /scrape/google/light): Google's basic results page, the one
// it serves a browser without JavaScript, read with fewer blocks than the full page (hosted.md
// #14): organic results with their sitelinks, related searches, the next page.
//
// The page is a document (Endpoint::reads_document()): there is nothing on it to run, so it is
// fetched without a renderer when the plain road answers it (an HTML page, decoded as a browser
// decodes it), else in a browser with scripts off, which hands over its DOM's markup; either way
// read_page() below reads the markup, parsed by the HTML5 parser, in C++.
#include "extract/sites/google/light.h"

#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "extract/document.h"
#include "extract/html/document.h"
#include "extract/html/select.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/google.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// The basic page's markup: every block a card (`.Gx5Zad` in the 2023 markup, `.ZINbbc` in the
// 2020 one, the same structure inside). Structure first (a result is a card whose link leads
// through `/url?q=` and holds an h3; a related search is a link with Google's search-icon
// element), class names only for the cards themselves.
struct Selectors {
  html::Selector card{"#main .Gx5Zad, #main .ZINbbc"};
  html::Selector result_link{"a[href^=\"/url?\"]"};
  html::Selector title{"h3"};
  html::Selector related_search{"a[href^=\"/search\"]"};
  html::Selector related_icon{"accordion-entry-search-icon"};
  html::Selector next_page{"a[aria-label=\"Next page\"], a[aria-label=\"Next\"]"};
  // The paging links in any language ("Página seguinte"): Google's `sa=N` with an offset.
  html::Selector page_link{"footer a[href*=\"start=\"][href*=\"sa=N\"]"};
  html::Selector result_stats{"#result-stats"};
  // A block of text: the snippet is the first one holding no other.
  html::Selector block{"div"};
  html::Selector any_link{"a[href]"};
};

const Selectors& sel() {
  static const Selectors selectors;
  return selectors;
}

// What a person reads in `node`, on one line.
std::string text_of(xmlNodePtr node) {
  return collapse_whitespace(html::text_content(node));
}

// The page a result leads to: `/url?q=<target>&sa=U&...` Google's redirect names it.
std::string target_of(const std::string& base, const std::string& href) {
  const std::string url = absolute_url(base, href);
  const std::size_t scheme = url.find("://");
  const std::size_t slash = scheme == std::string::npos ? scheme : url.find('/', scheme + 3);
  const std::string path =
      slash == std::string::npos ? "" : url.substr(slash, url.find_first_of("?#", slash) - slash);
  if (path != "/url") return url;
  for (const char* name : {"q", "url"}) {
    if (std::string value = query_value(url, name).value_or(""); !value.empty()) return value;
  }
  return "";
}

json read_organic(const html::Document& doc, const std::string& base,
                  const std::vector<xmlNodePtr>& cards) {
  const Selectors& s = sel();
  const std::set<xmlNodePtr> is_card(cards.begin(), cards.end());
  json organic = json::array();
  for (xmlNodePtr card : cards) {
    bool nested = false;  // a card inside another (an answer)
    for (xmlNodePtr up = card->parent; up && !nested; up = up->parent) nested = is_card.count(up);
    if (nested) continue;
    xmlNodePtr link = nullptr;
    for (xmlNodePtr a : s.result_link.all(doc, card)) {
      if (s.title.first(doc, a)) {
        link = a;
        break;
      }
    }
    if (!link) continue;
    const std::string title = text_of(s.title.first(doc, link));
    const std::string whole = text_of(link);
    const std::string displayed =
        whole.starts_with(title) ? collapse_whitespace(whole.substr(title.size())) : "";
    // The snippet: the first text block of the card outside the title link (a block with no block
    // inside it); the links under it are the result's sitelinks.
    json sitelinks = json::array();
    std::string snippet;
    for (xmlNodePtr part : html::element_children(card)) {
      if (html::contains(part, link)) continue;
      for (xmlNodePtr l : s.result_link.all(doc, part)) {
        if (std::string t = text_of(l); !t.empty())
          sitelinks.push_back(
              {{"title", t}, {"link", target_of(base, html::attribute(l, "href"))}});
      }
      if (!snippet.empty()) continue;
      for (xmlNodePtr block : s.block.all(doc, part)) {
        if (s.block.first(doc, block)) continue;
        if (snippet = text_of(block); !snippet.empty()) break;
      }
    }
    organic.push_back({{"title", title},
                       {"link", target_of(base, html::attribute(link, "href"))},
                       {"displayedLink", displayed},
                       {"snippet", snippet},
                       {"sitelinks", std::move(sitelinks)}});
  }
  return organic;
}

// Where a paging link goes: its `start=` offset.
long long offset_of(const std::string& base, xmlNodePtr link) {
  const std::string start =
      query_value(absolute_url(base, html::attribute(link, "href")), "start").value_or("");
  try {
    return std::stoll(start);
  } catch (const std::exception&) {
    return 0;
  }
}

// The basic page's own texts, as shape_light() takes them.
json read_page(const Document& document) {
  const Selectors& s = sel();
  const html::Document doc = html::Document::parse(document.text);
  const std::string& base = document.url;
  const std::vector<xmlNodePtr> cards = s.card.all(doc);
  json organic = read_organic(doc, base, cards);

  json related = json::array();
  for (xmlNodePtr a : s.related_search.all(doc)) {
    if (!s.related_icon.first(doc, a)) continue;
    related.push_back(
        {{"query", text_of(a)}, {"link", absolute_url(base, html::attribute(a, "href"))}});
  }
  // A search that found nothing: "Your search - <query> - did not match any documents." in the
  // page's language, a card that restates the query and holds no link.
  std::string no_results;
  const std::string query = collapse_whitespace(query_value(base, "q").value_or(""));
  if (organic.empty() && !query.empty()) {
    for (xmlNodePtr card : cards) {
      if (s.any_link.first(doc, card)) continue;
      if (std::string t = text_of(card); t.find(query) != std::string::npos) {
        no_results = t;
        break;
      }
    }
  }
  // The English labels name the next page; elsewhere it is the paging link that goes furthest
  // (on a later page the previous page's link comes before it, with a smaller offset).
  xmlNodePtr next = s.next_page.first(doc);
  if (!next) {
    long long furthest = 0;
    for (xmlNodePtr a : s.page_link.all(doc)) {
      if (const long long offset = offset_of(base, a); !next || offset > furthest) {
        next = a;
        furthest = offset;
      }
    }
  }
  return {{"url", base},
          {"statsText", text_of(s.result_stats.first(doc))},
          {"noResultsText", no_results},
          {"organic", std::move(organic)},
          {"related", std::move(related)},
          {"nextPage", next ? absolute_url(base, html::attribute(next, "href")) : ""}};
}

class LightEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google-light/serp"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"organicResults[].title", "organicResults[].link", "organicResults[].snippet",
            "relatedSearches[].query", "pagination.current"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = search_params();
      p.push_back(Param::integer("start").range(0, 1000));
      for (Param& g : page_params({"num", "filter", "safe", "tbs", "lr"})) {
        p.push_back(std::move(g));
      }
      return Parameters(std::move(p), {location_rule()});
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url = results_url(params);
    const long long start = params.integer("start").value_or(0);
    if (start > 0) url.add("start", std::to_string(start));
    add_page_params(url, params);
    // Google's own switch to its basic page, which every link of that page carries.
    url.add("gbv", "1");
    PageRequest request;
    request.url = url.str();
    // The page a browser without JavaScript gets: its scripts do not run here either.
    request.profile.run_scripts = false;
    request.wait = WaitFor::load();
    return request;
  }

  bool reads_document() const override { return true; }
  DocumentRoad::Media document_media() const override { return DocumentRoad::Media::Html; }

  json read_document(const Document& document, const PageRequest&, DocumentRoad&,
                     Deadline) const override {
    return read_page(document);
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_light(output, params.integer("start").value_or(0));
  }

  bool has_content(const json& body) const override {
    if (at(body, {"searchInformation", "noResults"}) == true) return true;
    for (const char* key : {"organicResults", "relatedSearches"}) {
      if (body.contains(key) && !body[key].empty()) return true;
    }
    return false;
  }

  static json shape_light(const json& page, long long start) {
    json body = json::object();
    json organic = json::array();
    for (const json& r : at(page, {"organic"})) {
      json item;
      item["position"] = start + static_cast<long long>(organic.size()) + 1;
      item["title"] = str(at(r, {"title"}));
      item["link"] = str(at(r, {"link"}));
      const std::string displayed = str(at(r, {"displayedLink"}));
      if (!displayed.empty()) {
        item["displayedLink"] = displayed;
        // The page names no site apart from its address: the host the displayed link starts with.
        item["source"] = collapse_whitespace(displayed.substr(0, displayed.find("\u203a")));
      }
      std::string snippet = str(at(r, {"snippet"}));
      std::string date;
      if (auto split = leading_listed_date(snippet)) std::tie(date, snippet) = *split;
      if (!snippet.empty()) item["snippet"] = snippet;
      if (!date.empty()) item["date"] = date;
      json sitelinks = json::array();
      for (const json& s : at(r, {"sitelinks"})) {
        if (!str(at(s, {"title"})).empty())
          sitelinks.push_back({{"title", str(at(s, {"title"}))}, {"link", str(at(s, {"link"}))}});
      }
      if (!sitelinks.empty()) item["sitelinks"] = std::move(sitelinks);
      if (item["title"] != "" && item["link"] != "") organic.push_back(std::move(item));
    }
    body["organicResults"] = std::move(organic);
    json related = json::array();
    for (const json& r : at(page, {"related"})) {
      if (!str(at(r, {"query"})).empty())
        related.push_back({{"query", str(at(r, {"query"}))}, {"link", str(at(r, {"link"}))}});
    }
    body["relatedSearches"] = std::move(related);
    json pagination{{"current", start / 10 + 1}};
    if (!str(at(page, {"nextPage"})).empty()) pagination["next"] = str(at(page, {"nextPage"}));
    body["pagination"] = std::move(pagination);
    // The page says the search found nothing: an answer with no results, as the full page's.
    if (const std::string none = str(at(page, {"noResultsText"}));
        !none.empty() && body["organicResults"].empty()) {
      body["searchInformation"] = {
          {"totalResults", 0}, {"noResults", true}, {"noResultsText", none}};
    }
    return body;
  }
};

}  // namespace

json read_light_page(const Document& page) {
  return read_page(page);
}

json shape_light(const json& page, long long start) {
  return LightEndpoint::shape_light(page, start);
}

const Endpoint& light_endpoint() {
  return the_endpoint<LightEndpoint>();
}

}  // namespace gleaner::extract::google
