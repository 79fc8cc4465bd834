#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace gleaner {

/// A random (version 4) UUID, lower-case, from the system's CSPRNG.
std::string new_uuid();
/// `bytes` random bytes from the CSPRNG, hex-encoded (2 characters per byte).
std::string random_hex(std::size_t bytes);
/// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);
/// Lower-case hex HMAC-SHA-256 of `data` under `key`.
std::string hmac_sha256_hex(std::string_view key, std::string_view data);
/// Compares two strings in time that does not depend on where they differ.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace gleaner
