// Screenshots in real Chromium (the binary's shared pool) of pages served from a replay archive:
// the viewport's size, a full page taller than one tile stitched with each coloured band at its
// rows, lazy images (native and script-driven) present in the capture, and the whole path from a
// leased page to a signed URL served back.
#include "screenshots/capture.h"

#include "extract/pool_tabs.h"
#include "screenshots/png.h"
#include "screenshots/serve.h"
#include "tests/screenshots/helpers.h"
#include "tests/support/chromium.h"
#include "tests/support/replay_archive.h"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <sstream>

namespace gleaner::screenshots {
namespace {

using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using gleaner::testing::TempReplayArchive;

constexpr std::uint32_t kWhite = 0xffffffff;
constexpr std::uint32_t kBands[] = {0xff0000ff, 0x00ff00ff, 0x0000ffff, 0xffff00ff, 0x00ffffff,
                                    0xff00ffff};

// A page of `count` bands, each `band` CSS px tall, coloured in the order of kBands.
std::string banded_page(int count, int band) {
  std::ostringstream html;
  html << "<!doctype html><html><head><style>body{margin:0;background:#fff}"
          "div{width:100%}</style></head><body>";
  for (int i = 0; i < count; ++i) {
    const std::uint32_t c = kBands[i % 6];
    html << "<div style=\"height:" << band << "px;background:rgb(" << (c >> 24) << ","
         << ((c >> 16) & 0xff) << "," << ((c >> 8) & 0xff) << ")\"></div>";
  }
  html << "</body></html>";
  return html.str();
}

struct BrowserCapture : ::testing::Test {
  TempReplayArchive archive;

  gleaner::browser::Lease open(const std::string& url, int width, int height) {
    gleaner::browser::ContextOptions options;
    options.interceptors.push_back(archive.load());
    options.viewport = gleaner::browser::Viewport{width, height, 1.0, false};
    auto lease = shared_pool().lease(options, max_wait());
    const auto navigation = lease->navigate(url, gleaner::browser::WaitSpec::load(), max_wait());
    EXPECT_EQ(navigation.status, 200);
    return lease;
  }

  // A screenshot service's configuration, keeping its files in `dir`.
  static Config service_config(const test::TempDir& dir) {
    Config config;
    config.set("data_dir", dir.path().string());
    config.set("public_base_url", "https://gleaner.example.com");
    return config;
  }

  // Serves a 50 × 50 PNG of one colour at https://shots.test/<name>.png.
  void add_image(const std::string& name, std::uint32_t colour) {
    TempReplayArchive::Entry image;
    image.url = "https://shots.test/" + name + ".png";
    image.body = test::solid_png(50, 50, colour);
    image.file_name = name + ".png";
    archive.add(image);
  }

  // Serves `html` at one URL, opens it in a width × height viewport and captures it.
  Capture shoot(const std::string& html, int width, int height, const CaptureOptions& options) {
    archive.page("https://shots.test/page", html);
    auto lease = open("https://shots.test/page", width, height);
    return capture(*extract::surface_of(lease.page()), options, max_wait());
  }

  // Every row of the image shows the band of its page row.
  static void expect_bands(const Image& image, int band) {
    for (int row = 0; row < image.height; ++row) {
      const std::uint32_t expected = kBands[(row / band) % 6];
      ASSERT_EQ(image.pixel(0, row), expected) << "row " << row;
      ASSERT_EQ(image.pixel(image.width / 2, row), expected) << "row " << row;
      ASSERT_EQ(image.pixel(image.width - 1, row), expected) << "row " << row;
    }
  }
};

TEST_F(BrowserCapture, ViewportCaptureHasTheViewportSize) {
  CaptureOptions options;
  options.full_page = false;
  const Capture shot = shoot(banded_page(10, 300), 640, 480, options);
  EXPECT_EQ(shot.width, 640);
  EXPECT_EQ(shot.height, 480);
  const Image image = decode_png(shot.image);
  EXPECT_EQ(image.pixel(10, 10), kBands[0]);
  EXPECT_EQ(image.pixel(10, 310), kBands[1]);
}

TEST_F(BrowserCapture, AFullPageThatFitsOneTileIsOneCapture) {
  const Capture shot = shoot(banded_page(6, 500), 400, 300, CaptureOptions{});
  EXPECT_EQ(shot.tiles, 1);
  EXPECT_EQ(shot.width, 400);
  EXPECT_EQ(shot.height, 3000);
  expect_bands(decode_png(shot.image), 500);
}

TEST_F(BrowserCapture, AFullPageTallerThanOneTileIsStitchedWithEachBandAtItsRows) {
  // Band edges fall inside tiles and on a tile edge (row 2000 = 4 × 500 and the 2nd tile's top).
  CaptureOptions options;
  options.tile_height = 2000;
  const Capture shot = shoot(banded_page(11, 500), 500, 400, options);
  EXPECT_EQ(shot.tiles, 3);
  EXPECT_EQ(shot.width, 500);
  EXPECT_EQ(shot.height, 5500);
  EXPECT_FALSE(shot.truncated);
  expect_bands(decode_png(shot.image), 500);
}

TEST_F(BrowserCapture, APageTallerThanTheDefaultTileIsStitchedToItsFullHeight) {
  const Capture shot = shoot(banded_page(17, 1000), 300, 400, CaptureOptions{});
  EXPECT_EQ(shot.tiles, 2);
  EXPECT_EQ(shot.height, 17000);
  expect_bands(decode_png(shot.image), 1000);
}

// The process's peak resident memory so far, in bytes.
std::int64_t peak_rss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;
}

TEST_F(BrowserCapture, AVeryTallPageIsStitchedWithoutEverHoldingItsBitmap) {
  // 2000 × 24000 px is 192 MB as RGBA. The tiles and the result are small PNGs (flat bands) and
  // the stitch goes row by row, so our peak must grow by far less than the bitmap would take.
  constexpr std::int64_t kBitmap = 2000LL * 24000 * 4;
  CaptureOptions options;
  options.tile_height = 4096;
  archive.page("https://shots.test/tall", banded_page(24, 1000));
  auto lease = open("https://shots.test/tall", 2000, 600);
  const std::int64_t before = peak_rss();
  const Capture shot = capture(*extract::surface_of(lease.page()), options, max_wait());
  const std::int64_t growth = peak_rss() - before;
  EXPECT_EQ(shot.tiles, 6);
  ASSERT_EQ(shot.height, 24000);
  EXPECT_LT(growth, kBitmap / 4) << "peak grew by " << growth << " bytes";
  expect_bands(decode_png(shot.image), 1000);  // after the measure: this decode is the bitmap
}

TEST_F(BrowserCapture, ALongPageWithinTheDefaultTileIsOneCaptureKeptAsChromiumEncodedIt) {
  // 16,000 px: two tiles (and a decode and re-encode) with the old 8192 default.
  const Capture shot = shoot(banded_page(16, 1000), 300, 400, CaptureOptions{});
  EXPECT_EQ(shot.tiles, 1);
  EXPECT_EQ(shot.height, 16000);
  expect_bands(decode_png(shot.image), 1000);
}

TEST_F(BrowserCapture, TilesShowThePageExactlyAsOneCaptureDoes) {
  // A fixed header and a 100vh section: layouts that would differ if a tile saw another viewport.
  archive.page("https://shots.test/fixed", R"html(<!doctype html><html><body style="margin:0">
    <div style="position:fixed;top:0;left:0;width:100%;height:50px;background:#f00"></div>
    <div style="height:100vh;background:#0f0"></div>
    <div style="height:4700px;background:linear-gradient(#00f,#ff0)"></div></body></html>)html");
  auto lease = open("https://shots.test/fixed", 400, 300);
  CaptureOptions one_shot;
  one_shot.tile_height = 65536;
  CaptureOptions tiled;
  tiled.tile_height = 2000;
  const Capture whole = capture(*extract::surface_of(lease.page()), one_shot, max_wait());
  const Capture stitched = capture(*extract::surface_of(lease.page()), tiled, max_wait());
  ASSERT_EQ(whole.tiles, 1);
  ASSERT_EQ(stitched.tiles, 3);
  const Image a = decode_png(whole.image);
  const Image b = decode_png(stitched.image);
  ASSERT_EQ(a.height, 5000);
  ASSERT_EQ(b.height, 5000);
  EXPECT_EQ(a.pixel(10, 10), 0xff0000ffu) << "the fixed header, once, at the top";
  EXPECT_EQ(a.pixel(10, 299), 0x00ff00ffu) << "100vh is the viewport's height";
  EXPECT_TRUE(a.rgba == b.rgba) << "tiles differ from the single capture";
}

TEST_F(BrowserCapture, APageBeyondTheMaximumHeightIsCut) {
  CaptureOptions options;
  options.max_height = 2600;
  const Capture shot = shoot(banded_page(20, 500), 300, 400, options);
  EXPECT_TRUE(shot.truncated);
  EXPECT_EQ(shot.height, 2600);
  expect_bands(decode_png(shot.image), 500);
}

TEST_F(BrowserCapture, LazyImagesFarBelowTheViewportAppearInTheCapture) {
  // Two images 4000 px down: one native loading="lazy", one loaded by a script only when it
  // scrolls into view (an IntersectionObserver swapping data-src in, as lazy-load libraries do).
  add_image("red", 0xff0000ffu);
  add_image("blue", 0x0000ffffu);
  archive.page("https://shots.test/lazy", R"(<!doctype html><html><body style="margin:0;background:#fff">
    <div style="height:4000px"></div>
    <img loading="lazy" src="https://shots.test/red.png" width="50" height="50"
         style="position:absolute;left:0;top:4000px">
    <img class="lazy" data-src="https://shots.test/blue.png" width="50" height="50"
         style="position:absolute;left:100px;top:4000px">
    <div style="height:500px"></div>
    <script>
      const observer = new IntersectionObserver((entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) { entry.target.src = entry.target.dataset.src; observer.unobserve(entry.target); }
        }
      });
      document.querySelectorAll('img.lazy').forEach((img) => observer.observe(img));
    </script></body></html>)");
  auto lease = open("https://shots.test/lazy", 400, 300);
  const Capture shot = capture(*extract::surface_of(lease.page()), CaptureOptions{}, max_wait());
  ASSERT_EQ(shot.height, 4500);
  const Image image = decode_png(shot.image);
  EXPECT_EQ(image.pixel(25, 4025), 0xff0000ffu) << "native lazy image";
  EXPECT_EQ(image.pixel(125, 4025), 0x0000ffffu) << "script-loaded lazy image";
  EXPECT_EQ(image.pixel(200, 4025), kWhite);
  EXPECT_GT(shot.scroll_steps, 0) << "the lazy-load markup makes the page scrolled";
  const auto scroll_top = lease->evaluate("window.scrollY", max_wait());
  EXPECT_EQ(scroll_top, 0) << "the page is scrolled back to the top";
}

TEST_F(BrowserCapture, EachFormatIsOneCaptureKeptAsChromiumEncodedIt) {
  const std::string page = banded_page(6, 500);
  for (const auto& [format, magic] :
       {std::pair{ImageFormat::Png, std::string("\x89PNG")},
        std::pair{ImageFormat::Jpeg, std::string("\xff\xd8\xff")},
        std::pair{ImageFormat::Webp, std::string("RIFF")}}) {
    SCOPED_TRACE(std::string(format_name(format)));
    CaptureOptions options;
    options.format = format;
    const Capture shot = shoot(page, 400, 300, options);
    EXPECT_EQ(shot.tiles, 1);
    EXPECT_EQ(shot.format, format);
    EXPECT_EQ(shot.image.substr(0, magic.size()), magic);
    EXPECT_EQ(shot.width, 400);
    EXPECT_EQ(shot.height, 3000);
  }
}

TEST_F(BrowserCapture, QualityReachesChromiumsEncoder) {
  // Noise compresses badly, so the quality shows in the size.
  archive.page("https://shots.test/noise", R"(<!doctype html><html><body style="margin:0">
    <canvas id="c" width="400" height="1000"></canvas><script>
      const g = document.getElementById('c').getContext('2d');
      const d = g.createImageData(400, 1000);
      let x = 1;
      for (let i = 0; i < d.data.length; ++i) { x = (x * 1103515245 + 12345) % 2147483648; d.data[i] = x & 255; }
      for (let i = 3; i < d.data.length; i += 4) d.data[i] = 255;
      g.putImageData(d, 0, 0);
    </script></body></html>)");
  auto lease = open("https://shots.test/noise", 400, 300);
  for (const ImageFormat format : {ImageFormat::Jpeg, ImageFormat::Webp}) {
    SCOPED_TRACE(std::string(format_name(format)));
    CaptureOptions options;
    options.format = format;
    options.quality = 10;
    const std::size_t low = capture(*extract::surface_of(lease.page()), options, max_wait()).image.size();
    options.quality = 95;
    const std::size_t high = capture(*extract::surface_of(lease.page()), options, max_wait()).image.size();
    EXPECT_LT(low * 2, high) << low << " vs " << high << " bytes";
  }
}

TEST_F(BrowserCapture, APageTallerThanOneTileAskedAsJpegIsAStitchedPng) {
  CaptureOptions options;
  options.format = ImageFormat::Jpeg;
  options.tile_height = 2000;
  const Capture shot = shoot(banded_page(11, 500), 500, 400, options);
  EXPECT_EQ(shot.tiles, 3);
  EXPECT_EQ(shot.format, ImageFormat::Png);
  expect_bands(decode_png(shot.image), 500);
}

TEST_F(BrowserCapture, APageWithoutLazyContentIsNotScrolled) {
  // A long page whose images load by themselves: nothing reacts to scrolling, so no steps.
  add_image("red", 0xff0000ffu);
  archive.page("https://shots.test/plain", R"(<!doctype html><html><body style="margin:0;background:#fff">
    <img src="https://shots.test/red.png" width="50" height="50" style="position:absolute;left:0;top:3000px">
    <div style="height:6000px"></div></body></html>)");
  auto lease = open("https://shots.test/plain", 400, 300);
  const Capture shot = capture(*extract::surface_of(lease.page()), CaptureOptions{}, max_wait());
  EXPECT_EQ(shot.scroll_steps, 0);
  ASSERT_EQ(shot.height, 6000);
  EXPECT_EQ(decode_png(shot.image).pixel(25, 3025), 0xff0000ffu);
  EXPECT_EQ(lease->evaluate("window.scrollY", max_wait()), 0) << "the probe scrolled back";
}

TEST_F(BrowserCapture, ObserverDrivenContentWithoutLazyMarkupIsFoundByTheProbe) {
  // No data-src, no "lazy" class: a script swaps each image's source from its own table when it
  // comes into view. The probe at the bottom sees the last image change, so the page is scrolled
  // and the middle one loads as well.
  add_image("white", kWhite);
  add_image("blue", 0x0000ffffu);
  archive.page("https://shots.test/observed", R"(<!doctype html><html><body style="margin:0;background:#fff">
    <img id="middle" src="https://shots.test/white.png" width="50" height="50" style="position:absolute;left:0;top:3000px">
    <img id="bottom" src="https://shots.test/white.png" width="50" height="50" style="position:absolute;left:0;top:5900px">
    <div style="height:6000px"></div>
    <script>
      const real = {middle: 'https://shots.test/blue.png', bottom: 'https://shots.test/blue.png'};
      const observer = new IntersectionObserver((entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) { entry.target.src = real[entry.target.id]; observer.unobserve(entry.target); }
        }
      });
      document.querySelectorAll('img').forEach((img) => observer.observe(img));
    </script></body></html>)");
  auto lease = open("https://shots.test/observed", 400, 300);
  const Capture shot = capture(*extract::surface_of(lease.page()), CaptureOptions{}, max_wait());
  EXPECT_GT(shot.scroll_steps, 0);
  ASSERT_EQ(shot.height, 6000);
  const Image image = decode_png(shot.image);
  EXPECT_EQ(image.pixel(25, 3025), 0x0000ffffu) << "middle image";
  EXPECT_EQ(image.pixel(25, 5925), 0x0000ffffu) << "bottom image";
}

TEST_F(BrowserCapture, ALeasedPageBecomesASignedUrlThatServesItsPng) {
  test::TempDir dir;
  ScreenshotService service(service_config(dir));
  archive.page("https://shots.test/page", banded_page(3, 400));
  auto lease = open("https://shots.test/page", 320, 240);
  const Published published = service.take(*extract::surface_of(lease.page()), ShotRequest{}, max_wait());
  EXPECT_EQ(published.width, 320);
  EXPECT_EQ(published.height, 1200);
  const auto url = test::split_signed_url(published.url);
  const ServeResult served = service.serve(url.file, url.expires, url.sig);
  EXPECT_EQ(served.content_type, "image/png");
  expect_bands(decode_png(served.body), 400);
}

TEST_F(BrowserCapture, JpegAndWebpUrlsKeepTheirSignatureAndServeTheirContentType) {
  test::TempDir dir;
  ScreenshotService service(service_config(dir));
  archive.page("https://shots.test/page", banded_page(3, 400));
  auto lease = open("https://shots.test/page", 320, 240);
  for (const auto& [format, extension, type] :
       {std::tuple{ImageFormat::Jpeg, ".jpg", "image/jpeg"},
        std::tuple{ImageFormat::Webp, ".webp", "image/webp"}}) {
    SCOPED_TRACE(extension);
    const Published published =
        service.take(*extract::surface_of(lease.page()), ShotRequest{true, format, 80}, max_wait());
    EXPECT_EQ(published.format, format);
    EXPECT_EQ(published.width, 320);
    EXPECT_EQ(published.height, 1200);
    const auto url = test::split_signed_url(published.url);
    EXPECT_EQ(url.file, published.id + extension);
    const ServeResult served = service.serve(url.file, url.expires, url.sig);
    EXPECT_EQ(served.content_type, type);
    EXPECT_EQ(inspect_image(served.body).format, format);
    // The same id under another extension, or with the signature altered, is not found.
    EXPECT_THROW(service.serve(published.id + ".png", url.expires, url.sig), Error);
    std::string altered = url.sig;
    altered[0] = altered[0] == '0' ? '1' : '0';
    EXPECT_THROW(service.serve(url.file, url.expires, altered), Error);
  }
}

}  // namespace
}  // namespace gleaner::screenshots
