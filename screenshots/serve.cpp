#include "screenshots/serve.h"

#include "core/error.h"
#include "core/log.h"
#include "screenshots/png.h"

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

Published ScreenshotService::take(cdp::Session& session, bool full_page, Deadline deadline) {
  CaptureOptions options = capture_options_;
  options.full_page = full_page;
  return publish(capture(session, options, deadline).png);
}

Published ScreenshotService::publish(std::string_view png) {
  const PngSize size = png_size(png);
  const StoredScreenshot stored = store_.save(png);
  return {signer_.signed_url(public_base_url_, stored.id, stored.expires), stored.id,
          stored.expires, size.width, size.height};
}

ServeResult ScreenshotService::serve(const std::string& file,
                                     const std::optional<std::string>& expires,
                                     const std::optional<std::string>& sig) const {
  constexpr std::string_view kSuffix = ".png";
  if (!file.ends_with(kSuffix)) not_found("not a .png name");
  const std::string_view id = std::string_view(file).substr(0, file.size() - kSuffix.size());
  if (!expires || !sig) not_found("expires or sig missing");
  const std::int64_t now = now_unix();
  if (!signer_.verify(id, *expires, *sig, now)) not_found("bad, altered or expired signature");
  // verify() accepted *expires, so it parses.
  const std::int64_t when = *parse_expires(*expires);
  auto bytes = store_.load(id, when);
  if (!bytes) not_found("no file for a validly signed URL (deleted to fit the disk bound?)");
  ServeResult result;
  result.body = std::move(*bytes);
  result.cache_control = "public, max-age=" + std::to_string(when - now) + ", immutable";
  return result;
}

}  // namespace gleaner::screenshots
