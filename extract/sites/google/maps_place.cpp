// GET /scrape/google-maps/place (hosted.md #8): a place's page on Google Maps, opened by its place
// id as the Maps URLs take it, read by the reader the scraper jobs use for a place's details
// (maps_place.js).
#include <string>

#include "extract/sites/google/google.h"
#include "extract/sites/google/maps/page_rows.h"
#include "extract/sites/google/maps/reader.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

class MapsPlaceEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google-maps/place"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"placeResults.title",  "placeResults.address", "placeResults.gpsCoordinates",
            "placeResults.rating", "placeResults.type",    "placeResults.phone"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = {Param::string("placeId").required().pattern(
          "[A-Za-z0-9_-]{8,512}", "a Google place id such as ChIJywjU6WG_woAR3NrWwrEH_3M")};
      for (Param& s : search_params()) {
        if (s.name() == "hl" || s.name() == "domain") p.push_back(std::move(s));
      }
      return Parameters(std::move(p));
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url(origin(params) + "/maps/place/");
    url.add_raw("q", "place_id:" + params.string("placeId").value_or(""));
    const std::string language = params.string("hl") ? language_tag(*params.string("hl")) : "";
    if (!language.empty()) url.add("hl", language);
    return maps::place_page_request(url.str(), language, maps::MapsOptions().render_patience);
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    auto place = maps::place_result(output, params.string("placeId").value_or(""));
    return place ? json{{"placeResults", std::move(*place)}} : json::object();
  }

  // The page as the server sends it shows no text until its scripts draw the panel; its arrays
  // (APP_INITIALIZATION_STATE[3][6]) already hold the place.
  bool data_without_text(const json& output) const override {
    return output.is_object() && output.contains("appState") && output["appState"].is_string();
  }

  bool has_content(const json& body) const override {
    return body.contains("placeResults") && body["placeResults"].contains("title");
  }
};

}  // namespace

const Endpoint& maps_place_endpoint() {
  return the_endpoint<MapsPlaceEndpoint>();
}

}  // namespace gleaner::extract::google
