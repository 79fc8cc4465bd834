#include "screenshots/serve.h"

#include "core/error.h"
#include "core/log.h"

namespace gleaner::screenshots {
namespace {

std::string base_url_from(const Config& config) {
  std::string base = config.get_string(
      "public_base_url", "http://localhost:" + std::to_string(config.get_int("port", 8080)));
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (!base.starts_with("http://") && !base.starts_with("https://")) {
    throw Error(ErrorCode::Internal, "invalid configuration",
                "public_base_url must be an absolute http(s) URL, not \"" + base + "\"");
  }
  return base;
}

// One error for every failure, so a caller cannot tell a wrong signature from a missing file.
[[noreturn]] void not_found(const std::string& why) {
  throw Error(ErrorCode::NotFound, "screenshot not found", why);
}

}  // namespace

ScreenshotService::ScreenshotService(const Config& config, const Clock& clock)
    : clock_(clock),
      public_base_url_(base_url_from(config)),
      capture_options_(CaptureOptions::from_config(config)),
      signer_(UrlSigner::from_config(config)),
      store_(StoreOptions::from_config(config), clock) {}

std::int64_t ScreenshotService::now_unix() const {
  return std::chrono::duration_cast<std::chrono::seconds>(clock_.now().time_since_epoch()).count();
}

Published ScreenshotService::take(Surface& surface, const ShotRequest& shot,
                                  Deadline deadline) {
  CaptureOptions options = capture_options_;
  options.full_page = shot.full_page;
  options.format = shot.format;
  options.quality = shot.quality;
  const Capture shot_taken = capture(surface, options, deadline);
  const auto before_write = SteadyClock::now();
  Published published = publish(shot_taken.image);
  if (log::enabled(log::Level::Debug) && options.full_page) {
    // One line per screenshot with where its time went (bench/web/phases.mjs parses it).
    const auto& t = shot_taken.timings;
    const auto write =
        std::chrono::duration_cast<Millis>(SteadyClock::now() - before_write).count();
    log::debug("screenshots") << "full page " << published.id << " " << shot_taken.width << "x"
                              << shot_taken.height << " px " << format_name(shot_taken.format)
                              << " " << shot_taken.image.size() << " bytes: prepare "
                              << t.prepare.count() << " ms (in page " << t.prepare_in_page.count()
                              << " ms, " << shot_taken.scroll_steps << " scroll steps, lazy "
                              << shot_taken.lazy << ", " << shot_taken.pending_images
                              << " images still loading), metrics " << t.metrics.count()
                              << " ms, capture " << t.capture.count() << " ms (" << shot_taken.tiles
                              << " tiles), stitch " << t.stitch.count() << " ms, write " << write
                              << " ms";
  }
  return published;
}

Published ScreenshotService::publish(std::string_view image) {
  const ImageInfo info = inspect_image(image);
  const StoredScreenshot stored = store_.save(image, info.format);
  return {signer_.signed_url(public_base_url_, stored.id, stored.expires, info.format),
          stored.id,
          stored.expires,
          info.format,
          info.width,
          info.height};
}

ServeResult ScreenshotService::serve(const std::string& file,
                                     const std::optional<std::string>& expires,
                                     const std::optional<std::string>& sig) const {
  const std::size_t dot = file.rfind('.');
  const auto format =
      dot == std::string::npos ? std::nullopt : format_of_extension(file.substr(dot + 1));
  if (!format) not_found("not a .png, .jpg or .webp name");
  const std::string_view id = std::string_view(file).substr(0, dot);
  if (!expires || !sig) not_found("expires or sig missing");
  const std::int64_t now = now_unix();
  if (!signer_.verify(id, *expires, *sig, now)) not_found("bad, altered or expired signature");
  // verify() accepted *expires, so it parses.
  const std::int64_t when = *parse_expires(*expires);
  auto bytes = store_.load(id, when, *format);
  if (!bytes) not_found("no file for a validly signed URL (deleted to fit the disk bound?)");
  ServeResult result;
  result.body = std::move(*bytes);
  result.content_type = format_content_type(*format);
  result.cache_control = "public, max-age=" + std::to_string(when - now) + ", immutable";
  return result;
}

}  // namespace gleaner::screenshots
