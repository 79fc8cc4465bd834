// The protobuf wire format of Google's URL parameters (protobuf.h).
#include "extract/sites/google/protobuf.h"

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
  put_varint(out,
             (static_cast<std::uint64_t>(number) << 3) | static_cast<std::uint64_t>(wire_type));
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

void put_varint_field(std::string& out, int number, std::uint64_t v) {
  put_key(out, number, 0);
  put_varint(out, v);
}

void put_bytes_field(std::string& out, int number, std::string_view bytes) {
  put_key(out, number, 2);
  put_varint(out, bytes.size());
  out += bytes;
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
