// Capture over a scripted page (a Surface) of a given size that answers each capture with a PNG of
// the clip asked for, striped by page row: what is asked of the browser (prepare script, clips,
// tiles), and what comes back (bytes kept as they are, or stitched in the right order), without a
// browser.
#include "screenshots/capture.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cmath>
#include <functional>
#include <mutex>

#include <thread>

#include "core/error.h"
#include "screenshots/png.h"
#include "tests/screenshots/helpers.h"

namespace gleaner::screenshots {
namespace {

using Json = nlohmann::json;

constexpr std::uint32_t kStripes[] = {0xff0000ff, 0x00ff00ff, 0x0000ffff};
constexpr int kStripeHeight = 100;  // CSS px

// The colour of page row `css_y`.
std::uint32_t stripe_at(double css_y) {
  return kStripes[static_cast<int>(css_y / kStripeHeight) % 3];
}

std::string base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                  reinterpret_cast<const unsigned char*>(bytes.data()),
                  static_cast<int>(bytes.size()));
  return out;
}

// A page as Chromium would show it. Every call is recorded as {method, params}.
struct FakePage final : Surface {
  double width = 40;
  double height = 250;
  double device_pixel_ratio = 1;
  int viewport_width = 30;
  int viewport_height = 20;
  bool prepare_throws = false;
  /// Replaces the capture's answer (base64) when set.
  std::function<std::string()> capture_answer;
  /// How long each call takes.
  Millis delay{0};

  std::mutex mutex;  // guards calls, returned
  std::vector<Json> calls;
  std::vector<std::string> returned;  // the PNG bytes of each capture, in order

  std::vector<Json> calls_of(const std::string& method) {
    std::lock_guard lock(mutex);
    std::vector<Json> out;
    for (const Json& c : calls)
      if (c["method"] == method) out.push_back(c["params"]);
    return out;
  }

  void record(const std::string& method, Json params, Deadline deadline) {
    {
      std::lock_guard lock(mutex);
      calls.push_back({{"method", method}, {"params", std::move(params)}});
    }
    if (delay.count() > 0) {
      std::this_thread::sleep_for(std::min(delay, time_left(deadline)));
      if (time_left(deadline).count() == 0) throw Error(ErrorCode::Timeout, "the page is slow");
    }
  }

  Json evaluate_isolated(const std::string& expression, Deadline deadline) override {
    record("evaluate", {{"expression", expression}}, deadline);
    if (prepare_throws) throw Error(ErrorCode::Internal, "the script failed", "Uncaught");
    return {{"devicePixelRatio", device_pixel_ratio}, {"steps", 3}, {"pendingImages", 0}};
  }

  Clip content_size(Deadline deadline) override {
    record("content_size", Json::object(), deadline);
    return {0, 0, width, height};
  }

  std::string capture_base64(const Shot& shot, Deadline deadline) override {
    Json params = {{"format", std::string(format_name(shot.format))},
                   {"optimizeForSpeed", shot.optimize_for_speed}};
    if (shot.quality) params["quality"] = *shot.quality;
    double y = 0, w = viewport_width, h = viewport_height;
    if (shot.clip) {
      params["clip"] = {{"x", shot.clip->x},
                        {"y", shot.clip->y},
                        {"width", shot.clip->width},
                        {"height", shot.clip->height}};
      y = shot.clip->y;
      w = shot.clip->width;
      h = shot.clip->height;
    }
    record("capture", params, deadline);
    if (capture_answer) return capture_answer();
    const int pixel_width = static_cast<int>(std::lround(w * device_pixel_ratio));
    const int pixel_height = static_cast<int>(std::lround(h * device_pixel_ratio));
    Image image(pixel_width, pixel_height);
    for (int row = 0; row < pixel_height; ++row)
      for (int col = 0; col < pixel_width; ++col)
        image.set_pixel(col, row, stripe_at(y + row / device_pixel_ratio));
    std::string png = encode_png(image);
    std::lock_guard lock(mutex);
    returned.push_back(png);
    return base64(png);
  }
};

struct CaptureTest : ::testing::Test {
  FakePage page;
  CaptureOptions options;

  CaptureTest() { options.tile_height = 1000; }

  Capture take() { return capture(page, options, deadline_in(test::kMaxWait)); }

  // Every row of `png` has the stripe colour of the page row it shows.
  static void expect_stripes(const std::string& png, double device_pixel_ratio = 1) {
    const Image image = decode_png(png);
    for (int row = 0; row < image.height; ++row) {
      ASSERT_EQ(image.pixel(0, row), stripe_at(row / device_pixel_ratio)) << "row " << row;
      ASSERT_EQ(image.pixel(image.width - 1, row), stripe_at(row / device_pixel_ratio))
          << "row " << row;
    }
  }
};

TEST_F(CaptureTest, APageThatFitsOneTileIsOneCaptureKeptByteForByte) {
  const Capture shot = take();
  ASSERT_EQ(page.returned.size(), 1u);
  EXPECT_EQ(shot.image, page.returned[0]) << "Chromium's PNG is stored without re-encoding";
  EXPECT_EQ(shot.width, 40);
  EXPECT_EQ(shot.height, 250);
  EXPECT_EQ(shot.tiles, 1);
  EXPECT_FALSE(shot.truncated);

  const auto captures = page.calls_of("capture");
  ASSERT_EQ(captures.size(), 1u);
  EXPECT_EQ(captures[0]["format"], "png");
  EXPECT_EQ(captures[0]["optimizeForSpeed"], true);
  EXPECT_EQ(captures[0]["clip"],
            (Json{{"x", 0.0}, {"y", 0.0}, {"width", 40.0}, {"height", 250.0}}));
}

TEST_F(CaptureTest, AskedFormatAndQualityGoToChromium) {
  options.format = ImageFormat::Jpeg;
  options.quality = 60;
  take();
  const auto captures = page.calls_of("capture");
  ASSERT_EQ(captures.size(), 1u);
  EXPECT_EQ(captures[0]["format"], "jpeg");
  EXPECT_EQ(captures[0]["quality"], 60);
}

TEST_F(CaptureTest, PngTakesNoQuality) {
  options.quality = 60;  // the request parser refuses this; capture() must not pass it on either
  take();
  EXPECT_FALSE(page.calls_of("capture")[0].contains("quality"));
}

TEST_F(CaptureTest, ATallPageInAnotherFormatIsStitchedFromPngTiles) {
  // libpng stitches: the tiles are asked as PNG whatever the format, and the result is a PNG.
  options.format = ImageFormat::Webp;
  options.quality = 80;
  page.height = 2450;
  const Capture shot = take();
  EXPECT_EQ(shot.tiles, 3);
  EXPECT_EQ(shot.format, ImageFormat::Png);
  for (const Json& c : page.calls_of("capture")) {
    EXPECT_EQ(c["format"], "png");
    EXPECT_FALSE(c.contains("quality"));
  }
  expect_stripes(shot.image);
}

TEST_F(CaptureTest, LazyContentIsTriggeredBeforeTheSizeIsMeasured) {
  take();
  std::vector<std::string> order;
  for (const Json& c : page.calls) order.push_back(c["method"]);
  // The prepare script runs in an isolated world, then the size is read.
  ASSERT_EQ(order, (std::vector<std::string>{"evaluate", "content_size", "capture"}));
  const std::string expression = page.calls_of("evaluate")[0]["expression"];
  EXPECT_NE(expression.find("\"scroll\":true"), std::string::npos) << expression;
  EXPECT_NE(expression.find("\"budgetMs\":3000"), std::string::npos) << expression;
  EXPECT_NE(expression.find("\"maxSteps\":40"), std::string::npos) << expression;
  EXPECT_NE(expression.find("loading = 'eager'"), std::string::npos) << "prepare.js is embedded";
}

TEST_F(CaptureTest, WithoutLazyLoadingThePageIsNotScrolled) {
  options.trigger_lazy = false;
  take();
  const std::string expression = page.calls_of("evaluate")[0]["expression"];
  EXPECT_NE(expression.find("\"scroll\":false"), std::string::npos) << expression;
}

TEST_F(CaptureTest, ATallPageIsCapturedInTilesAndStitchedInOrder) {
  page.height = 2450;
  const Capture shot = take();
  EXPECT_EQ(shot.tiles, 3);
  EXPECT_EQ(shot.width, 40);
  EXPECT_EQ(shot.height, 2450);
  const auto captures = page.calls_of("capture");
  ASSERT_EQ(captures.size(), 3u);
  EXPECT_EQ(captures[0]["clip"]["y"], 0.0);
  EXPECT_EQ(captures[1]["clip"]["y"], 1000.0);
  EXPECT_EQ(captures[2]["clip"]["y"], 2000.0);
  EXPECT_EQ(captures[2]["clip"]["height"], 450.0);
  for (const Json& c : captures) EXPECT_EQ(c["clip"]["width"], 40.0);
  expect_stripes(shot.image);
}

TEST_F(CaptureTest, TilesAreSizedInDevicePixels) {
  page.device_pixel_ratio = 2;
  page.height = 1200;  // 2400 device rows: 500 CSS px per 1000-row tile
  const Capture shot = take();
  EXPECT_EQ(shot.tiles, 3);
  EXPECT_EQ(shot.width, 80);
  EXPECT_EQ(shot.height, 2400);
  for (const Json& c : page.calls_of("capture"))
    EXPECT_LE(c["clip"]["height"], 500.0);
  expect_stripes(shot.image, 2);
}

TEST_F(CaptureTest, APageBeyondTheMaximumIsCutThere) {
  page.height = 50000;
  page.width = 9000;
  options.max_height = 2100;
  options.max_width = 50;
  const Capture shot = take();
  EXPECT_TRUE(shot.truncated);
  EXPECT_EQ(shot.height, 2100);
  EXPECT_EQ(shot.width, 50);
  EXPECT_EQ(shot.tiles, 3);
  const std::string expression = page.calls_of("evaluate")[0]["expression"];
  EXPECT_NE(expression.find("\"maxHeight\":2100"), std::string::npos)
      << "no scrolling past the cut";
}

TEST_F(CaptureTest, FractionalContentSizesAreRoundedUpToWholePixels) {
  page.height = 1000.4;
  page.width = 39.5;
  const Capture shot = take();
  EXPECT_EQ(shot.height, 1001);
  EXPECT_EQ(shot.width, 40);
  EXPECT_EQ(shot.tiles, 2);
}

TEST_F(CaptureTest, APageWhosePreparationThrowsIsStillCaptured) {
  page.prepare_throws = true;
  const Capture shot = take();
  EXPECT_EQ(shot.height, 250);
}

TEST_F(CaptureTest, ViewportOnlyIsOneCaptureWithoutClipOrScrolling) {
  options.full_page = false;
  const Capture shot = take();
  EXPECT_EQ(shot.width, 30);
  EXPECT_EQ(shot.height, 20);
  EXPECT_TRUE(page.calls_of("evaluate").empty());
  const auto captures = page.calls_of("capture");
  ASSERT_EQ(captures.size(), 1u);
  EXPECT_FALSE(captures[0].contains("clip"));
}

TEST_F(CaptureTest, AnAnswerThatIsNotAPngIsAnInternalError) {
  page.capture_answer = [] { return base64("<html>not a png</html>"); };
  options.full_page = false;
  try {
    take();
    FAIL() << "a capture that is not a PNG was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
  }
}

TEST_F(CaptureTest, ABrowserThatDoesNotAnswerEndsAtTheDeadline) {
  page.delay = test::kMaxWait;
  options.full_page = false;
  try {
    capture(page, options, deadline_in(Millis(50)));
    FAIL() << "the capture outlived its deadline";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Timeout);
  }
}

TEST(PlanTiles, CoversTheAreaTopToBottom) {
  const auto one = plan_tiles(100, 800, 1000);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].height, 800);
  const auto exact = plan_tiles(100, 2000, 1000);
  ASSERT_EQ(exact.size(), 2u);
  EXPECT_EQ(exact[1].y, 1000);
  EXPECT_EQ(exact[1].height, 1000);
  const auto rest = plan_tiles(100, 2001, 1000);
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[2].height, 1);
}

TEST(CaptureOptions, DefaultsAndEntries) {
  const CaptureOptions d = CaptureOptions::from_config(Config());
  EXPECT_EQ(d.max_height, 30000);
  EXPECT_EQ(d.tile_height, 16384);
  EXPECT_TRUE(d.trigger_lazy);
  Config config;
  config.set("screenshot_max_height", 12000);
  config.set("screenshot_tile_height", 4096);
  config.set("screenshot_lazy_load", false);
  const CaptureOptions o = CaptureOptions::from_config(config);
  EXPECT_EQ(o.max_height, 12000);
  EXPECT_EQ(o.tile_height, 4096);
  EXPECT_FALSE(o.trigger_lazy);
  config.set("screenshot_png_compression", 12);
  EXPECT_THROW(CaptureOptions::from_config(config), Error);
}

}  // namespace
}  // namespace gleaner::screenshots
