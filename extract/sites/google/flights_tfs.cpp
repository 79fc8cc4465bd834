// The `tfs=` protobuf of a Google Flights search (flights_tfs.h).
#include "extract/sites/google/flights_tfs.h"

#include <cctype>

#include "extract/sites/common/text.h"

namespace gleaner::extract::google {
namespace {

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void put_key(std::string& out, int number, int wire_type) {
  put_varint(out, (static_cast<std::uint64_t>(number) << 3) | static_cast<std::uint64_t>(wire_type));
}

void put_int(std::string& out, int number, std::uint64_t v) {
  put_key(out, number, 0);
  put_varint(out, v);
}

void put_bytes(std::string& out, int number, std::string_view bytes) {
  put_key(out, number, 2);
  put_varint(out, bytes.size());
  out += bytes;
}

// A place: {1: kind, 2: id}; kind 1 is an airport and 2 a place by kgmid, as both public
// encoders write it and as the real page writes its departure city (it writes 3 for its arrival
// city, a kind of place a kgmid alone does not tell).
std::string place_message(const FlightsPlace& p) {
  std::string m;
  put_int(m, 1, p.airport ? 1 : 2);
  put_bytes(m, 2, p.id);
  return m;
}

std::string leg_message(const FlightsLeg& leg) {
  std::string m;
  put_bytes(m, 2, leg.date);
  if (leg.max_stops) put_int(m, 5, static_cast<std::uint64_t>(*leg.max_stops));
  for (const FlightsPlace& p : leg.from) put_bytes(m, 13, place_message(p));
  for (const FlightsPlace& p : leg.to) put_bytes(m, 14, place_message(p));
  return m;
}

bool read_varint(std::string_view bytes, std::size_t& i, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (i >= bytes.size()) return false;
    const auto c = static_cast<unsigned char>(bytes[i++]);
    v |= static_cast<std::uint64_t>(c & 0x7F) << shift;
    if (c < 0x80) return true;
  }
  return false;
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
  put_int(m, 1, 28);
  put_int(m, 2, 2);
  for (const FlightsLeg& leg : search.legs) put_bytes(m, 3, leg_message(leg));
  // One unpacked field 8 per passenger, as the page writes its one adult.
  for (int t : search.travellers) put_int(m, 8, static_cast<std::uint64_t>(t));
  put_int(m, 9, static_cast<std::uint64_t>(search.cabin));
  put_int(m, 14, 1);  // as the page writes it
  // Field 16 holds {1: 2^64 - 1} on the page: no price limit.
  std::string limit;
  put_int(limit, 1, ~std::uint64_t{0});
  put_bytes(m, 16, limit);
  put_int(m, 19, static_cast<std::uint64_t>(search.trip_type));
  return base64url_encode(m);
}

std::optional<std::vector<ProtoField>> read_protobuf(std::string_view bytes) {
  std::vector<ProtoField> out;
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::uint64_t key = 0;
    if (!read_varint(bytes, i, key)) return std::nullopt;
    ProtoField f;
    f.number = static_cast<int>(key >> 3);
    if (f.number == 0) return std::nullopt;
    const auto wire = key & 7;
    if (wire == 0) {
      f.is_varint = true;
      if (!read_varint(bytes, i, f.varint)) return std::nullopt;
    } else if (wire == 2) {
      std::uint64_t n = 0;
      if (!read_varint(bytes, i, n) || n > bytes.size() - i) return std::nullopt;
      f.bytes = std::string(bytes.substr(i, n));
      i += n;
    } else {
      return std::nullopt;
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gleaner::extract::google
