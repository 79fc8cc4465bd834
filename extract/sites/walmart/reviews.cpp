#include "extract/sites/walmart/reviews.h"

#include <cmath>

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"

namespace gleaner::extract::walmart {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr int kPerPage = 10;

// The review page's sort menu, by the names this API takes (default first), and the value the
// site's review URLs carry for each.
struct SortOption {
  const char* name;
  const char* site_value;
};
constexpr SortOption kSorts[] = {
    {"mostRelevant", "relevancy"},      {"mostHelpful", "helpful"},
    {"newestFirst", "submission-desc"}, {"oldestFirst", "submission-asc"},
    {"highestRating", "rating-desc"},   {"lowestRating", "rating-asc"},
};

std::vector<std::string> sort_names() {
  std::vector<std::string> out;
  for (const SortOption& s : kSorts) out.emplace_back(s.name);
  return out;
}

// Each storefront's languages, its default first.
std::vector<std::string> languages_of(const std::string& storefront) {
  if (storefront == "walmart.ca") return {"en", "fr"};
  return {"en", "es"};
}

std::string storefront_of(const ValidatedParams& p) {
  if (auto url = p.string("url")) return parse_item_url(*url)->storefront;
  std::string d = lower(p.string("domain").value_or("walmart.com"));
  if (d.starts_with("www.")) d = d.substr(4);
  return d;
}

void check_request(const ValidatedParams& p) {
  std::optional<ItemUrl> item;
  if (auto url = p.string("url")) {
    item = parse_item_url(*url);
    if (!item) {
      throw invalid_parameter("url",
                              "url must be a walmart.com or walmart.ca product page "
                              "(/ip/<name>/<id>) or review page (/reviews/product/<id>)");
    }
  } else {
    const std::string id = *p.string("itemId");
    const bool canadian = storefront_of(p) == "walmart.ca";
    static const Regex kNumeric("[0-9]{1,20}");
    static const Regex kAlphanumeric("[A-Za-z0-9]{1,20}");
    if (!(canadian ? kAlphanumeric : kNumeric).full_match(id)) {
      throw invalid_parameter("itemId", canadian
                                            ? "itemId must be the item's letters and digits on "
                                              "walmart.ca"
                                            : "itemId must be the item's number on walmart.com");
    }
  }
  if (auto aspect = p.string("aspectId");
      aspect && aspect->find_first_of(",;|") != std::string::npos) {
    throw invalid_parameter("aspectId", "aspectId takes one topic only");
  }
  if (p.has("condition") && !(item && item->condition_group)) {
    throw invalid_parameter("condition",
                            "condition applies only to a variant named by the url's "
                            "conditionGroupCode");
  }
}

const Parameters& reviews_parameters() {
  static const Parameters params{
      {Param::string("itemId").max_length(64), Param::string("url"),
       Param::string("domain").one_of(
           {"walmart.com", "www.walmart.com", "walmart.ca", "www.walmart.ca"}),
       Param::string("language").pattern(patterns::kLanguageTag, patterns::kLanguageTagWords),
       Param::integer("page").range(1, std::nullopt).default_value(1),
       Param::string("sort").one_of(sort_names()).default_value("mostRelevant"),
       Param::integer("rating").range(1, 5),
       Param::string("aspectId").pattern("[A-Za-z0-9_,;|-]{1,64}", "a topic id of the item"),
       Param::string("condition").pattern("[A-Za-z0-9_ -]{1,64}", "a condition of the item"),
       Param::boolean("verifiedPurchasesOnly")},
      {Rule::one_of({"itemId", "url"}), Rule::custom(check_request)}};
  return params;
}

// The storefront's language for the request: the asked one when the storefront serves it, else
// its default.
std::string language_for(const ValidatedParams& p) {
  const auto served = languages_of(storefront_of(p));
  const std::string asked = lower(p.string("language").value_or("en").substr(0, 2));
  for (const std::string& l : served) {
    if (l == asked) return l;
  }
  return served.front();
}

std::optional<std::string> iso_date(const std::string& text) {
  // The site writes submission dates as M/D/YYYY on every storefront.
  return parse_date(text, site_clock().now(), DateOrder::MonthFirst);
}

json review_of(const json& r) {
  json out = json::object();
  if (std::string id = text(at(r, {"reviewId"})); !id.empty()) out["reviewId"] = id;
  if (std::string t = str(at(r, {"reviewTitle"})); !t.empty()) out["title"] = t;
  out["text"] = str(at(r, {"reviewText"}));
  if (const json& rating = at(r, {"rating"}); rating.is_number()) out["rating"] = rating;
  const std::string submitted = str(at(r, {"reviewSubmissionTime"}));
  if (auto d = iso_date(submitted)) out["date"] = *d;
  out["author"] = {{"name", str(at(r, {"userNickname"}))}};
  bool verified = false;
  json badges = json::array();
  for (const json& b : at(r, {"badges"})) {
    const std::string id = str(at(b, {"id"}));
    if (id == "VerifiedPurchaser") verified = true;
    std::string label = str(at(b, {"glassBadge", "text"}));
    if (label.empty()) label = id;
    if (!label.empty()) badges.push_back(label);
  }
  out["verifiedPurchase"] = verified;
  if (!badges.empty()) out["badges"] = badges;
  for (const char* k : {"positiveFeedback", "negativeFeedback"}) {
    if (const json& v = at(r, {k}); v.is_number()) out[k] = v;
  }
  json photos = json::array();
  for (const json& ph : at(r, {"photos"})) {
    // normalUrl (2025 on), or the normal size's url (2023).
    std::string u = str(at(ph, {"normalUrl"}));
    if (u.empty()) u = str(at(ph, {"url"}));
    if (u.empty()) u = str(at(ph, {"sizes", "normal", "url"}));
    if (!u.empty()) photos.push_back(u);
  }
  if (!photos.empty()) out["photos"] = photos;
  if (const json& s = at(r, {"syndicationSource"}); s.is_object() || s.is_string()) {
    std::string name = s.is_string() ? s.get<std::string>() : str(at(s, {"name"}));
    if (!name.empty()) out["syndicationSource"] = name;
  }
  json responses = json::array();
  for (const json& c : at(r, {"clientResponses"})) {
    // The reply as the page shows it (the data holds it between line breaks); the brand replying
    // is its responder, name or department (2023: {"department": "Samsung", "name": null}).
    std::string reply = collapse_whitespace(str(at(c, {"response"})));
    if (reply.empty()) reply = collapse_whitespace(str(at(c, {"text"})));
    json one = {{"text", reply}};
    if (auto d = iso_date(str(at(c, {"date"})))) one["date"] = *d;
    for (const char* k : {"responder", "name", "department"}) {
      if (std::string who = collapse_whitespace(str(at(c, {k}))); !who.empty()) {
        one["author"] = who;
        break;
      }
    }
    responses.push_back(one);
  }
  if (!responses.empty()) out["clientResponses"] = responses;
  return out;
}

std::optional<long long> count(const json& v) {
  if (v.is_number()) return v.get<long long>();
  return std::nullopt;
}

json shape_reviews(const json& output, const ValidatedParams& params) {
  const json& reviews = at(output, {"reviews"});
  if (!reviews.is_object()) {
    if (at(output, {"hasNextData"}) == true) {
      throw Error(
          ErrorCode::NotFound, "the item does not exist on the storefront",
          "the page's data has no reviews object (page " + text(at(output, {"page"})) + ")");
    }
    throw extraction_failed("could not find the item's data on the page",
                            "no __NEXT_DATA__ on the page");
  }
  const json& product = at(output, {"product"});
  const long long page = params.integer("page").value_or(1);
  const long long ratings = count(at(reviews, {"totalReviewCount"})).value_or(0);
  // The reviews with text, which the pages list (2025 on); the object of 2023 has no such count,
  // its totalReviewCount is the count the page gives for its reviews.
  const long long with_text = count(at(reviews, {"reviewsWithTextCount"})).value_or(ratings);

  json out = json::object();
  out["language"] = language_for(params);
  json p = json::object();
  std::string id = str(at(product, {"usItemId"}));
  if (id.empty()) id = parse_item_url(text(at(output, {"canonical"}))).value_or(ItemUrl{}).item_id;
  if (!id.empty()) p["itemId"] = id;
  if (std::string n = str(at(product, {"name"})); !n.empty()) p["name"] = n;
  if (std::string b = str(at(product, {"brand"})); !b.empty()) p["brand"] = b;
  const std::string origin = "https://www." + storefront_of(params);
  if (std::string c = str(at(product, {"canonicalUrl"})); !c.empty()) {
    p["link"] = absolute_url(origin + "/", c);
  } else if (std::string c2 = str(at(output, {"canonical"})); !c2.empty()) {
    p["link"] = c2;
  }
  if (std::string img = str(at(product, {"image"})); !img.empty()) p["image"] = img;
  if (const json& avg = at(reviews, {"averageOverallRating"}); avg.is_number()) {
    p["averageRating"] = avg;
  }
  p["totalRatings"] = ratings;
  out["product"] = p;

  json info = json::object();
  if (const json& avg = at(reviews, {"averageOverallRating"}); avg.is_number()) {
    info["averageRating"] = avg;
  }
  info["totalReviews"] = std::min(with_text, ratings > 0 ? ratings : with_text);
  info["totalRatings"] = ratings;
  if (const json& rec = at(reviews, {"recommendedPercentage"}); rec.is_number()) {
    info["recommendedPercentage"] = rec;
  }
  static const char* kStarKeys[] = {"ratingValueOneCount", "ratingValueTwoCount",
                                    "ratingValueThreeCount", "ratingValueFourCount",
                                    "ratingValueFiveCount"};
  json counts = json::object();
  json stars = json::array();
  for (int s = 5; s >= 1; --s) {
    const long long n = count(at(reviews, {kStarKeys[s - 1]})).value_or(0);
    counts[std::to_string(s)] = n;
    if (n > 0) {
      stars.push_back({{"name", std::to_string(s) + (s == 1 ? " star" : " stars")},
                       {"value", std::to_string(s)},
                       {"count", n}});
    }
  }
  // ratingCounts in ascending keys, as the shape lists them.
  json ordered = json::object();
  for (int s = 1; s <= 5; ++s) ordered[std::to_string(s)] = counts[std::to_string(s)];
  info["ratingCounts"] = ordered;
  out["reviewsInformation"] = info;

  // Only reviews with text are listed, ten a page: the page ceiling follows that count.
  const long long total_results = info["totalReviews"].get<long long>();
  const long long total_pages = (total_results + kPerPage - 1) / kPerPage;
  json pagination = {
      {"currentPage", page}, {"totalPages", total_pages}, {"totalResults", total_results}};
  if (page < total_pages) pagination["nextPage"] = page + 1;
  out["pagination"] = pagination;

  json filters = json::object();
  if (!stars.empty()) filters["Star rating"] = stars;
  json mentions = json::array();
  for (const json& a : at(reviews, {"aspects"})) {
    const std::string name = str(at(a, {"name"}));
    const std::string value = text(at(a, {"id"}));
    if (name.empty() || value.empty()) continue;
    mentions.push_back(
        {{"name", name}, {"value", value}, {"count", count(at(a, {"snippetCount"})).value_or(0)}});
  }
  if (!mentions.empty()) filters["Frequent mentions"] = mentions;
  // The condition choices appear only for an item sold in several conditions, and only when the
  // request names a variant (the site lists them in itemVariantInfo then).
  const std::optional<ItemUrl> item =
      params.string("url") ? parse_item_url(*params.string("url")) : std::nullopt;
  if (item && item->condition_group) {
    json conditions = json::array();
    for (const json& v : at(reviews, {"itemVariantInfo"})) {
      const std::string name = text(at(v, {"conditionName"}));
      std::string value = text(at(v, {"conditionType"}));
      if (value.empty()) value = name;
      if (name.empty()) continue;
      conditions.push_back(
          {{"name", name}, {"value", value}, {"count", count(at(v, {"reviewCount"})).value_or(0)}});
    }
    if (conditions.size() > 1) filters["Condition"] = conditions;
  }
  out["filters"] = filters;

  if (const json& top = at(reviews, {"topPositiveReview"}); top.is_object()) {
    out["topPositiveReview"] = review_of(top);
  }
  if (const json& top = at(reviews, {"topNegativeReview"}); top.is_object()) {
    out["topNegativeReview"] = review_of(top);
  }
  json list = json::array();
  long long position = (page - 1) * kPerPage;
  for (const json& r : at(reviews, {"customerReviews"})) {
    json one = review_of(r);
    one["position"] = ++position;
    list.push_back(std::move(one));
  }
  if (list.empty() && page > 1 && page > total_pages) {
    throw Error(ErrorCode::NotFound, "page " + std::to_string(page) +
                                         " is past the item's last page of reviews (" +
                                         std::to_string(total_pages) + ")");
  }
  out["reviews"] = list;
  return out;
}

class ReviewsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "mart/reviews"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"product.name",
            "product.itemId",
            "reviewsInformation.averageRating",
            "reviewsInformation.totalReviews",
            "reviewsInformation.totalRatings",
            "reviewsInformation.ratingCounts",
            "pagination.totalPages",
            "filters",
            "reviews[].text",
            "reviews[].rating",
            "reviews[].date",
            "reviews[].author"};
  }
  const Parameters& parameters() const override { return reviews_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    std::string storefront = storefront_of(p);
    std::string item_id;
    std::optional<std::string> condition_group;
    if (auto url = p.string("url")) {
      ItemUrl item = *parse_item_url(*url);
      item_id = item.item_id;
      condition_group = item.condition_group;
    } else {
      item_id = *p.string("itemId");
    }
    const std::string language = language_for(p);
    // walmart.ca writes the language as the path's first segment; walmart.com serves English
    // without one and Spanish under /es.
    std::string prefix;
    if (storefront == "walmart.ca") {
      prefix = "/" + language;
    } else if (language != "en") {
      prefix = "/" + language;
    }
    UrlBuilder url("https://www." + storefront + prefix + "/reviews/product/" +
                   path_encode(item_id));
    if (condition_group) url.add("conditionGroupCode", *condition_group);
    if (auto page = p.integer("page"); page && *page > 1) url.add("page", std::to_string(*page));
    const std::string sort = p.string("sort").value_or("mostRelevant");
    for (const SortOption& s : kSorts) {
      if (sort == s.name && sort != "mostRelevant") url.add("sort", s.site_value);
    }
    if (auto rating = p.integer("rating")) url.add("ratings", std::to_string(*rating));
    if (auto aspect = p.string("aspectId")) url.add("aspect", *aspect);
    if (auto condition = p.string("condition")) url.add("condition", *condition);
    if (p.boolean("verifiedPurchasesOnly").value_or(false)) {
      url.add("filter", "verifiedPurchase");
    }
    PageRequest request;
    request.url = url.str();
    request.profile.headers["Accept-Language"] =
        language + "-" + (storefront == "walmart.ca" ? "CA" : "US");
    // The reviews are in the document's own Next.js data.
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_reviews(output, params);
  }

  bool has_content(const json& body) const override {
    return at(body, {"reviewsInformation", "totalRatings"}).is_number() &&
           at(body, {"product"}).is_object();
  }
};

}  // namespace

std::optional<ItemUrl> parse_item_url(const std::string& url) {
  static const Regex kUrl(
      R"(https?://(?:www\.)?(walmart\.com|walmart\.ca)(/[^?#]*)(?:\?([^#]*))?(?:#.*)?)",
      {.ignore_case = true});
  RegexMatch m;
  if (!kUrl.full_match(url, m)) return std::nullopt;
  ItemUrl item;
  item.storefront = lower(m[1].str());
  const std::string path = m[2];
  static const Regex kProduct(R"((?:/[a-z]{2})?/ip/(?:[^/]+/)?([A-Za-z0-9]{1,20})/?)");
  static const Regex kReviews(R"((?:/[a-z]{2})?/reviews/product/([A-Za-z0-9]{1,20})/?)");
  RegexMatch pm;
  if (!kProduct.full_match(path, pm) && !kReviews.full_match(path, pm)) {
    return std::nullopt;
  }
  item.item_id = pm[1];
  static const Regex kNumeric("[0-9]+");
  if (item.storefront == "walmart.com" && !kNumeric.full_match(item.item_id)) {
    return std::nullopt;
  }
  const std::string query = m[3];
  static const Regex kCondition(R"((?:^|&)conditionGroupCode=([^&]+))");
  RegexMatch qm;
  if (kCondition.search(query, qm)) item.condition_group = form_decode(qm[1].str());
  return item;
}

const Endpoint& reviews_endpoint() {
  return the_endpoint<ReviewsEndpoint>();
}

}  // namespace gleaner::extract::walmart
