// GET /scrape/amazon/search: one Amazon search results page (/s?k=...) of any of the 23
// storefronts. search.js reads the result cards (`data-asin`), the result count and the pager;
// this shapes them as the hosted service answers, numbers read in the page's locale.

#include <sstream>

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/amazon/storefront.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::amazon {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// The sort menu of the results page, by the hosted service's words, and the `s=` value the
// page's own menu carries for each (the 2026 amazon.com page's <select>).
struct SortOption {
  const char* name;
  const char* site_value;
};
constexpr SortOption kSorts[] = {
    {"featured", "relevanceblender"},      {"priceLowToHigh", "price-asc-rank"},
    {"priceHighToLow", "price-desc-rank"}, {"avgCustomerReview", "review-rank"},
    {"newestArrivals", "date-desc-rank"},  {"bestSellers", "exact-aware-popularity-rank"},
};

const Parameters& search_parameters() {
  static const Parameters params = [] {
    std::vector<std::string> sorts;
    for (const SortOption& s : kSorts) sorts.emplace_back(s.name);
    std::vector<Param> list = {Param::string("q").required().max_length(512),
                               Param::integer("page").range(1, 400).default_value(1),
                               Param::string("sortBy").one_of(sorts)};
    for (Param& p : storefront_parameters()) list.push_back(std::move(p));
    return Parameters{std::move(list)};
  }();
  return params;
}

// "Sponsored Ad - <title>": the label screen readers hear before a sponsored card's title.
std::string without_ad_label(std::string title) {
  static const Regex kLabel(R"(^Sponsored Ad\s*[-–]\s*)");
  return kLabel.replace_all(title, "");
}

// The figure of a "bought in past month" line as the English line writes it: "4K+ bought in
// past month" → "4K+"; "Mais de 9 mil compras no mês passado" → "9K+"; "100+ comprados el mes
// pasado" → "100+".
std::string bought_figure(const std::string& line, DecimalMark mark) {
  static const Regex kEnglish(R"(^(\d[\d.,]*[KkMm]?\+))");
  RegexMatch m;
  const std::string text = collapse_whitespace(line);
  if (kEnglish.search(text, m)) return m[1].str();
  const auto n = parse_number(text, mark);
  if (!n || *n <= 0) return {};
  const auto whole = [](double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  };
  if (*n >= 1e6) return whole(*n / 1e6) + "M+";
  if (*n >= 1e3) return whole(*n / 1e3) + "K+";
  return whole(*n) + "+";
}

json shape_search(const json& output, const ValidatedParams& params) {
  const DecimalMark mark = decimal_mark_of_page(str(at(output, {"lang"})), storefront_of(params));
  json results = json::array();
  int position = 0;
  for (const json& c : at(output, {"results"})) {
    const std::string asin = str(at(c, {"asin"}));
    const std::string title = without_ad_label(collapse_whitespace(str(at(c, {"title"}))));
    if (asin.empty() || title.empty()) continue;
    json r = {{"position", ++position},
              {"asin", asin},
              {"title", title},
              {"url", str(at(c, {"link"}))},
              {"isSponsored", at(c, {"adHolder"}) == true}};
    if (std::string img = str(at(c, {"image"})); !img.empty()) r["image"] = img;
    if (auto price = parse_price(str(at(c, {"price"})), mark)) {
      json p = {{"symbol", price->symbol}, {"currentPrice", price->amount}};
      if (auto before = parse_price(str(at(c, {"listPrice"})), mark);
          before && before->amount > price->amount) {
        p["beforePrice"] = before->amount;
      }
      r["price"] = p;
    }
    json reviews = json::object();
    if (auto rating = parse_rating(str(at(c, {"stars"})), mark)) {
      reviews["rating"] = *rating;
    }
    if (auto count = parse_count(str(at(c, {"ratingCount"})), mark)) {
      reviews["totalReviews"] = *count;
    }
    if (!reviews.empty()) r["reviews"] = reviews;
    // Badges by the ids the page gives them ("<asin>-amazons-choice", "<asin>-best-seller") in
    // every language, else by their English words.
    bool choice = at(c, {"amazonChoice"}) == true;
    bool best = at(c, {"bestSeller"}) == true;
    for (const json& b : at(c, {"badges"})) {
      const std::string t = lower(text(b));
      if (t.find("choice") != std::string::npos) choice = true;
      if (t.find("best seller") != std::string::npos) best = true;
    }
    r["badges"] = {
        {"amazonChoice", choice}, {"amazonPrime", at(c, {"prime"}) == true}, {"bestSeller", best}};
    if (std::string b = str(at(c, {"bought"})); !b.empty()) {
      if (std::string figure = bought_figure(western_digits(b, mark), mark); !figure.empty()) {
        r["boughtInPastMonth"] = figure;
      }
    }
    json delivery = json::object();
    if (std::string d = str(at(c, {"delivery"})); !d.empty()) delivery["freeDelivery"] = d;
    if (std::string d = str(at(c, {"fastestDelivery"})); !d.empty()) {
      delivery["fastestDelivery"] = d;
    }
    if (!delivery.empty()) r["deliveryInfo"] = delivery;
    results.push_back(std::move(r));
  }
  json pagination = {{"currentPage", params.integer("page").value_or(1)}};
  // "1-16 of 521 results for": the last number before the words is the total ("over 1,000"
  // pages write one number only).
  const std::vector<double> counts = parse_numbers(str(at(output, {"resultCount"})), mark);
  if (!counts.empty()) pagination["totalResults"] = static_cast<long long>(counts.back());
  if (std::string next = str(at(output, {"nextPageUrl"})); !next.empty()) {
    pagination["nextPageUrl"] = next;
  }
  json others = json::object();
  for (const json& o : at(output, {"otherPages"})) {
    const std::string page = str(at(o, {"page"}));
    const std::string url = str(at(o, {"url"}));
    if (!page.empty() && !url.empty() && parse_count(page)) others[page] = url;
  }
  if (!others.empty()) pagination["otherPageUrls"] = others;
  return json{{"productResults", results}, {"pagination", pagination}};
}

class SearchEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "amazon/search"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"productResults[].asin",  "productResults[].title",   "productResults[].url",
            "productResults[].price", "productResults[].reviews", "productResults[].image",
            "pagination.totalResults"};
  }
  const Parameters& parameters() const override { return search_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    UrlBuilder url("https://" + storefront_of(p) + "/s");
    url.add("k", *p.string("q"));
    if (auto page = p.integer("page"); page && *page > 1) url.add("page", std::to_string(*page));
    if (auto sort = p.string("sortBy"); sort && *sort != "featured") {
      for (const SortOption& s : kSorts) {
        if (*sort == s.name) url.add("s", s.site_value);
      }
    }
    PageRequest request;
    request.url = url.str();
    request.profile = profile_of(p);
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_search(output, params);
  }

  // No page of no matches has been recorded: a page without cards is one we could not read.
  bool has_content(const json& body) const override {
    return !at(body, {"productResults"}).empty();
  }
};

}  // namespace

const Endpoint& search_endpoint() {
  return the_endpoint<SearchEndpoint>();
}

}  // namespace gleaner::extract::amazon
