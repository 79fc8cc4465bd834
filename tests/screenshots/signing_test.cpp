// URL signing: a signed URL verifies until its expiry; any change to id, expiry or signature, a
// malformed id, or another secret makes it fail. The generated secret is kept across restarts.
#include "screenshots/signing.h"

#include "core/error.h"
#include "core/ids.h"
#include "tests/screenshots/helpers.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

namespace gleaner::screenshots {
namespace {

const std::string kSecret = "a test secret of sufficient length";
const std::string kId = "0123456789abcdef0123456789abcdef";
constexpr std::int64_t kExpires = 1800000000;

TEST(Ids, OnlyLowerHexOfTheRightLengthIsValid) {
  EXPECT_TRUE(valid_id(kId));
  EXPECT_TRUE(valid_id(random_hex(16)));
  EXPECT_FALSE(valid_id(""));
  EXPECT_FALSE(valid_id(kId.substr(1)));
  EXPECT_FALSE(valid_id(kId + "0"));
  EXPECT_FALSE(valid_id("0123456789ABCDEF0123456789abcdef"));
  EXPECT_FALSE(valid_id("../../../../../../etc/passwd0000"));
  EXPECT_FALSE(valid_id("0123456789abcdef0123456789abcde/"));
  EXPECT_FALSE(valid_id(std::string("0123456789abcdef0123456789abcde\0", 32)));
}

TEST(Expires, OnlyPlainDecimalNumbersParse) {
  EXPECT_EQ(parse_expires("1800000000"), 1800000000);
  EXPECT_EQ(parse_expires("0"), 0);
  EXPECT_FALSE(parse_expires(""));
  EXPECT_FALSE(parse_expires("-5"));
  EXPECT_FALSE(parse_expires("+5"));
  EXPECT_FALSE(parse_expires(" 5"));
  EXPECT_FALSE(parse_expires("5e3"));
  EXPECT_FALSE(parse_expires("1234567890123456789"));  // would overflow
}

TEST(UrlSigner, SignedUrlIsAbsoluteUnderTheBaseAndVerifies) {
  UrlSigner signer(kSecret);
  const std::string url = signer.signed_url("https://api.example.com/gleaner/", kId, kExpires);
  EXPECT_EQ(url.rfind("https://api.example.com/gleaner/screenshots/" + kId + ".png?expires=1800000000&sig=", 0), 0u)
      << url;
  const test::SignedUrlParts parts = test::split_signed_url(url);
  EXPECT_EQ(parts.file, kId + ".png");
  EXPECT_EQ(parts.id, kId);
  EXPECT_EQ(parts.sig, hmac_sha256_hex(kSecret, kId + ".1800000000"));
  EXPECT_TRUE(signer.verify(parts.id, parts.expires, parts.sig, kExpires - 1));
}

TEST(UrlSigner, ExpiresAtTheExpiryInstant) {
  UrlSigner signer(kSecret);
  const std::string sig = signer.signature(kId, kExpires);
  EXPECT_TRUE(signer.verify(kId, "1800000000", sig, kExpires - 1));
  EXPECT_FALSE(signer.verify(kId, "1800000000", sig, kExpires));
  EXPECT_FALSE(signer.verify(kId, "1800000000", sig, kExpires + 86400));
}

TEST(UrlSigner, AnyAlterationFails) {
  UrlSigner signer(kSecret);
  const std::string sig = signer.signature(kId, kExpires);
  const std::int64_t now = kExpires - 100;
  std::string other_id = kId;
  other_id[5] = other_id[5] == 'a' ? 'b' : 'a';
  EXPECT_FALSE(signer.verify(other_id, "1800000000", sig, now)) << "altered id";
  EXPECT_FALSE(signer.verify(kId, "1800000001", sig, now)) << "extended expiry";
  EXPECT_FALSE(signer.verify(kId, "01800000000", sig, now)) << "same number, other text";
  std::string other_sig = sig;
  other_sig.back() = other_sig.back() == '0' ? '1' : '0';
  EXPECT_FALSE(signer.verify(kId, "1800000000", other_sig, now)) << "altered signature";
  EXPECT_FALSE(signer.verify(kId, "1800000000", sig.substr(0, 63), now)) << "cut signature";
  EXPECT_FALSE(signer.verify(kId, "1800000000", "", now)) << "no signature";
  std::string upper = sig;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper != sig) {
    EXPECT_FALSE(signer.verify(kId, "1800000000", upper, now)) << "upper case";
  }
  EXPECT_FALSE(signer.verify(kId, "soon", sig, now)) << "non-numeric expiry";
}

TEST(UrlSigner, ASignatureFromAnotherSecretFails) {
  UrlSigner ours(kSecret);
  UrlSigner theirs("another secret, also long enough");
  EXPECT_FALSE(ours.verify(kId, "1800000000", theirs.signature(kId, kExpires), kExpires - 1));
}

TEST(UrlSigner, RefusesAShortSecret) {
  EXPECT_THROW(UrlSigner("short"), Error);
}

TEST(Secret, GeneratedOnceWithMode0600AndReadBackAfterARestart) {
  test::TempDir dir;
  const auto file = dir.path() / "sub" / "screenshot_secret";
  const std::string first = load_or_create_secret(file);
  EXPECT_GE(first.size(), UrlSigner::kMinSecretLength);
  struct stat info {};
  ASSERT_EQ(::stat(file.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_EQ(load_or_create_secret(file), first);

  test::TempDir elsewhere;
  EXPECT_NE(load_or_create_secret(elsewhere.path() / "screenshot_secret"), first);
  // No temporary files are left beside the secret.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(file.parent_path()),
                          std::filesystem::directory_iterator()),
            1);
}

TEST(Secret, FromConfigPrefersTheConfiguredSecretElseTheFileInDataDir) {
  test::TempDir dir;
  Config config;
  config.set("data_dir", dir.path().string());
  const UrlSigner generated = UrlSigner::from_config(config);
  const UrlSigner again = UrlSigner::from_config(config);
  EXPECT_EQ(generated.signature(kId, kExpires), again.signature(kId, kExpires))
      << "URLs signed before a restart stay valid after it";
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "screenshot_secret"));

  config.set("screenshot_secret", kSecret);
  EXPECT_EQ(UrlSigner::from_config(config).signature(kId, kExpires),
            UrlSigner(kSecret).signature(kId, kExpires));
}

}  // namespace
}  // namespace gleaner::screenshots
