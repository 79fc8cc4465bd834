#pragma once
// Taking a screenshot (PNG, JPEG or WebP, encoded by Chromium) of a loaded page, through the small
// Surface interface below (extract/pool_tabs.cpp answers it over DevTools, the unit tests with a
// scripted page): screenshots/ knows nothing of the browser or of DevTools.
//
// Viewport: one Page.captureScreenshot of what the viewport shows.
// Full page: first the page's lazy content is triggered (loading="lazy" made eager; scrolled
// through in viewport steps, one rendered frame each, only when the page shows script-driven lazy
// content; pending images awaited; bounded in time and steps), then the content size is read (Page.getLayoutMetrics) and captured beyond the viewport.
// A page that fits in one tile is captured once, in the asked format, and Chromium's bytes are
// kept as they are; a taller one is captured tile by tile as PNG and the tiles are stitched with
// libpng row by row (screenshots/png.h), so it is a PNG whatever the asked format.
// Pages taller (or wider) than the configured maximum are cut there.
#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/config.h"
#include "screenshots/format.h"
#include "screenshots/png.h"

#include <optional>
#include <string>
#include <vector>

namespace gleaner::screenshots {

struct CaptureOptions {
  /// The whole page (true) or only the viewport.
  bool full_page = true;
  /// Request field `screenshotFormat` (default png): Chromium's encoding of a one-capture image.
  ImageFormat format = ImageFormat::Png;
  /// Request field `screenshotQuality` (0-100), JPEG and WebP only; absent: Chromium's default.
  std::optional<int> quality;
  /// Entry `screenshot_max_height` (CSS px, default 30000): a full page is cut at this height.
  int max_height = 30000;
  /// Entry `screenshot_max_width` (CSS px, default 4096): a full page is cut at this width.
  int max_width = 4096;
  /// Entry `screenshot_tile_height` (device px, default 16384): the tallest single capture. A
  /// page up to this height is one capture whose bytes are kept as Chromium encoded them (16384
  /// is the largest texture side Chromium's compositor commonly allows, and holds the long real
  /// pages measured: 16,105 px was two tiles at 8192). Taller pages are taken in tiles of this
  /// height and stitched row by row; it bounds the memory one capture takes in Chromium (a
  /// 1366 px wide tile of 16384 rows is 90 MB of pixels) and how long the browser is busy.
  int tile_height = 16384;
  /// Entry `screenshot_lazy_load` (default true): trigger lazy content before a full-page capture.
  bool trigger_lazy = true;
  /// Entry `screenshot_lazy_budget_ms` (default 3000): the most time spent triggering lazy
  /// content (also at most half of what is left before the deadline).
  Millis lazy_budget{3000};
  /// Entry `screenshot_max_scroll_steps` (default 40): the most viewport-sized scroll steps.
  int max_scroll_steps = 40;
  /// Entry `screenshot_optimize_for_speed` (default true): Chromium encodes its PNGs with its fast
  /// encoder (Page.captureScreenshot optimizeForSpeed): about twice as fast, about twice as big.
  bool optimize_for_speed = true;
  /// Entry `screenshot_png_compression` (zlib level 0-9, default 3): for stitched PNGs only.
  int png_compression = kDefaultPngCompression;

  /// Reads the entries above (full_page, format and quality keep their defaults: they are
  /// per-request choices). Throws
  /// gleaner::Error(Internal) for values out of range.
  static CaptureOptions from_config(const Config& config);
};

/// A screenshot.
struct Capture {
  /// The encoded image, as Chromium encoded it when it is one capture.
  std::string image;
  /// The asked format, or PNG when the page was stitched from tiles.
  ImageFormat format = ImageFormat::Png;
  /// Pixel size of the image.
  int width = 0;
  int height = 0;
  /// Page.captureScreenshot calls it took (1 unless stitched).
  int tiles = 1;
  /// True when the page was taller or wider than the maximum and was cut.
  bool truncated = false;
  /// Viewport-sized scroll steps taken to trigger lazy content: 0 when the page showed no sign
  /// of script-driven lazy content (prepare.js).
  int scroll_steps = 0;
  /// Where a full-page capture's time went, wall clock, for the debug log line of
  /// ScreenshotService::take() (docs/benchmarks.md reads it). Zero for a viewport capture.
  struct Timings {
    /// prepare.js as gleaner waited for it (Runtime.evaluate), and as the page measured it.
    Millis prepare{0};
    Millis prepare_in_page{0};
    /// Page.getLayoutMetrics.
    Millis metrics{0};
    /// The Page.captureScreenshot calls (Chromium's paint and encoding, the transfer), with base64
    /// decoding.
    Millis capture{0};
    /// Stitching the tiles with libpng (0 for one capture).
    Millis stitch{0};
  } timings;
  /// prepare.js's verdict on lazy content: "none", "markup", "probe"; "unknown" when it threw,
  /// empty for a viewport capture.
  std::string lazy;
  /// Images still loading when the page was captured.
  int pending_images = 0;
};

/// One capture's clip rectangle, in CSS px of the page.
struct Clip {
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
};

/// One capture asked of the page.
struct Shot {
  ImageFormat format = ImageFormat::Png;
  /// JPEG and WebP only.
  std::optional<int> quality;
  /// The browser's fast PNG encoder (CaptureOptions::optimize_for_speed).
  bool optimize_for_speed = true;
  /// The area, beyond the viewport if need be; absent: what the viewport shows.
  std::optional<Clip> clip;
};

/// What a capture needs of a loaded page.
class Surface {
 public:
  virtual ~Surface() = default;
  /// Runs `expression` in a world of its own on the top frame (promises awaited), so a page that
  /// replaced scrollTo or requestAnimationFrame does not change how it runs, and returns its
  /// value. Throws gleaner::Error(Internal) when it threw in the page, Timeout at the deadline.
  virtual nlohmann::json evaluate_isolated(const std::string& expression, Deadline deadline) = 0;
  /// The size of the page's content in CSS px, {width, height} (zero when unknown).
  virtual Clip content_size(Deadline deadline) = 0;
  /// One capture: the image as the browser encoded it, base64 (as DevTools hands it over; empty
  /// when the browser gave none). Throws gleaner::Error(Timeout) at the deadline.
  virtual std::string capture_base64(const Shot& shot, Deadline deadline) = 0;
};

/// The clips that cover a `width` × `height` (CSS px) area top to bottom, each at most
/// `tile_css_height` tall (the last one shorter). One clip when the area fits in one.
std::vector<Clip> plan_tiles(double width, double height, double tile_css_height);

/// Screenshots the (loaded) page of `surface`. Throws gleaner::Error(Timeout) when `deadline`
/// passes, gleaner::Error(Internal) when the browser's answer is unusable, and what the surface
/// throws when the page or browser goes away.
Capture capture(Surface& surface, const CaptureOptions& options, Deadline deadline);

}  // namespace gleaner::screenshots
