#pragma once
// The protobuf wire format some of Google's URL parameters carry, base64url-encoded: the
// location of a search (`uule=`, google.cpp) and a Google Flights search (`tfs=`, flights_tfs.h).
// Only the two wire types those use: varints and length-delimited bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::extract::google {

/// Appends field `number` as a varint.
void put_varint_field(std::string& out, int number, std::uint64_t value);

/// Appends field `number` as length-delimited bytes (a string or a nested message).
void put_bytes_field(std::string& out, int number, std::string_view bytes);

/// One field of a protobuf message as read by read_protobuf(): its number and either a varint
/// or the bytes of a length-delimited field.
struct ProtoField {
  int number = 0;
  bool is_varint = false;
  std::uint64_t varint = 0;
  std::string bytes;
};

/// The top-level fields of a protobuf message in order; nullopt when the bytes are not one
/// (wire types other than varint and length-delimited are not read).
std::optional<std::vector<ProtoField>> read_protobuf(std::string_view bytes);

}  // namespace gleaner::extract::google
