#pragma once
// Signed screenshot URLs: /screenshots/<id>.<png|jpg|webp>?expires=<unix seconds>&sig=<hex HMAC-SHA-256 over
// "<id>.<expires>">. The URL needs no API key; without the secret nobody can make a valid one, and
// changing the id or the expiry breaks the signature.
#include "core/config.h"
#include "screenshots/format.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gleaner::screenshots {

/// Hex characters in a screenshot id (random_hex(16): 128 random bits).
inline constexpr std::size_t kIdLength = 32;

/// True for exactly kIdLength lower-case hex digits: anything else (path separators, dots, upper
/// case) is refused before it comes near a file name.
bool valid_id(std::string_view id);

/// Parses an `expires` value: 1 to 18 decimal digits, nothing else. nullopt otherwise.
std::optional<std::int64_t> parse_expires(std::string_view text);

/// Reads the secret in `file`, or creates the file (mode 0600) with a new random secret when it
/// does not exist, so that URLs signed before a restart stay valid after it. Safe when several
/// processes start at once: only one creates the file, the others read it. Throws
/// gleaner::Error(Internal) when the file cannot be read or written.
std::string load_or_create_secret(const std::filesystem::path& file);

class UrlSigner {
 public:
  /// Secrets shorter than this are refused (a short secret could be guessed from signed URLs).
  static constexpr std::size_t kMinSecretLength = 16;

  /// Throws gleaner::Error(Internal) when `secret` is shorter than kMinSecretLength.
  explicit UrlSigner(std::string secret);

  /// The secret from entry `screenshot_secret`; when absent, the one kept in
  /// <data_dir>/screenshot_secret (entry `data_dir`, default ./data), created on first use.
  static UrlSigner from_config(const Config& config);
  /// The secret from_config() signs with: the one secret every node of a service shares (page
  /// tokens are signed under a key derived from it, extract/page_token.h).
  static std::string secret_from_config(const Config& config);

  /// Lower-case hex HMAC-SHA-256 of "<id>.<expires>".
  std::string signature(std::string_view id, std::int64_t expires) const;

  /// "<public_base_url>/screenshots/<id>.<extension>?expires=<expires>&sig=<signature>" (a
  /// trailing '/' of the base is dropped). The extension is not signed: each id is stored in one
  /// format only, so another extension finds no file.
  std::string signed_url(std::string_view public_base_url, std::string_view id,
                         std::int64_t expires, ImageFormat format = ImageFormat::Png) const;

  /// True when `id` is valid, `expires` is a number later than `now` (unix seconds) and `sig` is
  /// its signature (compared in constant time).
  bool verify(std::string_view id, std::string_view expires, std::string_view sig,
              std::int64_t now) const;

 private:
  std::string secret_;
};

}  // namespace gleaner::screenshots
