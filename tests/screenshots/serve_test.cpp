// The service end to end without a browser: publish a PNG, serve it back from its signed URL, and
// answer one NotFound for every way a URL can be wrong.
#include "screenshots/serve.h"

#include "core/error.h"
#include "tests/screenshots/helpers.h"

#include <gtest/gtest.h>

namespace gleaner::screenshots {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const auto kStart = std::chrono::system_clock::time_point(std::chrono::seconds(1800000000));

using Url = test::SignedUrlParts;
using test::split_signed_url;

struct ServeTest : ::testing::Test {
  test::TempDir dir;
  FakeClock clock{kStart};
  Config config;
  ServeTest() {
    config.set("data_dir", dir.path().string());
    config.set("public_base_url", "https://shots.example.com/");
  }

  // Expects serve() to throw NotFound with the one message every failure shares.
  void expect_not_found(const std::string& file, const std::optional<std::string>& expires,
                        const std::optional<std::string>& sig, ScreenshotService& service) {
    try {
      service.serve(file, expires, sig);
      ADD_FAILURE() << "served " << file << "?expires=" << expires.value_or("-")
                    << "&sig=" << sig.value_or("-");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::NotFound);
      EXPECT_STREQ(e.what(), "screenshot not found");
    }
  }
};

TEST_F(ServeTest, APublishedScreenshotIsServedFromItsAbsoluteSignedUrl) {
  ScreenshotService service(config, clock);
  const std::string png = test::solid_png(4, 2, 0x336699ff);
  const Published published = service.publish(png);
  EXPECT_EQ(published.url.rfind("https://shots.example.com/screenshots/" + published.id +
                                    ".png?expires=" + std::to_string(published.expires) + "&sig=",
                                0),
            0u)
      << published.url;
  EXPECT_EQ(published.expires, 1800000000 + 7 * 24 * 3600) << "the default expiry is 7 days";
  EXPECT_EQ(published.width, 4);
  EXPECT_EQ(published.height, 2);

  const Url url = split_signed_url(published.url);
  clock.advance(1h);
  const ServeResult served = service.serve(url.file, url.expires, url.sig);
  EXPECT_EQ(served.body, png);
  EXPECT_EQ(served.content_type, "image/png");
  EXPECT_EQ(served.cache_control, "public, max-age=601200, immutable");  // 7 days less 1 hour
}

TEST_F(ServeTest, EveryWrongUrlIsTheSameNotFound) {
  ScreenshotService service(config, clock);
  const Url url = split_signed_url(service.publish(test::solid_png(2, 2, 0xffffffff)).url);
  std::string other_id = url.file;
  other_id[0] = other_id[0] == 'a' ? 'b' : 'a';
  std::string other_sig = url.sig;
  other_sig[10] = other_sig[10] == '0' ? '1' : '0';

  expect_not_found(url.file, std::nullopt, url.sig, service);
  expect_not_found(url.file, url.expires, std::nullopt, service);
  expect_not_found(other_id, url.expires, url.sig, service);
  expect_not_found(url.file, std::to_string(std::stoll(url.expires) + 3600), url.sig, service);
  expect_not_found(url.file, url.expires, other_sig, service);
  expect_not_found(url.id + ".jpg", url.expires, url.sig, service);
  expect_not_found("../screenshot_secret", url.expires, url.sig, service);
  expect_not_found("", url.expires, url.sig, service);
  EXPECT_NO_THROW(service.serve(url.file, url.expires, url.sig)) << "the right URL still works";
}

TEST_F(ServeTest, AnExpiredUrlIsNotFoundAndItsFileIsDeleted) {
  ScreenshotService service(config, clock);
  const Published published = service.publish(test::solid_png(2, 2, 0xffffffff));
  const Url url = split_signed_url(published.url);
  clock.advance(168h);
  expect_not_found(url.file, url.expires, url.sig, service);
  service.store().sweep();
  EXPECT_FALSE(fs::exists(service.store().path_of(published.id, published.expires)));
}

TEST_F(ServeTest, AValidUrlWhoseFileIsGoneIsNotFound) {
  ScreenshotService service(config, clock);
  const Published published = service.publish(test::solid_png(2, 2, 0xffffffff));
  fs::remove(service.store().path_of(published.id, published.expires));
  const Url url = split_signed_url(published.url);
  expect_not_found(url.file, url.expires, url.sig, service);
}

TEST_F(ServeTest, UrlsStayValidAfterARestartWithTheGeneratedSecret) {
  std::string published_url;
  {
    ScreenshotService first(config, clock);
    published_url = first.publish(test::solid_png(2, 2, 0xffffffff)).url;
  }
  ScreenshotService restarted(config, clock);
  const Url url = split_signed_url(published_url);
  EXPECT_NO_THROW(restarted.serve(url.file, url.expires, url.sig));
}

TEST_F(ServeTest, PublishRefusesWhatIsNotAPng) {
  ScreenshotService service(config, clock);
  EXPECT_THROW(service.publish("<html>"), Error);
}

TEST(ServeConfig, TheBaseUrlDefaultsToLocalhostOnTheConfiguredPort) {
  test::TempDir dir;
  Config config;
  config.set("data_dir", dir.path().string());
  config.set("port", 9123);
  EXPECT_EQ(ScreenshotService(config).public_base_url(), "http://localhost:9123");
  config.set("public_base_url", "shots.example.com");
  EXPECT_THROW(ScreenshotService{config}, Error) << "a base URL must be absolute";
}

}  // namespace
}  // namespace gleaner::screenshots
