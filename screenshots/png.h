#pragma once
// PNG helpers over libpng: read a PNG's size from its header, decode and encode whole images
// (tests, small images), and stitch tiles top to bottom one row at a time, so that a tall page
// never needs its whole RGBA bitmap in memory.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::screenshots {

/// Pixel size of a PNG.
struct PngSize {
  int width = 0;
  int height = 0;
};

/// Width and height from the PNG's IHDR chunk, without decoding the image. Throws
/// gleaner::Error(Internal) when `png` does not start with a PNG signature and IHDR.
PngSize png_size(std::string_view png);

/// An 8-bit RGBA image, rows top to bottom, 4 bytes per pixel.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;

  Image() = default;
  /// A width × height image filled with one colour.
  Image(int w, int h, std::uint32_t rgba_colour = 0x000000ff);
  /// The pixel at (x, y) as 0xRRGGBBAA.
  std::uint32_t pixel(int x, int y) const;
  void set_pixel(int x, int y, std::uint32_t rgba_colour);
};

/// Decodes any PNG (palette, grey, 16-bit, interlaced, with or without alpha) to 8-bit RGBA.
/// Throws gleaner::Error(Internal) on a damaged PNG.
Image decode_png(std::string_view png);

/// zlib level of the PNGs we encode. With the Sub filter (below) level 3 encodes a 1366 × 14516
/// page in about 0.4 s of CPU into 4.7 MB, where the defaults (level 6, adaptive filters) take
/// 1.3 s for 4.7 MB and level 1 0.26 s for 6.1 MB (docs/screenshots.md, "Costs").
inline constexpr int kDefaultPngCompression = 3;

/// Encodes `image` at zlib level `compression` (0-9): RGB when every pixel is opaque, else RGBA.
/// Every row uses the Sub filter: on screenshots it compresses as well as libpng's adaptive choice
/// at half the CPU.
std::string encode_png(const Image& image, int compression = kDefaultPngCompression);

/// Joins PNG `tiles` top to bottom into one PNG whose height is the sum of theirs. Every tile must
/// have the same width (gleaner::Error(Internal) otherwise, or when a tile is damaged or
/// interlaced). The result is RGB, or RGBA when any tile has transparency. Rows are decoded and
/// written one at a time: memory is the compressed tiles, the compressed result and one row.
std::string stitch_png(const std::vector<std::string>& tiles,
                       int compression = kDefaultPngCompression);

}  // namespace gleaner::screenshots
