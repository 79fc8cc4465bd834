#pragma once
// The image formats a screenshot can be stored in: what Chromium encodes (Page.captureScreenshot
// format), the request's names for them (and the request's screenshot choices, ShotRequest),
// their file extensions and content types, and reading an image's pixel size from its header
// whatever the format.
#include <optional>
#include <string_view>

namespace gleaner::screenshots {

enum class ImageFormat { Png, Jpeg, Webp };

/// "png", "jpeg", "webp": the request's `screenshotFormat` values and Chromium's names.
std::string_view format_name(ImageFormat format);
/// The file extension, without the dot: "png", "jpg", "webp".
std::string_view format_extension(ImageFormat format);
/// "image/png", "image/jpeg", "image/webp".
std::string_view format_content_type(ImageFormat format);
/// The format named `name` (format_name's spelling); nullopt for any other.
std::optional<ImageFormat> parse_format(std::string_view name);
/// The format whose extension is `extension` (without the dot); nullopt for any other.
std::optional<ImageFormat> format_of_extension(std::string_view extension);
/// Whether the format takes a quality (0-100): JPEG and WebP.
bool takes_quality(ImageFormat format);

/// What a request asks of its screenshot.
struct ShotRequest {
  /// `screenshotFullPage`: the whole page (default) or the viewport.
  bool full_page = true;
  /// `screenshotFormat`: png (default), jpeg or webp.
  ImageFormat format = ImageFormat::Png;
  /// `screenshotQuality` (0-100), jpeg and webp only.
  std::optional<int> quality;
};

/// What an image's header says.
struct ImageInfo {
  ImageFormat format = ImageFormat::Png;
  int width = 0;
  int height = 0;
};

/// The format and pixel size read from the header of a PNG, a JPEG (its first frame header) or a
/// WebP (VP8, VP8L or VP8X). Throws gleaner::Error(Internal) when `bytes` is none of them.
ImageInfo inspect_image(std::string_view bytes);

}  // namespace gleaner::screenshots
