#include "screenshots/format.h"

#include <array>
#include <string>

#include "core/error.h"
#include "screenshots/png.h"

namespace gleaner::screenshots {
namespace {

struct Known {
  ImageFormat format;
  std::string_view name;
  std::string_view extension;
  std::string_view content_type;
};

constexpr std::array<Known, 3> kKnown = {{
    {ImageFormat::Png, "png", "png", "image/png"},
    {ImageFormat::Jpeg, "jpeg", "jpg", "image/jpeg"},
    {ImageFormat::Webp, "webp", "webp", "image/webp"},
}};

const Known& known(ImageFormat format) {
  return kKnown[static_cast<std::size_t>(format)];
}

[[noreturn]] void not_an_image(const std::string& why) {
  throw Error(ErrorCode::Internal, "the screenshot could not be taken", why);
}

unsigned byte_at(std::string_view bytes, std::size_t i) {
  return static_cast<unsigned char>(bytes[i]);
}

// JPEG: segments after SOI (FF D8); the first start-of-frame (C0-CF except C4, C8, CC) holds
// precision (1 byte), height (2), width (2), big-endian.
ImageInfo jpeg_info(std::string_view bytes) {
  std::size_t at = 2;
  while (at + 4 <= bytes.size()) {
    if (byte_at(bytes, at) != 0xff) not_an_image("JPEG segment without a marker");
    const unsigned marker = byte_at(bytes, at + 1);
    if (marker == 0xff) {  // fill byte
      ++at;
      continue;
    }
    const std::size_t length = byte_at(bytes, at + 2) << 8 | byte_at(bytes, at + 3);
    const bool frame =
        marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
    if (frame) {
      if (at + 9 > bytes.size()) break;
      return {ImageFormat::Jpeg,
              static_cast<int>(byte_at(bytes, at + 7) << 8 | byte_at(bytes, at + 8)),
              static_cast<int>(byte_at(bytes, at + 5) << 8 | byte_at(bytes, at + 6))};
    }
    at += 2 + length;
  }
  not_an_image("JPEG without a frame header");
}

// WebP: "RIFF" <size> "WEBP", then the first chunk: "VP8 " (lossy: 14-bit sizes after a 3-byte
// frame tag and the start code 9D 01 2A), "VP8L" (lossless: signature 2F, then 14-bit sizes
// minus one, packed) or "VP8X" (extended: 24-bit canvas sizes minus one).
ImageInfo webp_info(std::string_view bytes) {
  if (bytes.size() < 30) not_an_image("WebP too short");
  const std::string_view chunk = bytes.substr(12, 4);
  const auto u16 = [&](std::size_t i) { return byte_at(bytes, i) | byte_at(bytes, i + 1) << 8; };
  const auto u24 = [&](std::size_t i) { return u16(i) | byte_at(bytes, i + 2) << 16; };
  if (chunk == "VP8 ") {
    return {ImageFormat::Webp, static_cast<int>(u16(26) & 0x3fff),
            static_cast<int>(u16(28) & 0x3fff)};
  }
  if (chunk == "VP8L") {
    const unsigned bits = u24(21) | byte_at(bytes, 24) << 24;
    return {ImageFormat::Webp, static_cast<int>((bits & 0x3fff) + 1),
            static_cast<int>(((bits >> 14) & 0x3fff) + 1)};
  }
  if (chunk == "VP8X") {
    return {ImageFormat::Webp, static_cast<int>(u24(24) + 1), static_cast<int>(u24(27) + 1)};
  }
  not_an_image("WebP with an unknown first chunk");
}

}  // namespace

std::string_view format_name(ImageFormat format) {
  return known(format).name;
}
std::string_view format_extension(ImageFormat format) {
  return known(format).extension;
}
std::string_view format_content_type(ImageFormat format) {
  return known(format).content_type;
}

std::optional<ImageFormat> parse_format(std::string_view name) {
  for (const Known& k : kKnown) {
    if (k.name == name) return k.format;
  }
  return std::nullopt;
}

std::optional<ImageFormat> format_of_extension(std::string_view extension) {
  for (const Known& k : kKnown) {
    if (k.extension == extension) return k.format;
  }
  return std::nullopt;
}

bool takes_quality(ImageFormat format) {
  return format != ImageFormat::Png;
}

ImageInfo inspect_image(std::string_view bytes) {
  if (bytes.size() >= 3 && byte_at(bytes, 0) == 0xff && byte_at(bytes, 1) == 0xd8) {
    return jpeg_info(bytes);
  }
  if (bytes.size() >= 12 && bytes.substr(0, 4) == "RIFF" && bytes.substr(8, 4) == "WEBP") {
    return webp_info(bytes);
  }
  const PngSize size = png_size(bytes);  // throws for anything else
  return {ImageFormat::Png, size.width, size.height};
}

}  // namespace gleaner::screenshots
