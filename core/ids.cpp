#include "core/ids.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>
#include <vector>

namespace gleaner {
namespace {

std::string to_hex(const unsigned char* data, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[data[i] >> 4];
    out[2 * i + 1] = digits[data[i] & 0xf];
  }
  return out;
}

void fill_random(unsigned char* data, std::size_t n) {
  if (RAND_bytes(data, static_cast<int>(n)) != 1) throw std::runtime_error("RAND_bytes failed");
}

}  // namespace

std::string new_uuid() {
  std::array<unsigned char, 16> b{};
  fill_random(b.data(), b.size());
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  std::string hex = to_hex(b.data(), b.size());
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> b(bytes);
  fill_random(b.data(), b.size());
  return to_hex(b.data(), b.size());
}

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), md.data(), &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("EVP_Digest failed");
  return to_hex(md.data(), len);
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), md.data(),
           &len) == nullptr)
    throw std::runtime_error("HMAC failed");
  return to_hex(md.data(), len);
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace gleaner
