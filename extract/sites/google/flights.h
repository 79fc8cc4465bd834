#pragma once
// GET /scrape/google/flights: shape_flights() turns flights.js output into the documented JSON.
#include <nlohmann/json.hpp>
#include <string>

namespace gleaner::extract::google {

/// Shapes flights.js output for a search of trip `type` (roundTrip, oneWay, multiCity).
nlohmann::json shape_flights(const nlohmann::json& page, const std::string& type);

/// The currency of a price token of the page (`[[null, 819], "CjRI..."]`'s second item): base64
/// of a protobuf whose field 3 is {1: amount in hundredths, 2: 2, 3: "PLN"}; "" when unread.
std::string flights_token_currency(const std::string& token);

}  // namespace gleaner::extract::google
