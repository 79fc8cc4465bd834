// GET /scrape/google/ai-mode (hosted.md #11): the answer Google's AI Mode gives to `q`. The page is
// the results page asked with `udm=50`, Google's own link for its "AI Mode" tab; the answer is
// drawn in the AI Overview's markup (one `[data-subtree="aimc"]` per turn, the answer's blocks in
// its main column, its sources in the right column), which serp.js already reads, so this endpoint
// registers serp.js as its script (CMakeLists.txt) and shapes the first turn: the answer to `q`.
//
// Not served: the catalog's `continuable` and `subsequentRequestToken` (continuing a thread):
// the one real AI Mode capture shows a signed-in thread, not what a follow-up request sends.
#include "extract/sites/google/ai_mode.h"

#include "extract/sites/google/google.h"
#include "extract/sites/google/serp.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

// The answer's main column inside its subtree: there once AI Mode has drawn the answer (the
// served page fills it while the answer streams in).
constexpr std::string_view kAnswerDrawn = "[data-subtree=\"aimc\"] [data-container-id=\"main-col\"]";
// How long the answer may take to appear after the page has loaded.
constexpr Millis kAnswerPatience{10000};

class AiModeEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google/ai-mode"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"textBlocks[].type", "textBlocks[].snippet", "references[].title",
            "references[].link"};
  }

  const Parameters& parameters() const override {
    static const Parameters params(google::search_params(), {google::location_rule()});
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url = google::results_url(params);
    url.add("udm", "50");
    PageRequest request;
    request.url = url.str();
    request.wait = WaitFor::selector_of(std::string(kAnswerDrawn), kAnswerPatience);
    return request;
  }

  json shape(const json& output, const ValidatedParams&) const override {
    return shape_ai_mode(output);
  }

  // The answer tells the page apart (an AI Mode page has no organic results).
  bool page_recognized(const json& output) const override {
    return output.is_object() && output.contains("aiOverview") && output["aiOverview"].is_object();
  }

  bool has_content(const json& body) const override {
    return body.contains("textBlocks") && !body["textBlocks"].empty();
  }
};

}  // namespace

json shape_ai_mode(const json& page) {
  if (auto answer = shape_ai_answer(page)) return std::move(*answer);
  return json{{"textBlocks", json::array()}, {"references", json::array()}};
}

const Endpoint& ai_mode_endpoint() {
  return the_endpoint<AiModeEndpoint>();
}

}  // namespace gleaner::extract::google
