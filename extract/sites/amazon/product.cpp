// GET /scrape/amazon/product: one Amazon product page (/dp/<asin>) of any of the 23 storefronts.
// product.js reads the page's DOM ids, its image gallery and its variation JSON; this shapes them
// as the hosted service answers, with prices and ratings read in the storefront's locale.

#include <cctype>

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

const Parameters& product_parameters() {
  static const Parameters params = [] {
    std::vector<Param> list = {
        Param::string("asin").required().pattern("[A-Za-z0-9]{10}",
                                                 "an ASIN: ten letters and digits (B07FNW9FGJ)"),
        Param::boolean("otherSellers").default_value(false)};
    for (Param& p : storefront_parameters()) list.push_back(std::move(p));
    return Parameters{std::move(list)};
  }();
  return params;
}

// Letters and digits only, lower-cased: "Data-Analyst Tees" and "dataanalysttees" compare equal.
std::string folded(const std::string& text) {
  std::string out;
  for (char c : lower(text)) {
    if (std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) {
      out += c;
    }
  }
  return out;
}

// The brand of the byline: the brand search it links to (`field-brandtextbin=`), the brand's
// own name whatever the page's language; else its store's name (`/stores/<Brand>/page/...`) when
// the byline's text says it (a store's name may be its owner's: "CATEYEWEAR" for the byline
// "Visita la tienda de Cat Footwear"), written as the byline writes it ("Instant Pot" for the store
// "InstantPot"); else the store's or an unlinked byline's text without the storefront's wording
// around it ("Visit the Darong Store", "Visita la tienda de Cat Footwear", "Marca: Amazon"). A
// byline linking elsewhere (a category's page) names no brand.
std::string brand_of_byline(const std::string& url, const std::string& text) {
  static const Regex kBrandSearch(R"([?&]field-brandtextbin=([^&#]+))");
  static const Regex kStore(R"(/stores/([^/?#]+)/page/)");
  RegexMatch m;
  if (kBrandSearch.search(url, m)) return form_decode(m[1].str());
  std::string store;
  if (kStore.search(url, m)) {
    const std::string name = form_decode(m[1].str());
    if (!folded(name).empty() && folded(text).find(folded(name)) != std::string::npos) {
      store = name;
    }
  } else if (!url.empty()) {
    return {};  // a category's page ("Visite a loja de Echo e Alexa da Amazon"), not a brand's
  }
  static const Regex kWording(
      R"(^(?:Visit the (.+) Store|Visita la tienda de (.+)|Visita lo Store di (.+)|)"
      R"(Besuche den (.+)-Store|Visitez la boutique (?:de )?(.+)|Visite a loja (?:d[aeo] )?(.+)|)"
      R"(Bezoek de (.+)-(?:winkel|Store)|Odwiedź sklep (.+)|Besök (.+)-butiken|(.+?)の?ストアを表示|)"
      R"((?:Brand|Marca|Marke|Marque|Merk|Marka|Varumärke|ブランド)\s*[:：]\s*(.+))$)");
  if (kWording.full_match(text, m)) {
    for (std::size_t i = 1; i < m.size(); ++i) {
      if (!m[i].matched) continue;
      const std::string named = collapse_whitespace(m[i].str());
      if (store.empty() || folded(named) == folded(store)) return named;
    }
  }
  return store;
}

// The brand row of the specification, by its label in the storefronts' languages.
std::string brand_of_specification(const nlohmann::json& spec) {
  for (const char* label :
       {"Brand", "Marca", "Marke", "Marque", "Merk", "Marka", "Varumärke", "ブランド"}) {
    if (spec.contains(label) && spec[label].is_string()) return spec[label];
  }
  return {};
}

// The rows of the overview, facts and detail tables as one object, the first value of a label
// kept.
json specification_of(const json& output) {
  json spec = json::object();
  for (const char* table : {"overview", "facts", "details"}) {
    for (const json& row : at(output, {table})) {
      const std::string key = str(at(row, {0}));
      const std::string value = str(at(row, {1}));
      if (key.empty() || value.empty() || spec.contains(key)) continue;
      spec[key] = value;
    }
  }
  return spec;
}

// A book's formats (its format swatches: "Kindle", "Taschenbuch", "Relié"), each the ASIN of its
// own page (the selected one this page's, `page_asin`), as variants of the one dimension "Format";
// a page of one format has none.
json format_variants(const json& output, const std::string& page_asin) {
  json variants = json::array();
  const json& formats = at(output, {"formats"});
  if (!formats.is_array() || formats.size() < 2) return variants;
  for (const json& f : formats) {
    std::string asin = str(at(f, {"asin"}));
    if (asin.empty() && at(f, {"selected"}) == true) asin = page_asin;
    const std::string name = collapse_whitespace(str(at(f, {"format"})));
    if (asin.empty() || name.empty()) continue;
    variants.push_back({{"asin", asin}, {"dimensions", {{"Format", name}}}});
  }
  return variants;
}

json variants_of(const json& output, const std::string& page_asin) {
  json variants = json::array();
  const json& labels = at(output, {"dimensionLabels"});
  const json& values = at(output, {"variations"});
  if (!values.is_object()) return format_variants(output, page_asin);
  const std::string asin = str(at(output, {"asin"}));
  for (const auto& [key, dims] : values.items()) {
    // Keys are "<asin>" or "<group>#<asin>".
    const auto hash = key.rfind('#');
    json v = {{"asin", hash == std::string::npos ? key : key.substr(hash + 1)}};
    json named = json::object();
    for (std::size_t i = 0; i < dims.size(); ++i) {
      std::string label = str(at(labels, {static_cast<int>(i)}));
      if (label.empty()) label = "dimension" + std::to_string(i + 1);
      named[label] = text(dims[i]);
    }
    v["dimensions"] = named;
    variants.push_back(std::move(v));
  }
  return variants;
}

json shape_product(const json& output, const ValidatedParams& params) {
  const std::string storefront = storefront_of(params);
  const DecimalMark mark = decimal_mark_of_page(str(at(output, {"lang"})), storefront);
  json p = json::object();
  std::string asin = str(at(output, {"asin"}));
  if (asin.empty()) asin = *params.string("asin");
  p["asin"] = asin;
  p["url"] = "https://" + storefront + "/dp/" + asin;
  p["title"] = str(at(output, {"title"}));

  const json spec = specification_of(output);
  std::string brand = brand_of_byline(str(at(output, {"bylineUrl"})),
                                      collapse_whitespace(str(at(output, {"byline"}))));
  if (brand.empty()) brand = brand_of_specification(spec);
  if (!brand.empty()) p["brand"] = brand;

  std::optional<Price> current = parse_price(str(at(output, {"price"})), mark);
  const bool out_of_stock = at(output, {"outOfStock"}) == true;
  // An item out of stock shows no buy box: amounts elsewhere on its page are other offers'.
  if (out_of_stock) current.reset();
  p["isAvailable"] = current.has_value();
  if (current) {
    json price = {{"symbol", current->symbol}, {"currentPrice", current->amount}};
    if (auto before = parse_price(str(at(output, {"basisPrice"})), mark);
        before && before->amount > current->amount) {
      price["beforePrice"] = before->amount;
    }
    if (std::string s = str(at(output, {"savings"})); !s.empty()) price["discount"] = s;
    p["price"] = price;
  }
  if (std::string a = str(at(output, {"availability"})); !a.empty()) p["availability"] = a;

  p["featureBullets"] =
      at(output, {"bullets"}).is_array() ? at(output, {"bullets"}) : json::array();
  p["description"] = str(at(output, {"description"}));
  p["breadcrumbs"] =
      at(output, {"breadcrumbs"}).is_array() ? at(output, {"breadcrumbs"}) : json::array();
  p["whatIsInTheBox"] =
      at(output, {"inTheBox"}).is_array() ? at(output, {"inTheBox"}) : json::array();
  p["variants"] = variants_of(output, asin);
  json images = at(output, {"images"}).is_array() ? at(output, {"images"}) : json::array();
  if (images.empty()) {
    if (std::string landing = str(at(output, {"landingImage"})); !landing.empty()) {
      images.push_back(landing);
    }
  }
  p["totalImages"] = images.size();
  if (!images.empty()) p["primaryImage"] = images[0];
  p["images"] = images;
  p["specification"] = spec;

  json reviews = json::object();
  if (auto rating = parse_rating(str(at(output, {"rating"})), mark)) {
    reviews["rating"] = *rating;
  }
  if (auto count = parse_count(str(at(output, {"ratingCount"})), mark)) {
    reviews["totalReviews"] = *count;
  }
  p["reviewsInfo"] = reviews;
  if (std::string s = str(at(output, {"seller"})); !s.empty()) p["seller"] = s;
  if (std::string u = str(at(output, {"sellerUrl"})); !u.empty()) p["sellerUrl"] = u;
  return json{{"product", p}};
}

class ProductEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "amazon/product"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"product.asin",        "product.title",  "product.brand",
            "product.isAvailable", "product.price",  "product.featureBullets",
            "product.breadcrumbs", "product.images", "product.specification",
            "product.reviewsInfo", "product.seller"};
  }
  const Parameters& parameters() const override { return product_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    PageRequest request;
    request.url = "https://" + storefront_of(p) + "/dp/" + upper(*p.string("asin"));
    request.profile = profile_of(p);
    // Everything read is in the document Amazon sends.
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_product(output, params);
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"product", "title"})).empty();
  }
};

}  // namespace

const Endpoint& product_endpoint() {
  return the_endpoint<ProductEndpoint>();
}

}  // namespace gleaner::extract::amazon
