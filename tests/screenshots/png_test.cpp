// PNG helpers: sizes from the header, round trips, and stitching tiles of known colours, including
// tiles in other colour types than the RGB Chromium sends.
#include "screenshots/png.h"

#include "core/error.h"
#include "tests/screenshots/helpers.h"

#include <gtest/gtest.h>
#include <png.h>

#include <cstring>

namespace gleaner::screenshots {
namespace {

using test::solid_png;

constexpr std::uint32_t kRed = 0xff0000ff;
constexpr std::uint32_t kGreen = 0x00ff00ff;
constexpr std::uint32_t kBlue = 0x0000ffff;

// A PNG in another pixel format, written with libpng's simplified API.
std::string png_in_format(int width, int height, png_uint_32 format,
                          const std::vector<std::uint8_t>& pixels) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = format;
  png_alloc_size_t size = 0;
  EXPECT_NE(png_image_write_to_memory(&image, nullptr, &size, 0, pixels.data(), 0, nullptr), 0);
  std::string out(size, '\0');
  EXPECT_NE(png_image_write_to_memory(&image, out.data(), &size, 0, pixels.data(), 0, nullptr), 0);
  out.resize(size);
  return out;
}

// The colour type byte of a PNG's IHDR (2 = RGB, 6 = RGBA).
int colour_type(const std::string& png) { return static_cast<unsigned char>(png[25]); }

TEST(PngSize, ReadsWidthAndHeightFromTheHeader) {
  const PngSize size = png_size(solid_png(7, 3, kRed));
  EXPECT_EQ(size.width, 7);
  EXPECT_EQ(size.height, 3);
}

TEST(PngSize, RefusesWhatIsNotAPng) {
  EXPECT_THROW(png_size(""), Error);
  EXPECT_THROW(png_size("GIF89a and then some more bytes to pass the length"), Error);
  std::string cut = solid_png(4, 4, kRed).substr(0, 20);
  EXPECT_THROW(png_size(cut), Error);
}

TEST(Png, EncodeThenDecodeKeepsEveryPixel) {
  Image image(5, 4, kRed);
  image.set_pixel(0, 0, kGreen);
  image.set_pixel(4, 3, 0x12345678);
  const Image back = decode_png(encode_png(image));
  ASSERT_EQ(back.width, 5);
  ASSERT_EQ(back.height, 4);
  EXPECT_EQ(back.rgba, image.rgba);
}

TEST(Png, DecodeRefusesDamagedData) {
  std::string png = solid_png(16, 16, kRed);
  png.resize(png.size() / 2);
  EXPECT_THROW(decode_png(png), Error);
  EXPECT_THROW(decode_png("not a png"), Error);
}

TEST(Stitch, ThreeTilesOfKnownColoursMakeOneImageWithEachBandAtItsRows) {
  const std::string png =
      stitch_png({solid_png(6, 3, kRed), solid_png(6, 5, kGreen), solid_png(6, 2, kBlue)});
  const PngSize size = png_size(png);
  EXPECT_EQ(size.width, 6);
  EXPECT_EQ(size.height, 10);
  EXPECT_EQ(colour_type(png), PNG_COLOR_TYPE_RGB) << "opaque tiles make an RGB image";
  const Image image = decode_png(png);
  for (int y = 0; y < 10; ++y) {
    const std::uint32_t expected = y < 3 ? kRed : (y < 8 ? kGreen : kBlue);
    for (int x = 0; x < 6; ++x) ASSERT_EQ(image.pixel(x, y), expected) << x << "," << y;
  }
}

TEST(Stitch, KeepsEveryPixelOfDetailedTiles) {
  Image top(9, 4), bottom(9, 3);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 9; ++x) top.set_pixel(x, y, 0x01020300u * static_cast<std::uint32_t>(x + 9 * y) | 0xff);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 9; ++x) bottom.set_pixel(x, y, 0x30201000u + static_cast<std::uint32_t>(x * 7 + y) * 0x100 + 0xff);
  const Image stitched = decode_png(stitch_png({encode_png(top), encode_png(bottom)}));
  ASSERT_EQ(stitched.height, 7);
  for (int y = 0; y < 7; ++y)
    for (int x = 0; x < 9; ++x)
      ASSERT_EQ(stitched.pixel(x, y), y < 4 ? top.pixel(x, y) : bottom.pixel(x, y - 4));
}

TEST(Stitch, OneTranslucentTileMakesTheResultRgbaAndKeepsItsAlpha) {
  const std::string png = stitch_png({solid_png(3, 2, kRed), solid_png(3, 2, 0x00ff0080)});
  EXPECT_EQ(colour_type(png), PNG_COLOR_TYPE_RGB_ALPHA);
  const Image image = decode_png(png);
  EXPECT_EQ(image.pixel(1, 0), kRed);
  EXPECT_EQ(image.pixel(1, 3), 0x00ff0080u);
}

TEST(Stitch, ConvertsGreyAndRgbTilesToOneFormat) {
  const std::string grey = png_in_format(2, 2, PNG_FORMAT_GRAY, {0x80, 0x80, 0x80, 0x80});
  const std::string rgb =
      png_in_format(2, 1, PNG_FORMAT_RGB, {0x10, 0x20, 0x30, 0x10, 0x20, 0x30});
  const Image image = decode_png(stitch_png({grey, rgb}));
  ASSERT_EQ(image.height, 3);
  EXPECT_EQ(image.pixel(0, 0), 0x808080ffu);
  EXPECT_EQ(image.pixel(1, 2), 0x102030ffu);
}

TEST(Stitch, RefusesTilesOfDifferentWidths) {
  try {
    stitch_png({solid_png(6, 3, kRed), solid_png(5, 3, kRed)});
    FAIL() << "tiles of different widths were stitched";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
    EXPECT_NE(e.detail().find("wide"), std::string::npos) << e.detail();
  }
}

TEST(Stitch, RefusesNoTilesAndDamagedTiles) {
  EXPECT_THROW(stitch_png({}), Error);
  std::string damaged = solid_png(40, 40, kRed);
  damaged.resize(damaged.size() - 30);  // the image data ends early
  EXPECT_THROW(stitch_png({solid_png(40, 2, kRed), damaged}), Error);
}

}  // namespace
}  // namespace gleaner::screenshots
