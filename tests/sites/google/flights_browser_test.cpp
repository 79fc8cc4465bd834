// GET /scrape/google/flights end to end in real Chromium: the endpoint builds the search URL
// (its `tfs=` protobuf), the real results page of a Wroclaw-Rome round trip (2023-06,
// tests/sites/google/pages/flights) is answered from a replay archive, flights.js reads the data
// the page draws its results from and the C++ shapes it.
#include <gtest/gtest.h>

#include "extract/sites/google/flights.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

const std::string kUrl =
    "https://www.google.com/travel/flights/search?tfs=CBwQAhooEgoyMDIzLTA2LTE5agwIAhIIL20vMDg0NWJy"
    "DAgCEggvbS8wNmM2MhooEgoyMDIzLTA3LTAxagwIAhIIL20vMDZjNjJyDAgCEggvbS8wODQ1YkABSAFwAYIBCwj______"
    "_____8BmAEB&curr=PLN&hl=en-US";

TEST(FlightsInChromium, TheWroclawRomeRoundTripAsThePageShowsIt) {
  TempReplayArchive archive;
  archive.file(kUrl, gleaner::testing::site_page(
                         "google",
                         "flights/krisukox_travel-flights-search_wro-rome-roundtrip_enUS-PLN_2023-06.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(flights_endpoint(), replay,
                                {{"departureId", "/m/0845b"},
                                 {"arrivalId", "/m/06c62"},
                                 {"outboundDate", "2023-06-19"},
                                 {"returnDate", "2023-07-01"},
                                 {"currency", "PLN"},
                                 {"hl", "en-US"}});
  EXPECT_EQ(requested(*replay).front(), kUrl);
  const auto& body = result.body;

  // "Best departing flights": five, the first "PLN 819" round trip, 6:45 PM - 11:30 PM, 4 hr 45
  // min, one stop of 1 hr 35 min in Frankfurt, "Carbon emissions estimate: 148 kilograms. -10%
  // emissions" (the page's aria-labels).
  ASSERT_EQ(body["bestFlights"].size(), 5u);
  const auto& first = body["bestFlights"][0];
  EXPECT_EQ(first["price"], 819);
  EXPECT_EQ(body["currency"], "PLN");
  EXPECT_EQ(first["type"], "Round trip");
  EXPECT_EQ(first["totalDuration"], 285);
  EXPECT_EQ(first["airlineLogo"], "https://www.gstatic.com/flights/airline_logos/70px/LH.png");
  EXPECT_EQ(first["carbonEmissions"]["thisFlight"], 148000);
  EXPECT_EQ(first["carbonEmissions"]["typicalForThisRoute"], 164000);
  EXPECT_EQ(first["carbonEmissions"]["differencePercent"], -10);
  ASSERT_EQ(first["layovers"].size(), 1u);
  EXPECT_EQ(first["layovers"][0]["duration"], 95);
  EXPECT_EQ(first["layovers"][0]["id"], "FRA");
  EXPECT_EQ(first["layovers"][0]["name"], "Frankfurt Airport");
  ASSERT_EQ(first["flights"].size(), 2u);
  const auto& leg = first["flights"][0];
  EXPECT_EQ(leg["departureAirport"]["id"], "WRO");
  EXPECT_EQ(leg["departureAirport"]["name"], "Wrocław Nicolaus Copernicus Airport");
  EXPECT_EQ(leg["departureAirport"]["time"], "2023-06-19 18:45");
  EXPECT_EQ(leg["arrivalAirport"]["id"], "FRA");
  EXPECT_EQ(leg["arrivalAirport"]["time"], "2023-06-19 20:05");
  EXPECT_EQ(leg["duration"], 80);
  EXPECT_EQ(leg["airline"], "Lufthansa");
  EXPECT_EQ(leg["flightNumber"], "LH 1355");
  EXPECT_EQ(leg["airplane"], "Canadair RJ 900");
  EXPECT_EQ(leg["legroom"], "31 in");
  EXPECT_EQ(leg["travelClass"], "Economy");
  EXPECT_EQ(leg["extensions"][0], "Operated by Lufthansa CityLine");
  EXPECT_EQ(leg["extensions"][1], "Carbon emissions estimate: 77 kg");
  EXPECT_EQ(first["flights"][1]["arrivalAirport"]["time"], "2023-06-19 23:30");

  // "Other departing flights": six; a KLM and Air France itinerary with two stops shows the
  // page's several-airlines logo.
  ASSERT_EQ(body["otherFlights"].size(), 6u);
  const auto& last = body["otherFlights"][5];
  EXPECT_EQ(last["price"], 3193);
  EXPECT_EQ(last["airlineLogo"], "https://www.gstatic.com/flights/airline_logos/70px/multi.png");
  EXPECT_EQ(last["flights"].size(), 3u);
  EXPECT_EQ(last["layovers"][1]["id"], "CDG");

  // "Prices are currently typical"; the lowest is the first result's.
  EXPECT_EQ(body["priceInsights"]["priceLevel"], "typical");
  EXPECT_EQ(body["priceInsights"]["lowestPrice"], 819);
  EXPECT_EQ(body["priceInsights"]["priceHistory"].size(), 61u);

  ASSERT_EQ(body["airports"].size(), 2u);
  EXPECT_EQ(body["airports"][0]["departure"][0]["id"], "/m/0845b");
  EXPECT_EQ(body["airports"][0]["departure"][0]["city"], "Wrocław");
  EXPECT_EQ(body["airports"][0]["departure"][0]["country"], "Poland");
  EXPECT_EQ(body["airports"][0]["arrival"][0]["city"], "Rome");
  EXPECT_EQ(body["airports"][0]["arrival"][0]["countryCode"], "IT");
}


TEST(FlightsInChromium, AOneWayBetweenAirportsInDollars) {
  const std::string url =
      "https://www.google.com/travel/flights/search?tfs=CBwQAhoeEgoyMDI1LTA4LTE1agcIARIDTEhScgcIARID"
      "Q0RHQAFIAXABggELCP___________wGYAQI";
  TempReplayArchive archive;
  archive.file(url, gleaner::testing::site_page(
                        "google",
                        "flights/aweirddev_travel-flights-search_lhr-cdg-oneway_enUS-USD_2025-07.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(
      flights_endpoint(), replay,
      {{"departureId", "LHR"}, {"arrivalId", "CDG"}, {"outboundDate", "2025-08-15"},
       {"type", "oneWay"}});
  EXPECT_EQ(requested(*replay).front(), url);
  const auto& body = result.body;

  // "From 79 US dollars. Nonstop flight with British Airways. Leaves Heathrow Airport at 8:55 PM
  // on Friday, August 15 and arrives at Paris Charles de Gaulle Airport at 11:10 PM on Friday,
  // August 15. Total duration 1 hr 15 min." (the first result's aria-label)
  // 4 best and 52 other itineraries: the 56 the page labels "From … US dollars".
  ASSERT_EQ(body["bestFlights"].size(), 4u);
  EXPECT_EQ(body["otherFlights"].size(), 52u);
  EXPECT_EQ(body["currency"], "USD");
  const auto& first = body["bestFlights"][0];
  EXPECT_EQ(first["price"], 79);
  EXPECT_EQ(first["type"], "One way");
  EXPECT_EQ(first["totalDuration"], 75);
  EXPECT_FALSE(first.contains("layovers"));
  EXPECT_EQ(first["carbonEmissions"]["thisFlight"], 42000);
  EXPECT_EQ(first["carbonEmissions"]["differencePercent"], -26);
  ASSERT_EQ(first["flights"].size(), 1u);
  const auto& leg = first["flights"][0];
  EXPECT_EQ(leg["departureAirport"]["name"], "Heathrow Airport");
  EXPECT_EQ(leg["departureAirport"]["time"], "2025-08-15 20:55");
  EXPECT_EQ(leg["arrivalAirport"]["name"], "Paris Charles de Gaulle Airport");
  EXPECT_EQ(leg["arrivalAirport"]["time"], "2025-08-15 23:10");
  EXPECT_EQ(leg["airline"], "British Airways");
  EXPECT_EQ(leg["flightNumber"], "BA 326");
  EXPECT_EQ(leg["airplane"], "Airbus A321neo");
  EXPECT_EQ(leg["extensions"], nlohmann::json({"Carbon emissions estimate: 42 kg"}));

  // A connection: Scandinavian Airlines through Copenhagen, 110 minutes.
  const auto& sas = body["otherFlights"][5];
  EXPECT_EQ(sas["flights"][0]["flightNumber"], "SK 500");
  EXPECT_EQ(sas["layovers"][0]["id"], "CPH");
  EXPECT_EQ(sas["layovers"][0]["duration"], 110);

  EXPECT_EQ(body["priceInsights"]["lowestPrice"], 79);
  EXPECT_EQ(body["priceInsights"]["priceLevel"], "typical");
  ASSERT_EQ(body["airports"].size(), 1u);
  const auto& from = body["airports"][0]["departure"][0];
  EXPECT_EQ(from["id"], "LHR");
  EXPECT_EQ(from["name"], "Heathrow Airport");
  EXPECT_EQ(from["city"], "London");
  EXPECT_EQ(from["countryCode"], "GB");
  EXPECT_EQ(body["airports"][0]["arrival"][0]["city"], "Paris");
}

}  // namespace
}  // namespace gleaner::extract::google
