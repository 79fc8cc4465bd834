// GET /scrape/google/flights without a browser: the search URL's `tfs=` protobuf checked against
// the real results page's own (tests/sites/google/pages/flights/), parameters as the hosted
// client sends them (hosted.md #17), and the shaping of flights.js output recorded on that page.
#include "extract/sites/google/flights.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/flights_tfs.h"
#include "extract/sites/google/protobuf.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

// The `tfs=` of the real page's own address (its provenance: the wget-saved file's name).
constexpr const char* kPageTfs =
    "CBwQAhooEgoyMDIzLTA2LTE5agwIAhIIL20vMDg0NWJyDAgDEggvbS8wNmM2MhooEgoyMDIzLTA3LTAxagwIAxIIL20v"
    "MDZjNjJyDAgCEggvbS8wODQ1YkABSAFwAYIBCwj___________8BmAEB";

// A protobuf message as a tree: fields 3 (legs), 13/14 (places) and 16 read as messages, the
// rest as varints or text, in order.
json tree_of(std::string_view bytes, int depth = 0) {
  const auto fields = read_protobuf(bytes);
  if (!fields) return "unreadable";
  json out = json::array();
  for (const ProtoField& f : *fields) {
    const bool message =
        f.number == 3 || f.number == 13 || f.number == 14 || (f.number == 16 && depth == 0);
    json value;
    if (f.is_varint) {
      value = f.varint;
    } else if (message) {
      value = tree_of(f.bytes, depth + 1);
    } else {
      value = f.bytes;
    }
    out.push_back({f.number, value});
  }
  return out;
}

json tree_of_tfs(const std::string& tfs) {
  const auto bytes = base64url_decode(tfs);
  return bytes ? tree_of(*bytes) : json("not base64url");
}

std::string url_for(const QueryParams& query) {
  return flights_endpoint().build_request(flights_endpoint().validate(query)).url;
}

std::string tfs_of(const std::string& url) {
  const auto at = url.find("tfs=") + 4;
  return url.substr(at, url.find('&', at) - at);
}

const QueryParams kWroclawRome = {{"departureId", "/m/0845b"},
                                  {"arrivalId", "/m/06c62"},
                                  {"outboundDate", "2023-06-19"},
                                  {"returnDate", "2023-07-01"}};

TEST(Flights, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google/flights"), &flights_endpoint());
  EXPECT_EQ(flights_endpoint().default_cost(), 15);
}

TEST(FlightsTfs, TheRealPagesSearchDecodesAsTheEncoderWritesIt) {
  const json page = tree_of_tfs(kPageTfs);
  // The page's own search, field by field: 1: 28, 2: 2, two legs {2: date, 13: from, 14: to},
  // 8: one adult, 9: economy, 14: 1, 16: {1: no price limit}, 19: round trip.
  ASSERT_EQ(page.size(), 9u) << page.dump();
  EXPECT_EQ(page[0], json({1, 28}));
  EXPECT_EQ(page[1], json({2, 2}));
  EXPECT_EQ(page[2], json({3, {{2, "2023-06-19"}, {13, {{1, 2}, {2, "/m/0845b"}}},
                               {14, {{1, 3}, {2, "/m/06c62"}}}}}));
  EXPECT_EQ(page[3], json({3, {{2, "2023-07-01"}, {13, {{1, 3}, {2, "/m/06c62"}}},
                               {14, {{1, 2}, {2, "/m/0845b"}}}}}));
  EXPECT_EQ(page[4], json({8, 1}));
  EXPECT_EQ(page[5], json({9, 1}));
  EXPECT_EQ(page[6], json({14, 1}));
  EXPECT_EQ(page[7], json({16, {{1, 18446744073709551615ULL}}}));
  EXPECT_EQ(page[8], json({19, 1}));

  // The same trip from the hosted client's parameters gives the same message, but for the kind
  // of place Google gives Rome (3): a kgmid does not tell it, and the encoder writes 2, the kind
  // the page gives Wroclaw (flights.md, "What the URL carries").
  json expected = page;
  expected[2][1][2][1][0][1] = 2;
  expected[3][1][1][1][0][1] = 2;
  EXPECT_EQ(tree_of_tfs(tfs_of(url_for(kWroclawRome))), expected);
}

TEST(FlightsTfs, PassengersCabinStopsAndAirports) {
  QueryParams q = {{"departureId", "jfk,LGA"},     {"arrivalId", "LAX"},
                   {"outboundDate", "2030-01-22"}, {"type", "oneWay"},
                   {"adults", "2"},                {"children", "1"},
                   {"infantsOnLap", "1"},          {"infantsInSeat", "1"},
                   {"travelClass", "business"},    {"stops", "nonStop"}};
  const json t = tree_of_tfs(tfs_of(url_for(q)));
  ASSERT_EQ(t.size(), 12u) << t.dump();
  EXPECT_EQ(t[2], json({3, {{2, "2030-01-22"}, {5, 0}, {13, {{1, 1}, {2, "JFK"}}},
                            {13, {{1, 1}, {2, "LGA"}}}, {14, {{1, 1}, {2, "LAX"}}}}}));
  EXPECT_EQ(t[3], json({8, 1}));
  EXPECT_EQ(t[4], json({8, 1}));
  EXPECT_EQ(t[5], json({8, 2}));
  EXPECT_EQ(t[6], json({8, 3}));
  EXPECT_EQ(t[7], json({8, 4}));
  EXPECT_EQ(t[8], json({9, 3}));
  EXPECT_EQ(t[11], json({19, 2}));
}

TEST(Flights, CurrencyLanguageAndCountryGoIntoTheUrlAsGoogleTakesThem) {
  QueryParams q = kWroclawRome;
  q.emplace("currency", "PLN");
  q.emplace("hl", "en-us");
  q.emplace("gl", "PL");
  const std::string url = url_for(q);
  EXPECT_EQ(url.rfind("https://www.google.com/travel/flights/search?tfs=", 0), 0u) << url;
  EXPECT_NE(url.find("&curr=PLN&hl=en-US&gl=pl"), std::string::npos) << url;
}

TEST(Flights, MultiCityLegsComeFromItsJson) {
  const json t = tree_of_tfs(tfs_of(url_for(
      {{"departureId", "JFK"}, {"arrivalId", "LAX"}, {"outboundDate", "2030-01-22"},
       {"type", "multiCity"},
       {"multiCityJson", R"([{"departureId":"JFK","arrivalId":"LAX","date":"2030-01-22"},)"
                         R"({"departureId":"LAX","arrivalId":"/m/02_286","date":"2030-01-29"}])"}})));
  EXPECT_EQ(t[3], json({3, {{2, "2030-01-29"}, {13, {{1, 1}, {2, "LAX"}}},
                            {14, {{1, 2}, {2, "/m/02_286"}}}}}));
  EXPECT_EQ(t.back(), json({19, 3}));
}

TEST(Flights, RefusesWhatHostedMdRefusesNamingTheParameter) {
  const auto& e = flights_endpoint();
  QueryParams bad_airport = kWroclawRome;
  bad_airport.erase("departureId");
  bad_airport.emplace("departureId", "JFKX");
  EXPECT_EQ(testing::rejection(e, bad_airport),
            testing::refused(ErrorCode::InvalidParameter, "departureId"));
  QueryParams no_return = kWroclawRome;
  no_return.erase("returnDate");
  EXPECT_EQ(testing::rejection(e, no_return),
            testing::refused(ErrorCode::MissingParameter, "returnDate"));
  QueryParams multi = kWroclawRome;
  multi.emplace("type", "multiCity");
  EXPECT_EQ(testing::rejection(e, multi),
            testing::refused(ErrorCode::MissingParameter, "multiCityJson"));
  multi.emplace("multiCityJson", R"([{"departureId":"JFK","arrivalId":"L","date":"2030-01-22"}])");
  EXPECT_EQ(testing::rejection(e, multi),
            testing::refused(ErrorCode::InvalidParameter, "multiCityJson"));
  // Nested deeper than max_json_depth: refused as text that is not the array asked for.
  multi.erase("multiCityJson");
  multi.emplace("multiCityJson", std::string(65, '[') + std::string(65, ']'));
  EXPECT_EQ(testing::rejection(e, multi),
            testing::refused(ErrorCode::InvalidParameter, "multiCityJson"));
  QueryParams both = kWroclawRome;
  both.emplace("includeAirlines", "LH");
  both.emplace("excludeAirlines", "KL");
  EXPECT_EQ(testing::rejection(e, both).first, ErrorCode::ConflictingParameters);
  for (const char* token : {"departureToken", "bookingToken"}) {
    QueryParams q = kWroclawRome;
    q.emplace(token, "WyJDalJJ");
    const auto [code, parameter] = testing::rejection(e, q);
    EXPECT_EQ(code, ErrorCode::InvalidParameter);
    EXPECT_EQ(parameter, token);
  }
}

TEST(FlightsShape, TheRecordedWroclawRomeResults) {
  const json body =
      shape_flights(testing::recorded("google/data/flights/wroclaw-rome.json"), "roundTrip");
  ASSERT_EQ(body["bestFlights"].size(), 5u);
  ASSERT_EQ(body["otherFlights"].size(), 6u);
  EXPECT_EQ(body["currency"], "PLN");  // the price tokens' money: 81891 hundredths of PLN
  const json& first = body["bestFlights"][0];
  EXPECT_EQ(first["price"], 819);
  EXPECT_EQ(first["type"], "Round trip");
  EXPECT_EQ(first["totalDuration"], 285);
  EXPECT_EQ(first["flights"][1]["arrivalAirport"]["time"], "2023-06-19 23:30");
  EXPECT_EQ(first["layovers"][0], json({{"duration", 95}, {"name", "Frankfurt Airport"},
                                        {"id", "FRA"}}));
  EXPECT_TRUE(flights_endpoint().has_content(body));
  EXPECT_FALSE(flights_endpoint().has_content(shape_flights(json::object(), "roundTrip")));
}

TEST(FlightsShape, FiltersTheItinerariesThePageLists) {
  const json page = testing::recorded("google/data/flights/wroclaw-rome.json");
  QueryParams q = kWroclawRome;
  q.emplace("maxPrice", "1300");
  q.emplace("excludeConnections", "MUC");
  const json body = flights_endpoint().shape(page, flights_endpoint().validate(q));
  // 819 via Frankfurt and 1295 via Zurich; 850 (via Munich) and the dearer ones are left out.
  ASSERT_EQ(body["bestFlights"].size(), 2u);
  EXPECT_EQ(body["bestFlights"][0]["price"], 819);
  EXPECT_EQ(body["bestFlights"][1]["price"], 1295);
  EXPECT_TRUE(body["otherFlights"].empty());
}


TEST(FlightsShape, SortsEachListAsSortByAsks) {
  const json page = testing::recorded("google/data/flights/wroclaw-rome.json");
  const auto prices = [&](const std::string& sort_by) {
    QueryParams q = kWroclawRome;
    q.emplace("sortBy", sort_by);
    const json body = flights_endpoint().shape(page, flights_endpoint().validate(q));
    std::vector<int> out;
    for (const json& item : body["bestFlights"]) out.push_back(item["price"]);
    return out;
  };
  // The page's order; then by 270, 285, 325, 470 and 575 minutes.
  EXPECT_EQ(prices("topFlights"), (std::vector<int>{819, 850, 1295, 1485, 1493}));
  EXPECT_EQ(prices("duration"), (std::vector<int>{1493, 819, 1485, 850, 1295}));
  // Leaving at 09:50, 09:50 (the page's order kept), 13:10, 13:10, 18:45.
  EXPECT_EQ(prices("departureTime"), (std::vector<int>{1295, 1493, 850, 1485, 819}));
  // Arriving at 14:20, 18:35, 19:25, 21:00, 23:30.
  EXPECT_EQ(prices("arrivalTime"), (std::vector<int>{1493, 1485, 1295, 850, 819}));
  // 127, 129, 134, 148 and 187 kg of CO2.
  EXPECT_EQ(prices("emissions"), (std::vector<int>{850, 1295, 1493, 819, 1485}));
  EXPECT_EQ(prices("price"), (std::vector<int>{819, 850, 1295, 1485, 1493}));
}

}  // namespace
}  // namespace gleaner::extract::google
