// GET /scrape/search/events without a browser: parameters, the listing URL, the fallback to the
// results page, and the shaping of events.js output. No real page of the events listing (nor a
// results page with an events block) is among the fixtures, so the script output here is written
// by hand in events.js's own output format ({title, lines, link, ...}), not copied from a site.
#include "extract/sites/google/events.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "tests/support/sites/fake_tab.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

using testing::error_of;
using testing::FakeTabs;
using testing::refused;
using testing::rejection;

const Endpoint& events() {
  return events_endpoint();
}

std::string url_for(const QueryParams& query) {
  return events().build_request(events().validate(query)).url;
}

nlohmann::json card(const std::string& title, std::vector<std::string> lines) {
  return {{"title", title},
          {"lines", lines},
          {"link", "https://www.google.com/search?q=x&ibp=htl;events#htidocid=1"},
          {"thumbnail", ""},
          {"tickets", nlohmann::json::array()}};
}

nlohmann::json script_output(const std::string& source, nlohmann::json cards, bool results_page) {
  return {{"source", source},
          {"events", std::move(cards)},
          {"resultsPage", results_page},
          {"onListing", source == "listing"}};
}

TEST(Events, IsRegistered) {
  EXPECT_EQ(find_endpoint("/scrape/search/events"), &events());
  EXPECT_EQ(events().route(), "search/events");
}

TEST(Events, ValidationNamesTheParameter) {
  const auto invalid = ErrorCode::InvalidParameter;
  EXPECT_EQ(rejection(events(), {{"htichips", "date:today"}}),
            refused(ErrorCode::MissingParameter, "q"));
  EXPECT_EQ(rejection(events(), {{"q", "concerts"}, {"start", "5"}}), refused(invalid, "start"));
  EXPECT_EQ(rejection(events(), {{"q", "concerts"}, {"start", "ten"}}), refused(invalid, "start"));
  EXPECT_EQ(rejection(events(), {{"q", "concerts"}, {"htichips", "date:year"}}),
            refused(invalid, "htichips"));
  EXPECT_EQ(rejection(events(), {{"q", "concerts"}, {"htichips", "date:today,,date:week"}}),
            refused(invalid, "htichips"));
  EXPECT_EQ(rejection(events(), {{"q", "concerts"}, {"gl", "usa"}}), refused(invalid, "gl"));
  EXPECT_EQ(rejection(events(), {{"q", "concerts"},
                                 {"location", "Austin,Texas,United States"},
                                 {"uule", "w+CAIQICI"}}),
            refused(ErrorCode::ConflictingParameters, "uule"));
  // deviceType belongs to serp, not to events.
  EXPECT_EQ(rejection(events(), {{"q", "concerts"}, {"deviceType", "mobile"}}),
            refused(invalid, "deviceType"));
}

TEST(Events, ListingUrlForEachParameter) {
  EXPECT_EQ(url_for({{"q", "concerts in austin"}}),
            "https://www.google.com/search?q=concerts+in+austin&ibp=htl;events");
  EXPECT_EQ(url_for({{"q", "concerts"}, {"start", "10"}}),
            "https://www.google.com/search?q=concerts&ibp=htl;events&start=10");
  EXPECT_EQ(url_for({{"q", "concerts"}, {"htichips", "date:today,event_type:Virtual-Event"}}),
            "https://www.google.com/search?q=concerts&ibp=htl;events"
            "&htichips=date:today,event_type:Virtual-Event");
  EXPECT_EQ(url_for({{"q", "jazz"},
                     {"domain", "google.co.uk"},
                     {"gl", "gb"},
                     {"hl", "en"},
                     {"location", "Paris"},
                     {"start", "20"},
                     {"htichips", "date:weekend"}}),
            "https://www.google.co.uk/search?q=jazz&ibp=htl;events&gl=gb&hl=en"
            "&uule=w%2BCAIQICIFUGFyaXM&start=20&htichips=date:weekend");
}

TEST(EventsShape, DateAddressTicketsAndPositions) {
  auto out = script_output(
      "listing",
      {card("Austin City Limits Music Festival",
            {"Fri, Oct 6 – Sun, Oct 15", "Zilker Metropolitan Park",
             "2100 Barton Springs Rd, Austin, TX"}),
       card("Jazz Night", {"Tomorrow, 8 – 11 PM", "Elephant Room, 315 Congress Ave, Austin, TX"})},
      true);
  out["events"][0]["tickets"] = {
      {{"source", "Ticketmaster"}, {"link", "https://www.ticketmaster.com/e/1"}}};
  auto body = shape_events(out, 20);
  const auto& list = body["eventsResults"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["position"], 21);
  EXPECT_EQ(list[0]["date"]["when"], "Fri, Oct 6 – Sun, Oct 15");
  EXPECT_EQ(list[0]["date"]["startDate"], "Fri, Oct 6");
  EXPECT_EQ(list[0]["address"],
            (nlohmann::json{"Zilker Metropolitan Park", "2100 Barton Springs Rd, Austin, TX"}));
  EXPECT_EQ(list[0]["ticketInfo"][0]["source"], "Ticketmaster");
  EXPECT_EQ(list[1]["date"]["startDate"], "Tomorrow");
  EXPECT_EQ(list[1]["address"][0], "Elephant Room, 315 Congress Ave, Austin, TX");
  EXPECT_FALSE(list[1].contains("thumbnail"));
  EXPECT_EQ(body["pagination"]["start"], 20);
  EXPECT_FALSE(body["pagination"].contains("next"));  // fewer than a full page
}

TEST(EventsShape, FullListingPageHasNext) {
  nlohmann::json cards = nlohmann::json::array();
  for (int i = 0; i < 10; ++i) cards.push_back(card("Event " + std::to_string(i), {"Sat, Apr 22"}));
  EXPECT_EQ(shape_events(script_output("listing", cards, true), 0)["pagination"]["next"], 10);
  // The results page's block does not page.
  EXPECT_FALSE(
      shape_events(script_output("resultsBlock", cards, true), 0)["pagination"].contains("next"));
}

TEST(EventsFlow, ListingServed) {
  FakeTabs tabs;
  tabs.serve("https://www.google.com/search?q=concerts&ibp=htl;events",
             script_output("listing", {card("Jazz Night", {"Sat, Apr 22, 8 PM"})}, true));
  auto result =
      events().fetch(events().validate({{"q", "concerts"}}), tabs, deadline_in(Millis(1000)));
  EXPECT_EQ(result.body["eventsResults"][0]["title"], "Jazz Night");
  EXPECT_EQ(tabs.loaded,
            (std::vector<std::string>{"https://www.google.com/search?q=concerts&ibp=htl;events"}));
}

TEST(EventsFlow, ListingNotServedFallsBackToTheResultsPageBlock) {
  FakeTabs tabs;
  tabs.serve("https://www.google.com/search?q=concerts&ibp=htl;events&gl=us",
             script_output("", nlohmann::json::array(), true));
  tabs.serve("https://www.google.com/search?q=concerts&gl=us",
             script_output("resultsBlock", {card("Jazz Night", {"Sat, Apr 22"})}, true));
  auto result = events().fetch(events().validate({{"q", "concerts"}, {"gl", "us"}}), tabs,
                               deadline_in(Millis(1000)));
  EXPECT_EQ(result.url, "https://www.google.com/search?q=concerts&gl=us");
  EXPECT_EQ(result.body["eventsResults"][0]["date"]["startDate"], "Sat, Apr 22");
  EXPECT_EQ(tabs.loaded.size(), 2u);
}

TEST(EventsFlow, MissingListingAlsoFallsBack) {
  FakeTabs tabs;  // the listing URL is not served at all (404)
  tabs.serve("https://www.google.com/search?q=concerts",
             script_output("resultsBlock", {card("Jazz Night", {"Sat, Apr 22"})}, true));
  auto result =
      events().fetch(events().validate({{"q", "concerts"}}), tabs, deadline_in(Millis(1000)));
  EXPECT_EQ(result.body["eventsResults"].size(), 1u);
}

TEST(EventsFlow, NoEventAnywhereIsNotFoundAndAShellIsBlocked) {
  FakeTabs tabs;
  tabs.serve("https://www.google.com/search?q=zzqq&ibp=htl;events",
             script_output("", nlohmann::json::array(), true));
  tabs.serve("https://www.google.com/search?q=zzqq",
             script_output("", nlohmann::json::array(), true));
  EXPECT_EQ(error_of([&] {
              events().fetch(events().validate({{"q", "zzqq"}}), tabs, deadline_in(Millis(1000)));
            }).code(),
            ErrorCode::NotFound);

  FakeTabs shells;
  shells.serve("https://www.google.com/search?q=zzqq&ibp=htl;events",
               script_output("", nlohmann::json::array(), false));
  shells.serve("https://www.google.com/search?q=zzqq",
               script_output("", nlohmann::json::array(), false));
  EXPECT_EQ(error_of([&] {
              events().fetch(events().validate({{"q", "zzqq"}}), shells, deadline_in(Millis(1000)));
            }).code(),
            ErrorCode::ExtractionFailed);
}

TEST(EventsFlow, BlockedListingIsNotRetriedElsewhere) {
  FakeTabs tabs;
  tabs.serve("https://www.google.com/search?q=concerts&ibp=htl;events", nullptr, 429);
  EXPECT_EQ(
      error_of([&] {
        events().fetch(events().validate({{"q", "concerts"}}), tabs, deadline_in(Millis(1000)));
      }).code(),
      ErrorCode::UpstreamBlocked);
  EXPECT_EQ(tabs.loaded.size(), 1u);
}

}  // namespace
}  // namespace gleaner::extract::google
