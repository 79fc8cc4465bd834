#include "screenshots/capture.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/log.h"
#include "gleaner_screenshots_embedded.h"
#include "screenshots/png.h"

namespace gleaner::screenshots {
namespace {

using Json = nlohmann::json;

// Time kept back for the capture itself when the lazy-content budget is cut to fit the deadline.
constexpr double kLazyShareOfTimeLeft = 0.5;

[[noreturn]] void unusable(const std::string& detail) {
  throw Error(ErrorCode::Internal, "the screenshot could not be taken", detail);
}

int int_entry(const Config& config, const std::string& entry, int fallback, int minimum,
              int maximum) {
  const long long value = config.get_int(entry, fallback);
  if (value < minimum || value > maximum) {
    throw Error(ErrorCode::Internal, "invalid configuration",
                entry + " must be between " + std::to_string(minimum) + " and " +
                    std::to_string(maximum) + ", not " + std::to_string(value));
  }
  return static_cast<int>(value);
}

std::string base64_decode(const std::string& text) {
  if (text.size() % 4 != 0) unusable("screenshot data is not base64 (length)");
  std::string out(text.size() / 4 * 3, '\0');
  const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(text.data()),
                                      static_cast<int>(text.size()));
  if (written < 0) unusable("screenshot data is not base64");
  // EVP_DecodeBlock counts the bytes of '=' padding as zero bytes.
  std::size_t size = static_cast<std::size_t>(written);
  for (std::size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --size;
  out.resize(size);
  return out;
}

// One capture in `format`; `clip` absent captures the viewport.
std::string capture_one(Surface& surface, const CaptureOptions& options, ImageFormat format,
                        const Clip* clip, Deadline deadline) {
  Shot shot;
  shot.format = format;
  shot.optimize_for_speed = options.optimize_for_speed;
  if (takes_quality(format)) shot.quality = options.quality;
  if (clip != nullptr) shot.clip = *clip;
  const std::string data = surface.capture_base64(shot, deadline);
  if (data.empty()) unusable("the browser gave no screenshot data");
  return base64_decode(data);
}

// Runs prepare.js; returns its result. An exception in the page is logged and the capture goes on
// (a page that breaks our scroll still deserves a screenshot); the device pixel ratio is then 1.
Json prepare_page(Surface& surface, const CaptureOptions& options, Deadline deadline) {
  const auto left = time_left(deadline);
  const auto budget = std::min(options.lazy_budget,
                               Millis(static_cast<long long>(left.count() * kLazyShareOfTimeLeft)));
  const Json args = {{"scroll", options.trigger_lazy && budget.count() > 0},
                     {"maxSteps", options.max_scroll_steps},
                     {"maxHeight", options.max_height},
                     {"budgetMs", budget.count()}};
  const std::string expression = "(" + std::string(scripts::prepare_js) + ")(" + args.dump() + ")";
  Json value;
  try {
    value = surface.evaluate_isolated(expression, deadline);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Internal) throw;
    log::warn("screenshots") << "preparing the page failed, capturing as it is: " << e.what()
                             << " " << e.detail();
    return {{"devicePixelRatio", 1.0}};
  }
  return value.is_object() ? value : Json{{"devicePixelRatio", 1.0}};
}

// Fills format, width and height from the image's header, which also checks that Chromium's
// answer is an image of the kind asked.
void describe(Capture& capture) {
  const ImageInfo info = inspect_image(capture.image);
  capture.format = info.format;
  capture.width = info.width;
  capture.height = info.height;
}

// Milliseconds since `mark`, which moves to now.
Millis lap(SteadyClock::time_point& mark) {
  const auto now = SteadyClock::now();
  const auto elapsed = std::chrono::duration_cast<Millis>(now - mark);
  mark = now;
  return elapsed;
}

Capture full_page(Surface& surface, const CaptureOptions& options, Deadline deadline) {
  Capture capture;
  auto mark = SteadyClock::now();
  const Json prepared = prepare_page(surface, options, deadline);
  capture.timings.prepare = lap(mark);
  const double device_pixel_ratio = std::max(0.1, prepared.value("devicePixelRatio", 1.0));

  const Clip content = surface.content_size(deadline);
  capture.timings.metrics = lap(mark);
  const double content_width = content.width;
  const double content_height = content.height;
  if (!(content_width >= 1 && content_height >= 1)) {
    unusable("the page has no content size: " + std::to_string(content_width) + "x" +
             std::to_string(content_height));
  }

  // Whole CSS pixels, so that with a device pixel ratio of 1 every tile is a whole number of rows.
  const double width = std::min(std::ceil(content_width), static_cast<double>(options.max_width));
  const double height =
      std::min(std::ceil(content_height), static_cast<double>(options.max_height));
  capture.truncated = width < content_width || height < content_height;
  if (capture.truncated) {
    log::info("screenshots") << "page of " << content_width << "x" << content_height
                             << " CSS px cut to " << width << "x" << height;
  }

  const double tile_css_height =
      std::max(1.0, std::floor(options.tile_height / device_pixel_ratio));
  const std::vector<Clip> clips = plan_tiles(width, height, tile_css_height);
  capture.tiles = static_cast<int>(clips.size());
  if (clips.size() == 1) {
    // The common case: Chromium's bytes as they are, no decoding or re-encoding.
    capture.image = capture_one(surface, options, options.format, &clips[0], deadline);
    capture.timings.capture = lap(mark);
  } else {
    // Stitched row by row with libpng, which only writes PNG (and WebP cannot be taller than
    // 16383 px anyway).
    if (options.format != ImageFormat::Png) {
      log::info("screenshots") << "page of " << height << " CSS px is " << clips.size()
                               << " tiles: stored as png, not " << format_name(options.format);
    }
    std::vector<std::string> tiles;
    tiles.reserve(clips.size());
    for (const Clip& clip : clips) {
      tiles.push_back(capture_one(surface, options, ImageFormat::Png, &clip, deadline));
    }
    capture.timings.capture = lap(mark);
    if (time_left(deadline).count() == 0) {
      throw Error(ErrorCode::Timeout, "the screenshot could not be taken in time",
                  "deadline passed after capturing " + std::to_string(clips.size()) + " tiles");
    }
    capture.image = stitch_png(tiles, options.png_compression);
    capture.timings.stitch = lap(mark);
  }
  describe(capture);
  capture.scroll_steps = prepared.value("steps", 0);
  capture.timings.prepare_in_page = Millis(prepared.value("elapsedMs", 0LL));
  capture.lazy = prepared.value("lazy", std::string("unknown"));
  capture.pending_images = prepared.value("pendingImages", 0);
  // The debug line is ScreenshotService::take()'s, with the time the file took to write.
  return capture;
}

}  // namespace

CaptureOptions CaptureOptions::from_config(const Config& config) {
  CaptureOptions options;
  options.max_height = int_entry(config, "screenshot_max_height", options.max_height, 1, 1000000);
  options.max_width = int_entry(config, "screenshot_max_width", options.max_width, 1, 100000);
  options.tile_height =
      int_entry(config, "screenshot_tile_height", options.tile_height, 256, 65536);
  options.trigger_lazy = config.get_bool("screenshot_lazy_load", options.trigger_lazy);
  options.lazy_budget = Millis(int_entry(config, "screenshot_lazy_budget_ms",
                                         static_cast<int>(options.lazy_budget.count()), 0, 300000));
  options.max_scroll_steps =
      int_entry(config, "screenshot_max_scroll_steps", options.max_scroll_steps, 0, 10000);
  options.optimize_for_speed =
      config.get_bool("screenshot_optimize_for_speed", options.optimize_for_speed);
  options.png_compression =
      int_entry(config, "screenshot_png_compression", options.png_compression, 0, 9);
  return options;
}

std::vector<Clip> plan_tiles(double width, double height, double tile_css_height) {
  std::vector<Clip> clips;
  for (double y = 0; y < height; y += tile_css_height) {
    clips.push_back({0, y, width, std::min(tile_css_height, height - y)});
  }
  return clips;
}

Capture capture(Surface& surface, const CaptureOptions& options, Deadline deadline) {
  if (options.full_page) return full_page(surface, options, deadline);
  Capture capture;
  capture.image = capture_one(surface, options, options.format, nullptr, deadline);
  describe(capture);
  return capture;
}

}  // namespace gleaner::screenshots
