// GET /scrape/shop/collections: a Shopify store's collections, from the store's own
// `/collections.json?limit=&page=` (every Shopify store serves it, on its own domain).
// The page is a document: read on the plain road when it answers it, else in the browser
// (Endpoint::reads_document()); read_document() reads its JSON on either, shape() shapes it.

#include "core/error.h"
#include "extract/content/snapshot.h"
#include "extract/content/tree_text.h"
#include "extract/document.h"
#include "extract/html/document.h"
#include "extract/plain/snapshot.h"
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

const Parameters& collections_parameters() {
  static const Parameters params{
      {Param::string("url").required(), Param::integer("limit").range(1, 250).default_value(30),
       Param::integer("page").range(1, 10000).default_value(1)},
      // Any host (Shopify runs on its merchants' own domains), but never one the address guard
      // refuses: no private address, no localhost, only http(s).
      {Rule::custom([](const ValidatedParams& p) { origin_of(*p.string("url")); })}};
  return params;
}

// A collection's description HTML as the text a person reads: parsed as a browser parses it
// (every HTML entity, comments, scripts and hidden elements out), laid out as the plain road lays
// out a page's text (a block on a line of its own, an inline element running on in its line:
// "<strong>Green Fiber</strong>, care" reads "Green Fiber, care"), then on one line.
std::string plain_text(const std::string& markup, const std::string& base_url) {
  if (markup.empty()) return "";
  const html::Document doc = html::Document::parse(markup);
  content::SnapshotParts parts;
  parts.tree = true;
  const json snapshot = plain::snapshot_of(doc, markup, base_url, parts, plain::TreeFilter{});
  return collapse_whitespace(content::tree_text(at(snapshot, {"tree"})));
}

class CollectionsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "shop/collections"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"collections[].id",          "collections[].title", "collections[].handle",
            "collections[].description", "collections[].image", "collections[].productsCount",
            "pagination.currentPage"};
  }
  const Parameters& parameters() const override { return collections_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    PageRequest request;
    request.url = UrlBuilder(origin_of(*p.string("url")) + "/collections.json")
                      .add("limit", std::to_string(p.integer("limit").value_or(30)))
                      .add("page", std::to_string(p.integer("page").value_or(1)))
                      .str();
    request.profile.run_scripts = false;  // a JSON document: nothing of the store's to run
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  bool reads_document() const override { return true; }

  // The document's JSON, and what the document was when it is not JSON (a store's HTML page, a
  // password page).
  json read_document(const Document& d, const PageRequest&, DocumentRoad&,
                     Deadline) const override {
    json doc = json_of_document(d.text);
    const bool is_json = !doc.is_discarded();
    return {{"url", d.url},
            {"contentType", d.content_type},
            {"title", d.title},
            {"json", is_json ? std::move(doc) : json()},
            {"isJson", is_json}};
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const json& doc = at(out, {"json"});
    if (!doc.is_object() || !at(doc, {"collections"}).is_array()) {
      throw Error(ErrorCode::NotFound,
                  "the site is not a Shopify store (it has no /collections.json)",
                  "not a collections document at " + str(at(out, {"url"})) + " (" +
                      str(at(out, {"contentType"})) + ", title '" + str(at(out, {"title"})) + "')");
    }
    const std::string origin = origin_of(*p.string("url"));
    const long long page = p.integer("page").value_or(1);
    const long long limit = p.integer("limit").value_or(30);
    json collections = json::array();
    long long position = (page - 1) * limit;
    for (const json& c : at(doc, {"collections"})) {
      json col = json::object();
      col["position"] = ++position;
      col["id"] = at(c, {"id"});
      col["title"] = str(at(c, {"title"}));
      col["handle"] = str(at(c, {"handle"}));
      col["link"] = origin + "/collections/" + path_encode(str(at(c, {"handle"})));
      const std::string html = str(at(c, {"description"}));
      col["description"] = plain_text(html, origin);
      if (!html.empty()) col["descriptionHtml"] = html;
      if (const json& img = at(c, {"image"}); img.is_object()) {
        json image = {{"src", str(at(img, {"src"}))}};
        if (std::string alt = str(at(img, {"alt"})); !alt.empty()) image["alt"] = alt;
        for (const char* k : {"width", "height"}) {
          if (at(img, {k}).is_number()) image[k] = at(img, {k});
        }
        col["image"] = image;
      }
      if (const json& n = at(c, {"products_count"}); n.is_number()) col["productsCount"] = n;
      if (std::string d = str(at(c, {"published_at"})); !d.empty()) col["publishedAt"] = d;
      if (std::string d = str(at(c, {"updated_at"})); !d.empty()) col["updatedAt"] = d;
      collections.push_back(col);
    }
    json pagination = {{"currentPage", page}, {"limit", limit}};
    // A full page may have a next one; a short page is the last.
    if (static_cast<long long>(collections.size()) == limit) pagination["nextPage"] = page + 1;
    return {{"collections", collections}, {"pagination", pagination}};
  }

  bool has_content(const json& body) const override { return at(body, {"collections"}).is_array(); }

  EndpointResult fetch(const ValidatedParams& params, TabSource& tabs,
                       Deadline deadline) const override {
    try {
      return Endpoint::fetch(params, tabs, deadline);
    } catch (const Error& e) {
      // What the store's answer means here: no such document, or one the store keeps closed.
      if (e.code() == ErrorCode::NotFound) {
        throw Error(ErrorCode::NotFound,
                    "the site is not a Shopify store (it has no /collections.json)", e.detail());
      }
      if (e.code() == ErrorCode::UpstreamBlocked && e.detail().starts_with("status ")) {
        throw Error(ErrorCode::UpstreamBlocked,
                    "the store keeps its collections closed (" + e.detail() + ")", e.detail());
      }
      throw;
    }
  }
};

}  // namespace

const Endpoint& collections_endpoint() {
  return the_endpoint<CollectionsEndpoint>();
}

}  // namespace gleaner::extract::shopify
