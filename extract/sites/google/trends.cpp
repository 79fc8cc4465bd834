// GET /scrape/google-trends/search (also /scrape/google/trends): Google Trends (hosted.md #18),
// read from the site's own JSON API as its explore page reads it: the explore call names the
// widgets with their request and token, one widget call gives the data of the `dataType` asked.
// Both are documents (Endpoint::reads_document()): on the plain road when it answers them (the
// widget call with the cookies the explore answer set), else in the browser, where the page
// fetches the widget's data from its origin; read_document() reads them on either.
#include "extract/sites/google/trends.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.h"
#include "extract/document.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr const char* kOrigin = "https://trends.google.com";
constexpr const char* kLocale = "en-US";  // hosted.md #18 takes no language: the site's default
constexpr std::size_t kMaxTerms = 5;

void check_terms(const ValidatedParams& p) {
  const std::vector<std::string> terms = trends_terms(*p.string("q"));
  if (terms.empty()) throw invalid_parameter("q", "'q' names no search term");
  if (terms.size() > kMaxTerms) {
    throw invalid_parameter("q", "'q' compares at most 5 comma-separated terms");
  }
  const std::string type = p.string("dataType").value_or("timeseries");
  if (terms.size() > 1 && (type == "relatedTopics" || type == "relatedQueries")) {
    throw invalid_parameter("q", "dataType=" + type + " takes one term in 'q'");
  }
  if (p.string("region") && type != "geoMap") {
    throw invalid_parameter("region", "'region' is for dataType=geoMap only");
  }
}

// The widget data's list of values for the terms, in their order.
json values_of(const json& row, const std::vector<std::string>& terms) {
  json out = json::array();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    json v{{"query", terms[i]}};
    const json& formatted = at(row, {"formattedValue", static_cast<int>(i)});
    const json& value = at(row, {"value", static_cast<int>(i)});
    const json& has = at(row, {"hasData", static_cast<int>(i)});
    if (formatted.is_string()) v["value"] = formatted;
    if (value.is_number()) v["extractedValue"] = value;
    if (has.is_boolean()) v["hasData"] = has;
    out.push_back(std::move(v));
  }
  return out;
}

json ranked(const json& list, bool topics) {
  json out = json::array();
  for (const json& k : at(list, {"rankedKeyword"})) {
    json item = json::object();
    if (topics) {
      const json topic = k.value("topic", json::object());
      item["topic"] = {{"value", str(at(topic, {"mid"}))},
                       {"title", str(at(topic, {"title"}))},
                       {"type", str(at(topic, {"type"}))}};
    } else {
      item["query"] = str(at(k, {"query"}));
    }
    if (k.contains("formattedValue")) item["value"] = k["formattedValue"];
    if (k.contains("value") && k["value"].is_number()) item["extractedValue"] = k["value"];
    const std::string link = str(at(k, {"link"}));
    if (!link.empty()) item["link"] = absolute_url(kOrigin, link);
    out.push_back(std::move(item));
  }
  return out;
}

// dataType → the widget of the explore answer that holds its data, and the path of its data.
struct Widget {
  std::vector<std::string> ids;
  const char* path;
};

const Widget& widget_of(const std::string& data_type) {
  static const Widget kTimeseries{{"TIMESERIES"}, "multiline"};
  static const Widget kGeoMap{{"GEO_MAP", "GEO_MAP_0"}, "comparedgeo"};
  static const Widget kTopics{{"RELATED_TOPICS", "RELATED_TOPICS_0"}, "relatedsearches"};
  static const Widget kQueries{{"RELATED_QUERIES", "RELATED_QUERIES_0"}, "relatedsearches"};
  if (data_type == "geoMap") return kGeoMap;
  if (data_type == "relatedTopics") return kTopics;
  if (data_type == "relatedQueries") return kQueries;
  return kTimeseries;
}

class TrendsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google-trends/search"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"interestOverTime.timelineData", "interestByRegion", "relatedTopics.top",
            "relatedQueries.top"};
  }

  const Parameters& parameters() const override {
    static const Parameters params{
        {Param::string("q").required().max_length(512),
         Param::string("geo").pattern("[A-Za-z]{2}(-[A-Za-z0-9]{1,3}(-[0-9]{3})?)?",
                                      "a country or subdivision code as US, US-CA or US-AL-630"),
         Param::string("region").one_of({"country", "region", "dma", "city"}),
         Param::string("dataType")
             .one_of({"timeseries", "geoMap", "relatedTopics", "relatedQueries"}),
         Param::integer("tz").range(-1439, 1439),
         Param::string("cat").pattern("[0-9]{1,4}", "a category id (digits; 0 is all)"),
         Param::string("gprop").one_of({"images", "news", "froogle", "youtube"}),
         Param::string("date").pattern(
             "now (1|4)-H|now (1|7)-d|today (1|3|12)-m|today 5-y|all|"
             "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{4}-[0-9]{2}-[0-9]{2}|"
             "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2} [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}",
             "a Trends time range as today 12-m, now 7-d, all or 2021-01-01 2021-12-31")},
        {Rule::custom(check_terms)}};
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    const std::string date = params.string("date").value_or("today 12-m");
    const std::string geo = site_json::ascii_upper(params.string("geo").value_or(""));
    json comparison = json::array();
    for (const std::string& term : trends_terms(*params.string("q"))) {
      comparison.push_back({{"keyword", term}, {"time", date}, {"geo", geo}});
    }
    const json req{{"comparisonItem", comparison},
                   {"category", std::stoi(params.string("cat").value_or("0"))},
                   {"property", params.string("gprop").value_or("")}};
    const long long tz = params.integer("tz").value_or(420);
    UrlBuilder url(std::string(kOrigin) + "/trends/api/explore");
    url.add("hl", kLocale);
    url.add("tz", std::to_string(tz));
    url.add("req", req.dump());
    PageRequest request;
    request.url = url.str();
    request.wait = WaitFor::load();
    const std::string resolution = site_json::ascii_upper(params.string("region").value_or(""));
    request.script_args = {{"dataType", params.string("dataType").value_or("timeseries")},
                           {"hl", kLocale},
                           {"tz", std::to_string(tz)},
                           {"resolution", resolution}};
    return request;
  }

  bool reads_document() const override { return true; }

  // The explore answer's widgets; then the data of the one widget `dataType` needs, asked for as
  // the explore page asks (`/trends/api/widgetdata/<path>?hl=&tz=&req=<its request>&token=`, its
  // request's keys in the site's order) from the same origin. Both answers start with Google's
  // `)]}'` guard. {explore: {widgets: [ids]}, widget: {id, url}, status, data} for shape_trends().
  json read_document(const Document& document, const PageRequest& request, DocumentRoad& road,
                     Deadline deadline) const override {
    const auto explore = json_of_document<nlohmann::ordered_json>(document.text);
    if (!explore.is_object() || !explore.contains("widgets") || !explore["widgets"].is_array()) {
      return {{"explore", nullptr}};
    }
    const json& args = request.script_args;
    const Widget& wanted = widget_of(str(at(args, {"dataType"})));
    json ids = json::array();
    const nlohmann::ordered_json* widget = nullptr;
    for (const auto& w : explore["widgets"]) {
      const std::string id = w.is_object() && w.contains("id") && w["id"].is_string()
                                 ? w["id"].get<std::string>()
                                 : std::string();
      ids.push_back(w.is_object() && w.contains("id") ? json::parse(w["id"].dump()) : json());
      if (!widget && std::find(wanted.ids.begin(), wanted.ids.end(), id) != wanted.ids.end()) {
        widget = &w;
      }
    }
    json out{{"explore", {{"widgets", ids}}}, {"widget", nullptr}, {"data", nullptr}};
    if (!widget) return out;
    nlohmann::ordered_json widget_request = nlohmann::ordered_json::object();
    if (widget->contains("request") && (*widget)["request"].is_object()) {
      widget_request = (*widget)["request"];
    }
    if (const std::string resolution = str(at(args, {"resolution"})); !resolution.empty()) {
      widget_request["resolution"] = resolution;
    }
    const std::string token = widget->contains("token") && (*widget)["token"].is_string()
                                  ? (*widget)["token"].get<std::string>()
                                  : std::string();
    // Every character but the unreserved ones escaped: what the page's encodeURIComponent
    // sends, but for !*'() (escaped here, the same to the server).
    const std::string url =
        std::string(kOrigin) + "/trends/api/widgetdata/" + wanted.path +
        "?hl=" + path_encode(str(at(args, {"hl"}))) + "&tz=" + path_encode(str(at(args, {"tz"}))) +
        "&req=" + path_encode(widget_request.dump()) + "&token=" + path_encode(token);
    out["widget"] = {{"id", (*widget)["id"].get<std::string>()}, {"url", url}};
    const Document data = road.get(url, DocumentRoad::Load::Fetch, DocumentRoad::Media::Json, deadline);
    out["status"] = data.status;
    const json parsed = json_of_document(data.text);
    out["data"] = parsed.is_object() && parsed.contains("default") ? parsed["default"] : json();
    return out;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_trends(output, params.string("dataType").value_or("timeseries"),
                        trends_terms(*params.string("q")));
  }

  bool has_content(const json& body) const override {
    for (const char* key :
         {"interestOverTime", "interestByRegion", "relatedTopics", "relatedQueries"}) {
      if (body.contains(key)) return true;
    }
    return false;
  }
};

}  // namespace

std::vector<std::string> trends_terms(const std::string& q) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= q.size()) {
    const std::size_t comma = q.find(',', from);
    const std::string term = collapse_whitespace(
        q.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (!term.empty()) out.push_back(term);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

json shape_trends(const json& page, const std::string& data_type,
                  const std::vector<std::string>& terms) {
  json body = json::object();
  if (!page.is_object() || !page.contains("explore") || !page["explore"].is_object()) return body;
  // The widget data answered with a refusal: Google Trends' rate limit (its usual answer, 429).
  const int status = page.value("status", 200);
  if (status == 429 || status == 403) {
    throw Error(ErrorCode::UpstreamBlocked,
                "Google Trends refused the widget data (HTTP " + std::to_string(status) + ")");
  }
  if (status >= 400) {
    throw Error(ErrorCode::UpstreamError, "Google Trends failed to answer the widget data (HTTP " +
                                              std::to_string(status) + ")");
  }
  const json& data = at(page, {"data"});
  // No widget for the terms (too rare to chart), or no rows: the site's own empty answer.
  if (data_type == "timeseries") {
    json timeline = json::array();
    for (const json& row : at(data, {"timelineData"})) {
      json point{{"date", str(at(row, {"formattedTime"}))}, {"timestamp", str(at(row, {"time"}))}};
      if (row.value("isPartial", false)) point["isPartial"] = true;
      point["values"] = values_of(row, terms);
      timeline.push_back(std::move(point));
    }
    json over_time{{"timelineData", std::move(timeline)}};
    const json& averages = at(data, {"averages"});
    if (!averages.empty()) {
      json out = json::array();
      for (std::size_t i = 0; i < terms.size() && i < averages.size(); ++i) {
        out.push_back({{"query", terms[i]}, {"value", averages[i]}});
      }
      over_time["averages"] = std::move(out);
    }
    body["interestOverTime"] = std::move(over_time);
  } else if (data_type == "geoMap") {
    json regions = json::array();
    for (const json& row : at(data, {"geoMapData"})) {
      json region{{"location", str(at(row, {"geoName"}))}, {"geo", str(at(row, {"geoCode"}))}};
      json values = values_of(row, terms);
      for (const char* key : {"value", "extractedValue", "hasData"}) {
        if (!values.empty() && values[0].contains(key)) region[key] = values[0][key];
      }
      if (terms.size() > 1) region["values"] = std::move(values);
      regions.push_back(std::move(region));
    }
    body["interestByRegion"] = std::move(regions);
  } else {
    const bool topics = data_type == "relatedTopics";
    const json& lists = at(data, {"rankedList"});
    body[topics ? "relatedTopics" : "relatedQueries"] = {
        {"top", ranked(at(lists, {0}), topics)}, {"rising", ranked(at(lists, {1}), topics)}};
  }
  return body;
}

const Endpoint& trends_endpoint() {
  return the_endpoint<TrendsEndpoint>();
}

}  // namespace gleaner::extract::google
