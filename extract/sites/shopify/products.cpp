// GET /scrape/shopify/products: a Shopify store's products, from the store's own
// `/products.json?limit=&page=` or a collection's `/collections/<handle>/products.json`. The
// products are Shopify's own objects, passed through with their snake_case keys (hosted.md #21).
// The page is a document: read on the plain road when it answers it, else in the browser
// (Endpoint::reads_document()); read_document() reads it on either.

#include "core/error.h"
#include "extract/document.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/shopify/store.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::shopify {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

const Parameters& products_parameters() {
  static const Parameters params{
      {Param::string("url").required(), Param::integer("limit").range(1, 250).default_value(1),
       Param::integer("page").range(1, 10000).default_value(1),
       Param::string("collection")
           .pattern("[A-Za-z0-9][A-Za-z0-9_.%-]{0,254}", "a collection handle (its URL name)")},
      // Any host, but never one the address guard refuses.
      {Rule::custom([](const ValidatedParams& p) { origin_of(*p.string("url")); })}};
  return params;
}

class ProductsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "shopify/products"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"products[].id", "products[].title", "products[].handle", "products[].variants",
            "products[].images"};
  }
  const Parameters& parameters() const override { return products_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    std::string path = "/products.json";
    if (auto c = p.string("collection")) path = "/collections/" + path_encode(*c) + path;
    PageRequest request;
    request.url = UrlBuilder(origin_of(*p.string("url")) + path)
                      .add("limit", std::to_string(p.integer("limit").value_or(1)))
                      .add("page", std::to_string(p.integer("page").value_or(1)))
                      .str();
    request.profile.run_scripts = false;  // a JSON document: nothing of the store's to run
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  bool reads_document() const override { return true; }

  // The document's products list, and what the document was when it has none (a store's HTML
  // page, a password page).
  json read_document(const Document& d, const PageRequest&, DocumentRoad&,
                     Deadline) const override {
    const json doc = json_of_document(d.text);
    const json& products = at(doc, {"products"});
    return {{"url", d.url},
            {"contentType", d.content_type},
            {"title", d.title},
            {"products", products.is_array() ? products : json()}};
  }

  json shape(const json& out, const ValidatedParams&) const override {
    const json& products = at(out, {"products"});
    if (!products.is_array()) {
      // hosted.md: the hosted service answers 200 with an error string and bills it; a store
      // without products.json is a page we cannot read.
      throw extraction_failed(
          "the site answered no Shopify products document (is it a Shopify store?)",
          "not a products document at " + str(at(out, {"url"})) + " (" +
              str(at(out, {"contentType"})) + ", title '" + str(at(out, {"title"})) + "')");
    }
    return json{{"products", products}};
  }

  // A page past the last one is Shopify's own empty list: the store said so.
  bool has_content(const json& body) const override { return at(body, {"products"}).is_array(); }
};

}  // namespace

const Endpoint& products_endpoint() {
  return the_endpoint<ProductsEndpoint>();
}

}  // namespace gleaner::extract::shopify
