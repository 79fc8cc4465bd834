// GET /scrape/google/immersive-product (hosted.md #13): the product a Shopping result's
// `immersiveProductPageToken` names. The hosted service reads the "immersive product" pop-up of
// Google Shopping; no saved pop-up or its response could be found, so gleaner reads what the
// real pages show of the same product: Google's product page (`/shopping/product/<id>`: title,
// description, specifications, the stores it lists) or, with moreStores=true, its seller list
// (`/shopping/product/<id>/online`: every store). The token is the service's own, signed
// (extract/page_token.h): the API layer checked it for the caller before this runs, and its
// claims name the product and the Shopping search's domain, gl and hl.
#include "extract/sites/google/immersive_product.h"

#include <algorithm>
#include <array>

#include "core/error.h"
#include "extract/page_token.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/google/google.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// What of the Shopping request a token carries, to open the product page in the same place and
// language.
constexpr std::string_view kLocaleClaims[] = {"domain", "gl", "hl", "uule", "location"};

// The specification that names the brand, in the languages of Google's product pages ("Marca"
// on the real pt-BR page; the others are the same table's word in English, German and French).
constexpr std::array<std::string_view, 4> kBrandLabels = {"Marca", "Brand", "Marke", "Marque"};

bool digits_only(const std::string& s) {
  return !s.empty() && s.size() <= 30 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Error not_our_token() {
  return invalid_parameter("pageToken", "pageToken is not a token this service gave");
}

// The real seller lists show every store on one page (their paging holder is empty), so gleaner
// answers no storesNextPageToken and has none to continue from.
void refuse_next_page(const ValidatedParams& p) {
  if (auto token = p.string("nextPageToken")) {
    throw invalid_parameter(
        "nextPageToken",
        "'nextPageToken' value '" + *token +
            "' cannot be served: gleaner answers no storesNextPageToken, because the real seller "
            "lists show every store on one page (moreStores=true asks for that list)");
  }
}

class ImmersiveProductEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google/immersive-product"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"productResults.title", "productResults.stores[].name",
            "productResults.stores[].link", "productResults.stores[].price",
            "productResults.stores[].extractedPrice"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p;
      p.push_back(Param::string("pageToken")
                      .required()
                      .pattern("[A-Za-z0-9_-]{1,1000}\\.[0-9a-f]{64}",
                               "an immersiveProductPageToken of a /scrape/google/shopping answer"));
      p.push_back(Param::boolean("moreStores").default_value(false));
      p.push_back(Param::string("nextPageToken").max_length(2048));
      return Parameters(std::move(p), {Rule::custom(refuse_next_page)});
    }();
    return params;
  }

  std::vector<TakenPageToken> page_tokens_taken() const override {
    return {{"pageToken", std::string(kImmersiveProductTokenKind)}};
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    const std::optional<json> claims = page_token_claims(params.string("pageToken").value_or(""));
    if (!claims) throw not_our_token();
    const std::string product = str(at(*claims, {"productId"}));
    if (!digits_only(product)) throw not_our_token();
    const ValidatedParams locale = locale_of(*claims);
    std::string base = origin(locale) + "/shopping/product/" + product;
    if (params.boolean("moreStores").value_or(false)) base += "/online";
    UrlBuilder url(base);
    add_locale(url, locale);
    PageRequest request;
    request.url = url.str();
    request.wait = WaitFor::load();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    const std::optional<json> claims = page_token_claims(params.string("pageToken").value_or(""));
    const std::string hl = claims ? str(at(*claims, {"hl"})) : "";
    return shape_immersive_product(output, decimal_mark_of(hl));
  }

  bool has_content(const json& body) const override {
    return body.contains("productResults") &&
           !body["productResults"].value("title", std::string()).empty();
  }

 private:
  static ValidatedParams locale_of(const json& claims) {
    json values = json::object();
    for (std::string_view key : kLocaleClaims) {
      const std::string name(key);
      if (claims.contains(name) && claims[name].is_string()) values[name] = claims[name];
    }
    return ValidatedParams(std::move(values));
  }
};

}  // namespace

json immersive_product_claims(const std::string& product_id, const ValidatedParams& params) {
  json claims{{"productId", product_id}};
  for (std::string_view key : kLocaleClaims) {
    if (auto value = params.string(std::string(key))) claims[std::string(key)] = *value;
  }
  return claims;
}

json shape_immersive_product(const json& page, DecimalMark hl_mark) {
  json product = json::object();
  if (!page.is_object()) return json{{"productResults", product}};
  DecimalMark mark = decimal_mark_of(str(at(page, {"lang"})));
  if (mark == DecimalMark::Unknown) mark = hl_mark;

  put_text(product, "title", str(at(page, {"title"})));

  json features = json::array();
  if (auto specs = page.find("specs"); specs != page.end() && specs->is_array()) {
    for (const json& spec : *specs) {
      const std::string title = str(at(spec, {"title"}));
      const std::string value = str(at(spec, {"value"}));
      if (title.empty() || value.empty()) continue;
      if (!product.contains("brand") &&
          std::find(kBrandLabels.begin(), kBrandLabels.end(), title) != kBrandLabels.end()) {
        product["brand"] = value;
      }
      features.push_back({{"title", title}, {"value", value}});
    }
  }

  json stores = json::array();
  if (auto list = page.find("stores"); list != page.end() && list->is_array()) {
    for (const json& s : *list) {
      json store;
      put_text(store, "name", str(at(s, {"name"})));
      put_text(store, "link", str(at(s, {"link"})));
      const std::string price = str(at(s, {"price"}));
      put_text(store, "price", price);
      if (auto money = parse_money(price, mark)) store["extractedPrice"] = money->min;
      const std::string total = str(at(s, {"totalPrice"}));
      put_text(store, "totalPrice", total);
      if (auto money = parse_money(total, mark)) store["extractedTotalPrice"] = money->min;
      put_text(store, "details", str(at(s, {"details"})));
      if (store.contains("name")) stores.push_back(std::move(store));
    }
  }
  product["stores"] = std::move(stores);

  json about = json::object();
  put_text(about, "description", str(at(page, {"description"})));
  if (!features.empty()) about["features"] = std::move(features);
  if (!about.empty()) product["aboutTheProduct"] = std::move(about);
  return json{{"productResults", std::move(product)}};
}

const Endpoint& immersive_product_endpoint() {
  return the_endpoint<ImmersiveProductEndpoint>();
}

}  // namespace gleaner::extract::google
