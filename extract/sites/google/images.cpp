// GET /scrape/google/images (route search/images): a Google Images results page (hosted.md #5),
// read from the data its tiles are drawn from (images.js).
#include "extract/sites/google/images.h"

#include <string>

#include "extract/sites/common/json_path.h"
#include "extract/sites/google/google.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr long long kPerPage = 100;  // entries of one page's data (the Flowers page: 100)

class ImagesEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "search/images"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"imagesResults[].title", "imagesResults[].link", "imagesResults[].original",
            "imagesResults[].thumbnail", "imagesResults[].source"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = search_params();
      p.push_back(Param::integer("ijn").range(0, 100));
      for (Param& g : page_params({"tbs", "safe", "filter"})) p.push_back(std::move(g));
      p.push_back(device_param());
      return Parameters(std::move(p), {location_rule()});
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url = results_url(params);
    url.add("tbm", "isch");
    if (auto ijn = params.integer("ijn"); ijn && *ijn > 0) url.add("ijn", std::to_string(*ijn));
    add_page_params(url, params);
    PageRequest request;
    request.url = url.str();
    request.profile.device = device_of(params);
    request.wait = WaitFor::load();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_images(output, params.integer("ijn").value_or(0));
  }

  bool has_content(const json& body) const override {
    return body.contains("imagesResults") && !body["imagesResults"].empty();
  }
};

}  // namespace

json shape_images(const json& page, long long ijn) {
  json results = json::array();
  auto it = page.find("images");
  if (it != page.end() && it->is_array()) {
    for (const json& r : *it) {
      const std::string original = str(at(r, {"original"}));
      if (original.empty()) continue;
      json item;
      item["position"] = ijn * kPerPage + static_cast<long long>(results.size()) + 1;
      item["title"] = str(at(r, {"title"}));
      item["link"] = str(at(r, {"link"}));
      item["source"] = str(at(r, {"source"}));
      item["thumbnail"] = str(at(r, {"thumbnail"}));
      item["original"] = original;
      if (r.contains("originalWidth") && r["originalWidth"].is_number_integer()) {
        item["originalWidth"] = r["originalWidth"];
      }
      if (r.contains("originalHeight") && r["originalHeight"].is_number_integer()) {
        item["originalHeight"] = r["originalHeight"];
      }
      results.push_back(std::move(item));
    }
  }
  return json{{"imagesResults", std::move(results)}};
}

const Endpoint& images_endpoint() {
  return the_endpoint<ImagesEndpoint>();
}

}  // namespace gleaner::extract::google
