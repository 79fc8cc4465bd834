#pragma once
// The screenshot service as the rest of gleaner sees it: take a screenshot of a leased page and
// publish it under a signed URL (extract/, for POST /scrape/web), and serve a signed URL
// (api/, GET /screenshots/{file}, a route without API key). Free of HTTP types: api/ wraps
// serve() in a few lines:
//
//   router.add("GET", "/screenshots/{file}", [&](api::Request& request) {
//     auto shot = deps.screenshots->serve(request.path_params.at("file"),
//                                         request.query_value("expires"), request.query_value("sig"));
//     auto response = api::Response::raw(std::move(shot.body), shot.content_type);
//     response.headers["cache-control"] = shot.cache_control;
//     return response;
//   });
#include "core/clock.h"
#include "core/config.h"
#include "screenshots/capture.h"
#include "screenshots/signing.h"
#include "screenshots/store.h"

#include <optional>
#include <string>
#include <string_view>

namespace gleaner::screenshots {

/// A published screenshot.
struct Published {
  /// Absolute, signed: "<public_base_url>/screenshots/<id>.<png|jpg|webp>?expires=<unix>&sig=<hex>".
  std::string url;
  std::string id;
  std::int64_t expires = 0;
  /// The stored format: the asked one, or png for a page stitched from tiles.
  ImageFormat format = ImageFormat::Png;
  int width = 0;
  int height = 0;
};

/// The answer to GET /screenshots/<id>.<png|jpg|webp>.
struct ServeResult {
  std::string body;
  /// image/png, image/jpeg or image/webp, after the file's extension.
  std::string content_type;
  /// "public, max-age=<seconds until expiry>, immutable": the bytes behind a URL never change.
  std::string cache_control;
};

/// Thread-safe: request threads call take(), publish() and serve() at once.
class ScreenshotService {
 public:
  /// Reads the configuration (entries of StoreOptions, CaptureOptions, UrlSigner, and
  /// `public_base_url`, default "http://localhost:<port>" with entry `port`, default 8080), opens
  /// the store (which starts its sweeper). `clock` must outlive the service. Throws
  /// gleaner::Error(Internal) on a bad configuration or an unusable directory.
  explicit ScreenshotService(const Config& config, const Clock& clock = SystemClock::instance());

  /// Screenshots the loaded page of `surface` as `shot` asks and publishes it. Errors as
  /// screenshots::capture() and ScreenshotStore::save().
  Published take(Surface& surface, const ShotRequest& shot, Deadline deadline);

  /// Stores `image` (a PNG, JPEG or WebP, told by its header) and returns its signed URL. Throws
  /// gleaner::Error(Internal) for anything else.
  Published publish(std::string_view image);

  /// The image behind a signed URL: `file` is the last path segment ("<id>.png", "<id>.jpg" or
  /// "<id>.webp"), `expires` and `sig`
  /// the query parameters. Throws gleaner::Error(NotFound) when anything is missing, malformed,
  /// altered or expired, or the file is gone: one answer for all, so a caller learns nothing.
  ServeResult serve(const std::string& file, const std::optional<std::string>& expires,
                    const std::optional<std::string>& sig) const;

  const std::string& public_base_url() const { return public_base_url_; }
  const CaptureOptions& capture_options() const { return capture_options_; }
  ScreenshotStore& store() { return store_; }

 private:
  std::int64_t now_unix() const;

  const Clock& clock_;
  std::string public_base_url_;
  CaptureOptions capture_options_;
  UrlSigner signer_;
  // Declared last: its sweeper thread runs until the service is destroyed.
  ScreenshotStore store_;
};

}  // namespace gleaner::screenshots
