// GET /scrape/bizdir/place: one business page of yellowpages.com (its `/mip/` pages). place.js
// reads the page's LocalBusiness JSON-LD and what only the markup shows (years in business,
// payment methods, e-mail, photos); this shapes them.

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/yellowpages/directory.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::yellowpages {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// A business page: https://www.yellowpages.com/<city-state>/mip/<name>-<id>.
const Regex& mip_url() {
  static const Regex kUrl(
      R"(https://(?:www\.)?yellowpages\.com(/[a-z0-9-]+/mip/[a-z0-9-]+-(\d+))/?(?:[?#].*)?)");
  return kUrl;
}

const Parameters& place_parameters() {
  static const Parameters params{
      {Param::string("url").required()}, {Rule::custom([](const ValidatedParams& p) {
        if (!mip_url().full_match(*p.string("url"))) {
          throw invalid_parameter("url",
                                  "url must be a business page of yellowpages.com "
                                  "(https://www.yellowpages.com/<city>/mip/<name>-<id>)");
        }
      })}};
  return params;
}

class PlaceEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "bizdir/place"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"place.name",       "place.phone",           "place.address",
            "place.categories", "place.website",         "place.openingHours",
            "place.rating",     "place.yearsInBusiness", "place.paymentMethods"};
  }
  const Parameters& parameters() const override { return place_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    RegexMatch m;
    const std::string url = *p.string("url");
    mip_url().full_match(url, m);
    PageRequest request;
    request.url = "https://www.yellowpages.com" + m[1].str();
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const json& node = at(out, {"business"});
    if (!node.is_object()) {
      throw extraction_failed("could not find the business's data on the page",
                              "no LocalBusiness JSON-LD at " + str(at(out, {"url"})));
    }
    json place = business_from_json_ld(node, at(out, {"nodes"}), "https://www.yellowpages.com");
    RegexMatch m;
    const std::string url = *p.string("url");
    mip_url().full_match(url, m);
    place["link"] = "https://www.yellowpages.com" + m[1].str();
    if (place["categories"].empty() && at(out, {"categories"}).is_array())
      place["categories"] = at(out, {"categories"});
    if (!place.contains("website")) {
      if (std::string w = str(at(out, {"website"})); w.starts_with("http")) place["website"] = w;
    }
    if (std::string e = str(at(out, {"email"})); !e.empty() && !place.contains("email"))
      place["email"] = e;
    if (auto years = parse_number(str(at(out, {"years"})), DecimalMark::Dot)) {
      place["yearsInBusiness"] = static_cast<long long>(*years);
    }
    // "amex, discover, master card, visa, all major credit cards"
    json payments = json::array();
    const std::string payment = str(at(out, {"payment"}));
    for (std::size_t i = 0; i < payment.size();) {
      const std::size_t j = payment.find(',', i);
      std::string item = payment.substr(i, j == std::string::npos ? std::string::npos : j - i);
      item.erase(0, item.find_first_not_of(' '));
      item.erase(item.find_last_not_of(' ') + 1);
      if (!item.empty()) payments.push_back(item);
      if (j == std::string::npos) break;
      i = j + 1;
    }
    if (!payments.empty()) place["paymentMethods"] = payments;
    if (!place.contains("photos") && at(out, {"photos"}).is_array() &&
        !at(out, {"photos"}).empty()) {
      place["photos"] = at(out, {"photos"});
    }
    return {{"place", place}};
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"place", "name"})).empty();
  }
};

}  // namespace

const Endpoint& place_endpoint() {
  return the_endpoint<PlaceEndpoint>();
}

}  // namespace gleaner::extract::yellowpages
