#include "extract/sites/google/events.h"

#include "core/error.h"
#include "core/regex.h"
#include "extract/page_reader.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/google.h"
#include "extract/url.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

// The filters api.md lists for htichips.
const std::vector<std::string> kChips = {"date:today",      "date:tomorrow",           "date:week",
                                         "date:weekend",    "date:next_week",          "date:month",
                                         "date:next_month", "event_type:Virtual-Event"};

// Results the listing shows per page (start goes 0, 10, 20).
constexpr long long kPageSize = 10;

std::string text_of(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "Sat, Apr 22, 8 – 11 PM", "Tomorrow, 7 PM", "Apr 22 – 24": a line saying when.
bool says_when(const std::string& line) {
  static const Regex when(
      "\\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\b"
      "|\\b(today|tomorrow|tonight)\\b|\\b\\d{1,2}(:\\d{2})?\\s?(AM|PM|am|pm)\\b",
      {.ignore_case = true});
  return when.search(line);
}

// The day part of a when-line: "Sat, Apr 22" of "Sat, Apr 22, 8 – 11 PM".
std::string start_date_of(const std::string& when) {
  static const Regex day(
      "((Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\\s+)?"
      "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?\\s+\\d{1,2}"
      "|^(Today|Tomorrow|Tonight)\\b",
      {.ignore_case = true});
  RegexMatch m;
  if (day.search(when, m)) return m.str(0);
  return {};
}

class EventsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "search/events"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"eventsResults[].title", "eventsResults[].date",      "eventsResults[].address",
            "eventsResults[].link",  "eventsResults[].thumbnail", "eventsResults[].ticketInfo",
            "pagination.start"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = google::search_params();
      p.push_back(Param::integer("start").range(0, 1000).multiple_of(kPageSize));
      p.push_back(Param::string("htichips").items(',', kChips));
      return Parameters(std::move(p), {google::location_rule()});
    }();
    return params;
  }

  // The events listing, as Google's own "Events" link opens it.
  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url(google::origin(params) + "/search");
    url.add("q", *params.string("q"));
    url.add_raw("ibp", "htl;events");
    google::add_locale(url, params);
    const long long start = params.integer("start").value_or(0);
    if (start > 0) url.add("start", std::to_string(start));
    if (auto chips = params.string("htichips")) url.add_raw("htichips", *chips);
    PageRequest request;
    request.url = url.str();
    request.wait = WaitFor::load();
    request.script_args = {{"start", start}};
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_events(output, params.integer("start").value_or(0));
  }

  bool has_content(const json& body) const override {
    return body.contains("eventsResults") && !body["eventsResults"].empty();
  }

  // The listing first; where it is not served (no listing, or no event on it), the plain results
  // page and its events block. A real results page without events is 404 (nothing to charge for);
  // a page that is neither is one we cannot read (502 extraction_failed).
  EndpointResult fetch(const ValidatedParams& params, TabSource& tabs,
                       Deadline deadline) const override {
    const PageRequest listing = build_request(params);
    std::unique_ptr<Tab> tab = tabs.open(listing.profile, deadline);
    try {
      return read_step(*this, *tab, listing, params, deadline);
    } catch (const Error& e) {
      // No listing, or one without an event we can read: the results page's block.
      if (e.code() != ErrorCode::NotFound && e.code() != ErrorCode::ExtractionFailed) throw;
    }

    PageRequest results = listing;
    results.url = google::results_url(params).str();
    PageReading reading = read_page(*tab, results, script(), deadline);
    json body = shape(reading.data, params);
    if (has_content(body)) return {std::move(body), reading.navigation.url};
    if (reading.data.is_object() && reading.data.value("resultsPage", false)) {
      throw Error(ErrorCode::NotFound, "no events were found for this search",
                  "neither the events listing nor the results page at " + reading.navigation.url +
                      " shows an event");
    }
    throw extraction_failed("could not find a results page",
                            "no results page at " + reading.navigation.url);
  }
};

}  // namespace

json shape_events(const json& page, long long start) {
  json body = json::object();
  json events = json::array();
  const bool from_listing = page.is_object() && text_of(page, "source") == "listing";
  if (page.is_object() && page.contains("events") && page["events"].is_array()) {
    for (const auto& e : page["events"]) {
      const std::string title = text_of(e, "title");
      if (title.empty()) continue;
      json item;
      item["position"] = start + static_cast<long long>(events.size()) + 1;
      item["title"] = title;
      json address = json::array();
      std::string when;
      for (const auto& l : e.value("lines", json::array())) {
        if (!l.is_string()) continue;
        const std::string line = collapse_whitespace(l.get<std::string>());
        if (when.empty() && says_when(line)) {
          when = line;
        } else if (!line.empty()) {
          address.push_back(line);
        }
      }
      if (!when.empty()) {
        json date{{"when", when}};
        const std::string day = start_date_of(when);
        if (!day.empty()) date["startDate"] = day;
        item["date"] = std::move(date);
      }
      if (!address.empty()) item["address"] = std::move(address);
      const std::string link = text_of(e, "link");
      if (!link.empty()) item["link"] = link;
      const std::string thumbnail = text_of(e, "thumbnail");
      if (!thumbnail.empty()) item["thumbnail"] = thumbnail;
      json tickets = json::array();
      for (const auto& t : e.value("tickets", json::array())) {
        if (!text_of(t, "source").empty()) {
          tickets.push_back({{"source", text_of(t, "source")}, {"link", text_of(t, "link")}});
        }
      }
      if (!tickets.empty()) item["ticketInfo"] = std::move(tickets);
      events.push_back(std::move(item));
    }
  }
  const auto count = static_cast<long long>(events.size());
  body["eventsResults"] = std::move(events);
  json pagination{{"start", start}};
  // Only the listing pages by `start`, ten at a time; a full page means there may be more.
  if (from_listing && count >= kPageSize) pagination["next"] = start + kPageSize;
  body["pagination"] = std::move(pagination);
  return body;
}

const Endpoint& events_endpoint() {
  return the_endpoint<EventsEndpoint>();
}

}  // namespace gleaner::extract::google
