// The `tfs=` protobuf of a Google Flights search (flights_tfs.h).
#include "extract/sites/google/flights_tfs.h"

#include <cctype>

#include "extract/sites/common/text.h"
#include "extract/sites/google/protobuf.h"

namespace gleaner::extract::google {
namespace {

// A place: {1: kind, 2: id}; kind 1 is an airport and 2 a place by kgmid, as both public
// encoders write it and as the real page writes its departure city (it writes 3 for its arrival
// city, a kind of place a kgmid alone does not tell).
std::string place_message(const FlightsPlace& p) {
  std::string m;
  put_varint_field(m, 1, p.airport ? 1 : 2);
  put_bytes_field(m, 2, p.id);
  return m;
}

std::string leg_message(const FlightsLeg& leg) {
  std::string m;
  put_bytes_field(m, 2, leg.date);
  if (leg.max_stops) put_varint_field(m, 5, static_cast<std::uint64_t>(*leg.max_stops));
  for (const FlightsPlace& p : leg.from) put_bytes_field(m, 13, place_message(p));
  for (const FlightsPlace& p : leg.to) put_bytes_field(m, 14, place_message(p));
  return m;
}

}  // namespace

FlightsPlace flights_place(std::string_view id) {
  FlightsPlace p;
  p.airport = !id.empty() && id.front() != '/';
  p.id = std::string(id);
  if (p.airport) {
    for (char& c : p.id) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return p;
}

std::string encode_flights_tfs(const FlightsSearch& search) {
  std::string m;
  // Fields 1 and 2 are written by the site's own search (28 and 2 on the real page); what they
  // mean is not shown, so they are kept as the page has them.
  put_varint_field(m, 1, 28);
  put_varint_field(m, 2, 2);
  for (const FlightsLeg& leg : search.legs) put_bytes_field(m, 3, leg_message(leg));
  // One unpacked field 8 per passenger, as the page writes its one adult.
  for (int t : search.travellers) put_varint_field(m, 8, static_cast<std::uint64_t>(t));
  put_varint_field(m, 9, static_cast<std::uint64_t>(search.cabin));
  put_varint_field(m, 14, 1);  // as the page writes it
  // Field 16 holds {1: 2^64 - 1} on the page: no price limit.
  std::string limit;
  put_varint_field(limit, 1, ~std::uint64_t{0});
  put_bytes_field(m, 16, limit);
  put_varint_field(m, 19, static_cast<std::uint64_t>(search.trip_type));
  return base64url_encode(m);
}

}  // namespace gleaner::extract::google
