// GET /scrape/google/shopping (route search/shopping): a Google Shopping results page
// (`/search?tbm=shop`, hosted.md #15), read from its product blocks (shopping.js).
#include "extract/sites/google/shopping.h"

#include <string>

#include "extract/sites/common/json_path.h"
#include "extract/sites/google/google.h"
#include "extract/sites/google/immersive_product.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr long long kPerPage = 40;  // products of one page (hosted.md: start 0, 40, 80)

class ShoppingEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "search/shopping"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"shoppingResults[].title",          "shoppingResults[].price",
            "shoppingResults[].extractedPrice", "shoppingResults[].source",
            "shoppingResults[].thumbnail",      "pagination.current"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = search_params();
      p.push_back(Param::integer("start").range(0, 1000));
      for (Param& g : page_params({"tbs"})) p.push_back(std::move(g));
      // The filter a `filters[].options[]` link names, as Google writes it in its links.
      p.push_back(Param::string("shoprs").pattern("[A-Za-z0-9_=+/-]{1,1000}",
                                                  "a Shopping filter id as Google writes it"));
      p.push_back(device_param());
      return Parameters(std::move(p), {location_rule()});
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url = results_url(params);
    url.add("tbm", "shop");
    const long long start = params.integer("start").value_or(0);
    if (start > 0) url.add("start", std::to_string(start));
    add_page_params(url, params);
    if (auto shoprs = params.string("shoprs")) url.add("shoprs", *shoprs);
    PageRequest request;
    request.url = url.str();
    request.profile.device = device_of(params);
    request.wait = WaitFor::load();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_shopping(output, params.integer("start").value_or(0),
                          decimal_mark_of(params.string("hl").value_or("")));
  }

  // Each result with a product page gets the token /scrape/google/immersive-product redeems for
  // it, signed for the caller: the product and where and in which language it was searched.
  void add_page_tokens(json& body, const ValidatedParams& params,
                       const PageTokenMinter& mint) const override {
    auto results = body.find("shoppingResults");
    if (results == body.end() || !results->is_array()) return;
    for (json& item : *results) {
      const std::string product = str(at(item, {"productId"}));
      if (product.empty()) continue;
      item["immersiveProductPageToken"] =
          mint(kImmersiveProductTokenKind, immersive_product_claims(product, params));
    }
  }

  // Google's "A pesquisa - … - não corresponde aos resultados de compras." page is short; in the
  // EU it carries the consent dialog too, which alone would make it a consent wall.
  bool page_recognized(const json& output) const override {
    return output.is_object() && !str(at(output, {"noResultsText"})).empty();
  }

  bool has_content(const json& body) const override {
    if (body.contains("searchInformation") && body["searchInformation"].value("noResults", false)) {
      return true;  // a real "matches no shopping results" page
    }
    return body.contains("shoppingResults") && !body["shoppingResults"].empty();
  }
};

}  // namespace

json shape_shopping(const json& page, long long start, DecimalMark hl_mark) {
  json body = json::object();
  if (!page.is_object()) return body;
  DecimalMark mark = decimal_mark_of(str(at(page, {"lang"})));
  if (mark == DecimalMark::Unknown) mark = hl_mark;

  const std::string no_results = str(at(page, {"noResultsText"}));
  if (!no_results.empty()) {
    body["searchInformation"] = {
        {"noResults", true}, {"noResultsText", no_results}, {"totalResults", 0}};
  }

  json results = json::array();
  auto it = page.find("products");
  if (it != page.end() && it->is_array()) {
    for (const json& p : *it) {
      json item;
      item["position"] = start + static_cast<long long>(results.size()) + 1;
      item["title"] = str(at(p, {"title"}));
      put_text(item, "productId", str(at(p, {"productId"})));
      put_text(item, "productLink", str(at(p, {"productLink"})));
      const std::string price = str(at(p, {"price"}));
      put_text(item, "price", price);
      if (auto money = parse_money(price, mark)) item["extractedPrice"] = money->min;
      // "3.7 de 5 estrelas" on a pt-BR page: the stars are written with a point whatever the
      // page's language, so the first number is read without it.
      if (auto rating = parse_number(str(at(p, {"ratingLabel"}))); rating && *rating <= 5) {
        item["rating"] = *rating;
      }
      if (auto reviews = parse_count(str(at(p, {"reviewsText"})), mark)) item["reviews"] = *reviews;
      put_text(item, "source", str(at(p, {"source"})));
      put_text(item, "link", str(at(p, {"link"})));
      put_text(item, "thumbnail", str(at(p, {"thumbnail"})));
      put_text(item, "snippet", str(at(p, {"snippet"})));
      if (p.contains("extensions") && p["extensions"].is_array() && !p["extensions"].empty()) {
        item["extensions"] = p["extensions"];
      }
      results.push_back(std::move(item));
    }
  }
  body["shoppingResults"] = std::move(results);

  json pagination{{"current", start / kPerPage + 1}};
  put_text(pagination, "next", str(at(page, {"nextPage"})));
  body["pagination"] = std::move(pagination);
  return body;
}

const Endpoint& shopping_endpoint() {
  return the_endpoint<ShoppingEndpoint>();
}

}  // namespace gleaner::extract::google
