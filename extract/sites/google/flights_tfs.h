#pragma once
// The Google Flights search as its URL carries it: `tfs=`, URL-safe base64 (no padding) of a
// protobuf message. Field numbers and values are those of the real results page's own `tfs`
// (tests/sites/google/pages/flights/, decoded by flights_test.cpp) where it shows them, and else
// those two public encoders agree on (docs/endpoints/google/flights.md says which is which).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::extract::google {

/// A place of a leg: an airport (IATA code, `WRO`) or a place Google knows by its kgmid
/// (`/m/0845b`).
struct FlightsPlace {
  std::string id;
  bool airport = false;
};

/// One leg of the trip: its date (YYYY-MM-DD), where from and where to (several places each).
struct FlightsLeg {
  std::string date;
  std::vector<FlightsPlace> from;
  std::vector<FlightsPlace> to;
  std::optional<int> max_stops;  ///< 0 nonstop, 1 one stop or fewer, 2 two stops or fewer
};

/// The whole search: legs in order, one traveller code per passenger (1 adult, 2 child,
/// 3 infant on lap, 4 infant in seat), the cabin (1 economy .. 4 first) and the trip type
/// (1 round trip, 2 one way, 3 multi-city).
struct FlightsSearch {
  std::vector<FlightsLeg> legs;
  std::vector<int> travellers;
  int cabin = 1;
  int trip_type = 1;
};

/// The place a departureId/arrivalId item names: an IATA code (three letters, upper-cased) is an
/// airport, a kgmid (`/m/...`, `/g/...`) a place.
FlightsPlace flights_place(std::string_view id);

/// The `tfs=` value of `search` (base64url without padding).
std::string encode_flights_tfs(const FlightsSearch& search);

}  // namespace gleaner::extract::google
