#include "extract/sites/google/serp.h"

#include <algorithm>
#include <cmath>

#include "core/regex.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/google.h"
#include "extract/url.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

std::string str(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& list(const json& obj, const char* key) {
  static const json empty = json::array();
  auto it = obj.find(key);
  return it != obj.end() && it->is_array() ? *it : empty;
}

json sitelinks_of(const json& raw) {
  json out = json::array();
  for (const auto& s : list(raw, "sitelinks")) {
    json link{{"title", str(s, "title")}, {"link", str(s, "link")}};
    put_text(link, "snippet", str(s, "snippet"));
    if (!link["title"].get<std::string>().empty()) out.push_back(std::move(link));
  }
  return out;
}

// "Rating: 4.1" and "169 reviews" among the extensions of a rich result ("Note : 4,1",
// "169 avis"): the rating is the number after a label and a colon; beside a rating, the count is
// an extension that is a number and words. Read by their form, not their words, so any language
// reads.
void rating_from_extensions(const json& extensions, json& out, DecimalMark mark) {
  static const Regex kRating(R"(^[^\d:]{2,30}:\s*(\d+(?:[.,]\d+)?)\s*$)");
  static const Regex kCount(R"(^\(?\d[\d.,\s]*\)?\s+[^\d]{2,30}$)");
  for (const auto& e : extensions) {
    RegexMatch m;
    const std::string t = e.is_string() ? e.get<std::string>() : "";
    if (kRating.full_match(t, m)) {
      if (auto r = parse_number(m[1].str(), mark); r && *r <= 5) out["rating"] = *r;
    }
  }
  if (!out.contains("rating")) return;
  for (const auto& e : extensions) {
    const std::string t = e.is_string() ? e.get<std::string>() : "";
    if (kCount.full_match(t)) {
      if (auto n = parse_count(t, mark)) out["reviews"] = *n;
    }
  }
}

json organic_results(const json& page, long long start, DecimalMark mark) {
  json out = json::array();
  for (const auto& r : list(page, "organic")) {
    json item;
    item["position"] = start + static_cast<long long>(out.size()) + 1;
    item["title"] = str(r, "title");
    item["link"] = str(r, "link");
    put_text(item, "displayedLink", str(r, "displayedLink"));
    put_text(item, "source", str(r, "source"));
    std::string snippet = str(r, "snippet");
    const std::string date = str(r, "dateText");
    if (is_listed_date(date)) {
      item["date"] = date;
    } else if (!date.empty()) {
      // Not a date ("Results 1 - 12 of 28"): it is part of what the snippet says.
      snippet = snippet.empty() ? date : date + " — " + snippet;
    }
    put_text(item, "snippet", snippet);
    const json& extensions = list(r, "extensions");
    if (!extensions.empty()) {
      item["extensions"] = extensions;
      rating_from_extensions(extensions, item, mark);
    }
    json sitelinks = sitelinks_of(r);
    if (!sitelinks.empty()) item["sitelinks"] = std::move(sitelinks);
    out.push_back(std::move(item));
  }
  return out;
}

json ad_results(const json& page) {
  json out = json::array();
  long long top = 0, bottom = 0;
  for (const auto& a : list(page, "ads")) {
    const std::string block = str(a, "block") == "bottom" ? "bottom" : "top";
    json item;
    item["position"] = block == "top" ? ++top : ++bottom;
    item["block"] = block;
    item["title"] = str(a, "title");
    item["link"] = str(a, "link");
    put_text(item, "displayedLink", str(a, "displayedLink"));
    put_text(item, "advertiser", str(a, "advertiser"));
    put_text(item, "description", str(a, "description"));
    json sitelinks = sitelinks_of(a);
    if (!sitelinks.empty()) item["sitelinks"] = std::move(sitelinks);
    out.push_back(std::move(item));
  }
  return out;
}

json inline_shopping(const json& page, DecimalMark mark) {
  json out = json::array();
  for (const auto& s : list(page, "shopping")) {
    json item;
    item["position"] = static_cast<long long>(out.size()) + 1;
    item["title"] = str(s, "title");
    const std::string price = str(s, "price");
    put_text(item, "price", price);
    if (auto p = parse_number(price, mark)) item["extractedPrice"] = *p;
    put_text(item, "source", str(s, "source"));
    put_text(item, "link", str(s, "link"));
    if (auto r = parse_number(str(s, "ratingLabel"), mark)) item["rating"] = *r;
    if (auto n = parse_count(str(s, "reviewsText"), mark)) item["reviews"] = *n;
    if (s.value("sponsored", false)) item["sponsored"] = true;
    out.push_back(std::move(item));
  }
  return out;
}

// A snippet component as the script read it (a People also ask answer, a featured snippet):
// its text, list, source and date.
void put_snippet(json& item, const json& read) {
  put_text(item, "snippet", str(read, "snippet"));
  if (read.contains("list") && read["list"].is_array() && !read["list"].empty()) {
    item["list"] = read["list"];
  }
  put_text(item, "title", str(read, "title"));
  put_text(item, "link", str(read, "link"));
  put_text(item, "displayedLink", str(read, "displayedLink"));
  put_text(item, "date", str(read, "dateText"));
}

json related_questions(const json& page) {
  json out = json::array();
  for (const auto& q : list(page, "questions")) {
    json item{{"question", str(q, "question")}};
    put_snippet(item, q);
    out.push_back(std::move(item));
  }
  return out;
}

// answerBox {type, title?, snippet, link?, displayedLink?}: a featured snippet (with its source
// result) or a direct answer.
std::optional<json> answer_box(const json& page) {
  auto it = page.find("answerBox");
  if (it == page.end() || !it->is_object() || str(*it, "snippet").empty()) return std::nullopt;
  json box{{"type", str(*it, "type")}};
  put_snippet(box, *it);
  return box;
}

json related_searches(const json& page) {
  json out = json::array();
  for (const auto& r : list(page, "related")) {
    out.push_back({{"query", str(r, "query")}, {"link", str(r, "link")}});
  }
  return out;
}

std::optional<json> knowledge_graph(const json& page) {
  auto it = page.find("panel");
  if (it == page.end() || !it->is_object() || str(*it, "title").empty()) return std::nullopt;
  const json& p = *it;
  json kg{{"title", str(p, "title")}};
  // A product panel's subtitle is its review count "(110)"; an entity's is its type.
  const std::string subtitle = str(p, "subtitle");
  static const Regex kLetter("[A-Za-z]");
  if (kLetter.search(subtitle)) kg["type"] = subtitle;
  put_text(kg, "description", str(p, "description"));
  if (p.contains("source") && p["source"].is_object() && !str(p["source"], "name").empty()) {
    kg["source"] = {{"name", str(p["source"], "name")}, {"link", str(p["source"], "link")}};
  }
  put_text(kg, "website", str(p, "website"));
  json attributes = json::object();
  for (const auto& a : list(p, "attributes")) {
    const std::string label = str(a, "label");
    if (!label.empty() && !attributes.contains(label)) attributes[label] = str(a, "value");
  }
  kg["attributes"] = std::move(attributes);
  json profiles = json::array();
  for (const auto& pr : list(p, "profiles")) {
    profiles.push_back({{"name", str(pr, "name")}, {"link", str(pr, "link")}});
  }
  if (!profiles.empty()) kg["profiles"] = std::move(profiles);
  return kg;
}

json top_stories(const json& page) {
  json out = json::array();
  for (const auto& s : list(page, "stories")) {
    json item{{"title", str(s, "title")}, {"link", str(s, "link")}};
    put_text(item, "source", str(s, "source"));
    put_text(item, "date", str(s, "dateText"));
    out.push_back(std::move(item));
  }
  return out;
}

// "4.7 out of 5 stars from 8,294 reviews,  5-star hotel" ("4,7 von 5 Sternen aus 8.294
// Rezensionen, 5-Sterne-Hotel"): the rating, the scale, the count, by their order.
json local_places(const json& page, DecimalMark mark) {
  json out = json::array();
  for (const auto& p : list(page, "places")) {
    json item;
    item["position"] = static_cast<long long>(out.size()) + 1;
    item["title"] = str(p, "title");
    const std::string rating_text = str(p, "ratingText");
    if (!rating_text.empty()) {
      // A local pack business: "4.4 (71)", "3,9 (21)": the rating, then the review count; its
      // type and address as the page writes them.
      const std::vector<double> numbers = parse_numbers(rating_text, mark);
      if (!numbers.empty() && numbers[0] <= 5) item["rating"] = numbers[0];
      if (numbers.size() > 1 && numbers[1] >= 0) item["reviews"] = std::llround(numbers[1]);
    }
    put_text(item, "type", str(p, "type"));
    put_text(item, "address", str(p, "address"));
    const std::string label = str(p, "ratingLabel");
    const std::string rated = label.substr(0, label.rfind(", "));  // without ", 5-star hotel"
    const std::vector<double> numbers = parse_numbers(rated, mark);
    if (!numbers.empty()) item["rating"] = numbers[0];
    // "4.7 out of 5 … 8,294": the count follows the scale when the label writes one.
    const std::size_t count_at = numbers.size() > 2 && numbers[1] == 5 ? 2 : 1;
    if (numbers.size() > count_at && numbers[count_at] >= 0) {
      item["reviews"] = std::llround(numbers[count_at]);
    }
    auto comma = label.rfind(',');
    if (comma != std::string::npos && !item.contains("type"))
      put_text(item, "type", collapse_whitespace(label.substr(comma + 1)));
    const std::string price = str(p, "price");
    put_text(item, "price", price);
    if (auto v = parse_number(price, mark)) item["extractedPrice"] = *v;
    put_text(item, "link", str(p, "link"));
    out.push_back(std::move(item));
  }
  return out;
}

// The items of an AI Overview list as serp.js read them: {snippet, list?} (a nested list).
json ai_list_items(const json& raw) {
  json out = json::array();
  for (const json& r : list(raw, "list")) {
    json item = json::object();
    put_text(item, "snippet", str(r, "snippet"));
    if (item.empty()) continue;
    json nested = ai_list_items(r);
    if (!nested.empty()) item["list"] = std::move(nested);
    out.push_back(std::move(item));
  }
  return out;
}

// aiOverview {textBlocks, references}: the AI Overview the page shows (hosted.md #12's shape).
// Blocks keep the page's order; `referenceIndexes` point into `references` (from 0).
std::optional<json> ai_overview(const json& page) {
  auto it = page.find("aiOverview");
  if (it == page.end() || !it->is_object()) return std::nullopt;
  json blocks = json::array();
  for (const json& b : list(*it, "blocks")) {
    const std::string type = str(b, "type");
    json block{{"type", type}};
    if (type == "video") {
      put_text(block, "link", str(b, "link"));
      put_text(block, "channel", str(b, "channel"));
      // "YouTube • 3 Oct 2024": the site, then the date.
      const std::string line = str(b, "sourceLine");
      const auto dot = line.find("\u2022");
      put_text(block, "source", collapse_whitespace(line.substr(0, dot)));
      if (dot != std::string::npos) {
        put_text(block, "date",
                 collapse_whitespace(line.substr(dot + std::string("\u2022").size())));
      }
      put_text(block, "duration", str(b, "duration"));
      if (!block.contains("link")) continue;
    } else if (type == "list") {
      json items = ai_list_items(b);
      if (items.empty()) continue;
      block["list"] = std::move(items);
    } else {
      put_text(block, "snippet", str(b, "snippet"));
      if (!block.contains("snippet")) continue;
      json words = json::array();
      for (const json& w : list(b, "snippetHighlightedWords")) {
        if (w.is_string() && !w.get<std::string>().empty()) words.push_back(w);
      }
      if (!words.empty()) block["snippetHighlightedWords"] = std::move(words);
    }
    json indexes = json::array();
    for (const json& i : list(b, "referenceIndexes")) {
      if (i.is_number_integer()) indexes.push_back(i);
    }
    if (!indexes.empty()) block["referenceIndexes"] = std::move(indexes);
    blocks.push_back(std::move(block));
  }
  if (blocks.empty()) return std::nullopt;
  json references = json::array();
  for (const json& r : list(*it, "references")) {
    json ref{{"index", references.size()}};
    put_text(ref, "title", str(r, "title"));
    put_text(ref, "link", str(r, "link"));
    put_text(ref, "snippet", str(r, "snippet"));
    put_text(ref, "source", str(r, "source"));
    references.push_back(std::move(ref));
  }
  return json{{"textBlocks", std::move(blocks)}, {"references", std::move(references)}};
}

class SerpEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "search/serp"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"searchInformation.totalResults",
            "organicResults[].title",
            "organicResults[].link",
            "organicResults[].snippet",
            "adResults[].title",
            "inlineShopping[].price",
            "answerBox.snippet",
            "aiOverview.textBlocks",
            "aiOverview.references",
            "relatedQuestions[].question",
            "relatedSearches[].query",
            "knowledgeGraph.title",
            "topStories[].title",
            "localResults.places",
            "pagination.current"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = google::search_params();
      // A tablet gets Google's desktop or its mobile layout (Google decides); serp.js reads both.
      p.push_back(device_param());
      // Not in api.md's table ("further parameters: not shown"): the result offset every
      // results page link carries, so pagination.next can be followed.
      p.push_back(Param::integer("start").range(0, 1000));
      // Google's own results-page parameters, passed to the page as Google takes them.
      for (Param& g : google::page_params()) p.push_back(std::move(g));
      return Parameters(std::move(p), {google::location_rule()});
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url = google::results_url(params);
    const long long start = params.integer("start").value_or(0);
    if (start > 0) url.add("start", std::to_string(start));
    add_page_params(url, params);
    PageRequest request;
    request.url = url.str();
    request.profile.device = device_of(params);
    request.wait = WaitFor::load();
    request.script_args = {{"start", start}};
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_serp(output, params.integer("start").value_or(0),
                      decimal_mark_of(params.string("hl").value_or("")));
  }

  // Google's "did not match any documents" page is short, and so is a page of one or two
  // results (2026); in the EU they carry the consent dialog, and since 2025 every results page
  // carries the <noscript> refresh of Google's JavaScript check: either alone would make such a
  // page a wall. Its results, or its statement that it has none, tell it apart.
  bool page_recognized(const json& output) const override {
    if (!output.is_object()) return false;
    const auto organic = output.find("organic");
    return !str(output, "noResultsText").empty() ||
           (organic != output.end() && organic->is_array() && !organic->empty());
  }

  bool has_content(const json& body) const override {
    if (body.contains("searchInformation") && body["searchInformation"].value("noResults", false)) {
      return true;  // a real "did not match any documents" page
    }
    for (const char* key : {"organicResults", "adResults", "inlineShopping", "topStories"}) {
      if (body.contains(key) && !body[key].empty()) return true;
    }
    return body.contains("knowledgeGraph") || body.contains("answerBox") ||
           body.contains("aiOverview") ||
           (body.contains("localResults") && !body["localResults"]["places"].empty());
  }
};

}  // namespace

std::optional<json> shape_ai_answer(const json& page) {
  return ai_overview(page);
}

json shape_serp(const json& page, long long start, DecimalMark hl_mark) {
  json body = json::object();
  if (!page.is_object()) return body;
  // Numbers are read as the page's own language writes them (`<html lang="de-CH">`:
  // "1’780’000", "0.35"; "ru": "153 000", "0,49"), which Google picks from hl, the domain or
  // the browser; hl's only when the page names no language.
  DecimalMark mark = decimal_mark_of(str(page, "lang"));
  if (mark == DecimalMark::Unknown) mark = hl_mark;

  const std::string stats = str(page, "statsText");
  const std::string no_results = str(page, "noResultsText");
  if (!stats.empty() || !no_results.empty()) {
    json info = json::object();
    if (!stats.empty()) {
      info["totalResultsText"] = stats;
      // "About 25,150,000,000 results (0.62 seconds)"; page 2 reads "Page 2 of about ...";
      // "Environ 25 150 000 000 résultats (0,62 secondes)": the count is the last number
      // before the parenthesis, the time the first inside it, in any language (Japanese
      // writes a full-width one: "約 1,230,000 件 （0.42 秒）").
      const auto paren = std::min(stats.find('('), stats.find("\uFF08"));
      const std::vector<double> counted = parse_numbers(stats.substr(0, paren), mark);
      if (!counted.empty() && counted.back() >= 0) {
        info["totalResults"] = std::llround(counted.back());
      }
      if (paren != std::string::npos) {
        if (auto t = parse_number(stats.substr(paren), mark)) info["timeTaken"] = *t;
      }
    }
    if (!no_results.empty()) {
      info["noResults"] = true;
      info["noResultsText"] = no_results;
      info["totalResults"] = 0;
    }
    body["searchInformation"] = std::move(info);
  }

  body["organicResults"] = organic_results(page, start, mark);
  json ads = ad_results(page);
  if (!ads.empty()) body["adResults"] = std::move(ads);
  json shopping = inline_shopping(page, mark);
  if (!shopping.empty()) body["inlineShopping"] = std::move(shopping);
  if (auto box = answer_box(page)) body["answerBox"] = std::move(*box);
  if (auto overview = ai_overview(page)) body["aiOverview"] = std::move(*overview);
  json questions = related_questions(page);
  if (!questions.empty()) body["relatedQuestions"] = std::move(questions);
  json related = related_searches(page);
  if (!related.empty()) body["relatedSearches"] = std::move(related);
  if (auto kg = knowledge_graph(page)) body["knowledgeGraph"] = std::move(*kg);
  json stories = top_stories(page);
  if (!stories.empty()) body["topStories"] = std::move(stories);
  json places = local_places(page, mark);
  if (!places.empty()) body["localResults"] = {{"places", std::move(places)}};

  json pagination{{"current", start / 10 + 1}};
  put_text(pagination, "next", str(page, "nextPage"));
  body["pagination"] = std::move(pagination);
  return body;
}

const Endpoint& serp_endpoint() {
  return the_endpoint<SerpEndpoint>();
}

}  // namespace gleaner::extract::google
