#include "screenshots/signing.h"

#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gleaner::screenshots {
namespace {

constexpr std::size_t kGeneratedSecretBytes = 32;

[[noreturn]] void secret_failure(const std::filesystem::path& file, const std::string& what) {
  throw Error(ErrorCode::Internal, "the screenshot secret is unavailable",
              what + " " + file.string() + ": " + std::strerror(errno));
}

bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

std::string read_secret(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) secret_failure(file, "cannot read");
  std::ostringstream content;
  content << in.rdbuf();
  std::string secret = content.str();
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  return secret;
}

}  // namespace

bool valid_id(std::string_view id) {
  if (id.size() != kIdLength) return false;
  for (char c : id) {
    if (!is_lower_hex(c)) return false;
  }
  return true;
}

std::optional<std::int64_t> parse_expires(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;  // 18 digits cannot overflow int64
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::string load_or_create_secret(const std::filesystem::path& file) {
  std::error_code ignored;
  std::filesystem::create_directories(file.parent_path(), ignored);
  if (std::filesystem::exists(file)) return read_secret(file);

  // Written in full under a temporary name, then link()ed into place: link() fails with EEXIST
  // when the file already exists, so when several processes start at once exactly one secret
  // wins and nobody ever reads a half-written file.
  const std::filesystem::path temporary =
      file.parent_path() / (".screenshot_secret." + random_hex(8));
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) secret_failure(temporary, "cannot create");
  const std::string line = random_hex(kGeneratedSecretBytes) + "\n";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  const bool synced = ::fsync(fd) == 0;
  if (::close(fd) != 0 || !written || !synced) {
    ::unlink(temporary.c_str());
    secret_failure(temporary, "cannot write");
  }
  const bool linked = ::link(temporary.c_str(), file.c_str()) == 0;
  const int link_errno = errno;
  ::unlink(temporary.c_str());
  if (!linked && link_errno != EEXIST) {
    errno = link_errno;
    secret_failure(file, "cannot create");
  }
  if (linked) log::info("screenshots") << "created a new URL signing secret in " << file.string();
  return read_secret(file);
}

UrlSigner::UrlSigner(std::string secret) : secret_(std::move(secret)) {
  if (secret_.size() < kMinSecretLength) {
    throw Error(ErrorCode::Internal, "the screenshot secret is unusable",
                "screenshot_secret must be at least " + std::to_string(kMinSecretLength) +
                    " characters long");
  }
}

UrlSigner UrlSigner::from_config(const Config& config) {
  return UrlSigner(secret_from_config(config));
}

std::string UrlSigner::secret_from_config(const Config& config) {
  if (auto secret = config.get_optional_string("screenshot_secret")) return *secret;
  const std::filesystem::path data_dir = config.get_string("data_dir", "./data");
  return load_or_create_secret(data_dir / "screenshot_secret");
}

std::string UrlSigner::signature(std::string_view id, std::int64_t expires) const {
  std::string message(id);
  message += '.';
  message += std::to_string(expires);
  return hmac_sha256_hex(secret_, message);
}

std::string UrlSigner::signed_url(std::string_view public_base_url, std::string_view id,
                                  std::int64_t expires, ImageFormat format) const {
  std::string url(public_base_url);
  while (!url.empty() && url.back() == '/') url.pop_back();
  url += "/screenshots/";
  url += id;
  url += '.';
  url += format_extension(format);
  url += "?expires=" + std::to_string(expires) + "&sig=" + signature(id, expires);
  return url;
}

bool UrlSigner::verify(std::string_view id, std::string_view expires, std::string_view sig,
                       std::int64_t now) const {
  if (!valid_id(id)) return false;
  const auto when = parse_expires(expires);
  if (!when || *when <= now) return false;
  // The signature is computed over the canonical number, so "0123" and "123" are not both valid.
  if (std::to_string(*when) != expires) return false;
  return constant_time_equal(signature(id, *when), sig);
}

}  // namespace gleaner::screenshots
