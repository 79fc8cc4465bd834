// GET /scrape/google-maps/reviews (hosted.md #9): a place's reviews, about ten a page, as its
// reviews pane asks for them. The place's page is opened (by its data id, or its place id as the
// Maps URLs take it) and read by the place reader (maps_place.js) for `placeInfo`; then, on that
// page, maps_reviews.js asks the site's reviews RPC (`/maps/rpc/listugcposts`) for the page, sort
// and language asked, and extract/sites/google/maps/reviews.cpp reads its entries.
#include <string>

#include "core/error.h"
#include "extract/sites/google/google.h"
#include "extract/sites/google/maps/page_rows.h"
#include "extract/sites/google/maps/reader.h"
#include "extract/sites/google/maps/reviews.h"
#include "gleaner_site_endpoints.h"
#include "gleaner_site_scripts.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

constexpr const char* kOrigin = "https://www.google.com";
constexpr int kPerPage = 10;  // hosted.md #9: "about 10 per page"

// The request's `pb` as the pane sends it (the layout gosom/google-maps-scraper sends in 2026 and
// YasogaN/google-maps-review-scraper documents): the place ({dataId}), the page size and token,
// the session ({session}, maps_reviews.js fills both in), and the sort.
std::string rpc_pb(const std::string& token, const std::string& sort) {
  return "!1m6!1s{dataId}!6m4!4m1!1e1!4m1!1e3!2m2!1i" + std::to_string(kPerPage) + "!2s" +
         form_encode(token) +
         "!5m2!1s{session}!7e81!8m9!2b1!3b1!5b1!7b1!12m4!1b1!2b1!4m1!1e1!11m0!13m1!1e" + sort;
}

void refuse_topic(const ValidatedParams& p) {
  if (auto topic = p.string("topicId")) {
    throw invalid_parameter(
        "topicId", "'topicId' value '" + *topic +
                       "' cannot be served: the topic ids come from a topic list no real Maps "
                       "reviews answer available to gleaner shows, nor how a topic is asked for");
  }
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == ';' || s.back() == '\n' || s.back() == ' ')) {
    s.remove_suffix(1);
  }
  return s;
}

class MapsReviewsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google-maps/reviews"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    // Not pagination.nextPageToken: absent on every last page, its absence says nothing.
    return {"placeInfo.title",   "reviews[].reviewId", "reviews[].rating",
            "reviews[].snippet", "reviews[].isoDate",  "reviews[].user"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = {
          Param::string("dataId").pattern(
              "0x[0-9a-fA-F]{1,16}:0x[0-9a-fA-F]{1,16}",
              "a Maps data id such as 0x80c2bf61e9d408cb:0x73ff07b1c2d6dadc"),
          Param::string("placeId").pattern(
              "[A-Za-z0-9_-]{8,512}", "a Google place id such as ChIJywjU6WG_woAR3NrWwrEH_3M")};
      for (Param& s : search_params()) {
        if (s.name() == "hl") p.push_back(std::move(s));
      }
      p.push_back(Param::string("sortBy").one_of(
          {"qualityScore", "newestFirst", "ratingHigh", "ratingLow"}));
      p.push_back(Param::string("topicId").max_length(512));
      p.push_back(Param::string("nextPageToken").max_length(2048));
      return Parameters(std::move(p),
                        {Rule::one_of({"dataId", "placeId"}), Rule::custom(refuse_topic)});
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    const std::string data_id = params.string("dataId").value_or("");
    UrlBuilder url =
        data_id.empty()
            ? UrlBuilder(std::string(kOrigin) + "/maps/place/")
            : UrlBuilder(std::string(kOrigin) + "/maps/place/data=!4m2!3m1!1s" + data_id);
    if (data_id.empty()) url.add_raw("q", "place_id:" + params.string("placeId").value_or(""));
    const std::string language = params.string("hl") ? language_tag(*params.string("hl")) : "";
    if (!language.empty()) url.add("hl", language);
    UrlBuilder rpc(std::string(kOrigin) + "/maps/rpc/listugcposts");
    rpc.add("authuser", "0");
    if (!language.empty()) rpc.add("hl", language);
    PageRequest request =
        maps::place_page_request(url.str(), language, maps::MapsOptions().render_patience);
    request.script_args = {
        {"dataId", data_id},
        {"rpc", rpc.str() + "&pb="},
        {"pb", rpc_pb(params.string("nextPageToken").value_or(""),
                      maps::sort_code(params.string("sortBy").value_or("qualityScore")))}};
    return request;
  }

  // maps_reviews.js called with the place reader (maps_place.js), both run on the place's page.
  std::string_view script() const override {
    static const std::string composed =
        "async (args, kit) => (\n" + std::string(trimmed(scripts::google_maps_reviews_js)) +
        "\n)(args, kit, (\n" + std::string(trimmed(scripts::google_maps_place_js)) + "\n))";
    return composed;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    json body = json::object();
    if (!output.is_object()) return body;
    const int status = output.value("status", 0);
    if (output.value("blocked", false) || status == 429 || status == 403) {
      throw Error(ErrorCode::UpstreamBlocked,
                  "Google Maps refused the reviews" +
                      (status ? " (HTTP " + std::to_string(status) + ")" : std::string()));
    }
    if (status >= 400) {
      throw Error(ErrorCode::UpstreamError,
                  "Google Maps failed to answer the reviews (HTTP " + std::to_string(status) + ")");
    }
    if (auto place = maps::place_result(output.value("place", json::object()),
                                        params.string("placeId").value_or(""))) {
      json info = json::object();
      for (const char* key : {"title", "address", "rating", "reviews", "gpsCoordinates"}) {
        if (place->contains(key)) info[key] = (*place)[key];
      }
      body["placeInfo"] = std::move(info);
    }
    if (!output.value("answer", false)) return body;
    json reviews = json::array();
    const json entries = output.value("entries", json::array());
    for (const json& entry : entries) {
      if (auto review = maps::review_from_entry(entry)) reviews.push_back(std::move(*review));
    }
    // Entries of which none reads as a review: a layout the reader does not know, not a page
    // without reviews.
    if (!entries.empty() && reviews.empty()) return body;
    body["reviews"] = std::move(reviews);
    json pagination = json::object();
    if (output.contains("nextPageToken") && output["nextPageToken"].is_string()) {
      pagination["nextPageToken"] = output["nextPageToken"];
    }
    body["pagination"] = std::move(pagination);
    return body;
  }

  bool has_content(const json& body) const override {
    // An answer of the RPC: reviews, or none on a page past the last (or of a place without any)
    // when the place itself was read.
    const auto it = body.find("reviews");
    return it != body.end() && (!it->empty() || body.contains("placeInfo"));
  }
};

}  // namespace

const Endpoint& maps_reviews_endpoint() {
  return the_endpoint<MapsReviewsEndpoint>();
}

}  // namespace gleaner::extract::google
