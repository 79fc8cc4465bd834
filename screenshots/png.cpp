#include "screenshots/png.h"

#include "core/error.h"

#include <png.h>

#include <cstdio>
#include <cstring>

namespace gleaner::screenshots {
namespace {

[[noreturn]] void fail(const std::string& detail) {
  throw Error(ErrorCode::Internal, "the screenshot could not be processed", "PNG: " + detail);
}

// libpng reports errors by longjmp. Each function below that calls libpng sets its jump point
// with setjmp() in a frame that holds no object with a destructor, and turns the jump into a C++
// exception only after landing, so no destructor is ever skipped.
struct PngFailure {
  char message[256] = "unknown libpng error";
};

void on_png_error(png_structp png, png_const_charp message) {
  auto* failure = static_cast<PngFailure*>(png_get_error_ptr(png));
  std::snprintf(failure->message, sizeof failure->message, "%s", message);
  png_longjmp(png, 1);
}

// Warnings (unknown chunks, sRGB profile notes) do not affect the pixels we read.
void on_png_warning(png_structp, png_const_charp) {}

struct MemoryInput {
  const unsigned char* data = nullptr;
  std::size_t size = 0;
  std::size_t position = 0;
};

void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
  auto* input = static_cast<MemoryInput*>(png_get_io_ptr(png));
  if (count > input->size - input->position) png_error(png, "PNG data ends early");
  std::memcpy(out, input->data + input->position, count);
  input->position += count;
}

void append_to_string(png_structp png, png_bytep data, png_size_t count) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), count);
}

void flush_nothing(png_structp) {}

// Reads one PNG row by row, converted to 8-bit RGB or RGBA.
class RowReader {
 public:
  explicit RowReader(std::string_view png) {
    input_.data = reinterpret_cast<const unsigned char*>(png.data());
    input_.size = png.size();
    png_ = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure_, on_png_error, on_png_warning);
    if (png_ != nullptr) info_ = png_create_info_struct(png_);
    if (png_ == nullptr || info_ == nullptr) {
      png_destroy_read_struct(&png_, &info_, nullptr);
      fail("out of memory");
    }
    if (!read_header()) {
      png_destroy_read_struct(&png_, &info_, nullptr);  // the destructor does not run after a throw
      fail(failure_.message);
    }
  }
  ~RowReader() { png_destroy_read_struct(&png_, &info_, nullptr); }
  RowReader(const RowReader&) = delete;
  RowReader& operator=(const RowReader&) = delete;

  int width() const { return static_cast<int>(png_get_image_width(png_, info_)); }
  int height() const { return static_cast<int>(png_get_image_height(png_, info_)); }
  bool interlaced() const { return png_get_interlace_type(png_, info_) != PNG_INTERLACE_NONE; }
  bool has_alpha() const {
    return (png_get_color_type(png_, info_) & PNG_COLOR_MASK_ALPHA) != 0 ||
           png_get_valid(png_, info_, PNG_INFO_tRNS) != 0;
  }

  /// Sets the row format read_row() delivers: 8-bit RGBA when `rgba`, else 8-bit RGB.
  void set_output(bool rgba) {
    if (!configure(rgba)) fail(failure_.message);
    const std::size_t expected = static_cast<std::size_t>(width()) * (rgba ? 4 : 3);
    if (png_get_rowbytes(png_, info_) != expected) fail("unexpected row size after conversion");
  }

  void read_row(std::uint8_t* row) {
    if (!read_one_row(row)) fail(failure_.message);
  }

 private:
  bool read_header() {
    if (setjmp(png_jmpbuf(png_))) return false;
    png_set_read_fn(png_, &input_, read_from_memory);
    png_read_info(png_, info_);
    return true;
  }
  bool configure(bool rgba) {
    if (setjmp(png_jmpbuf(png_))) return false;
    png_set_expand(png_);  // palette → RGB, grey below 8 bits → 8 bits, tRNS → alpha
    png_set_strip_16(png_);
    png_set_gray_to_rgb(png_);
    if (rgba && !has_alpha()) png_set_add_alpha(png_, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png_, info_);
    return true;
  }
  bool read_one_row(std::uint8_t* row) {
    if (setjmp(png_jmpbuf(png_))) return false;
    png_read_row(png_, row, nullptr);
    return true;
  }

  PngFailure failure_;
  MemoryInput input_;
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
};

// Writes one 8-bit RGB or RGBA PNG row by row into memory.
class RowWriter {
 public:
  RowWriter(int width, int height, bool rgba, int compression) {
    png_ = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure_, on_png_error, on_png_warning);
    if (png_ != nullptr) info_ = png_create_info_struct(png_);
    if (png_ == nullptr || info_ == nullptr) {
      png_destroy_write_struct(&png_, &info_);
      fail("out of memory");
    }
    if (!write_header(width, height, rgba, compression)) {
      png_destroy_write_struct(&png_, &info_);  // the destructor does not run after a throw
      fail(failure_.message);
    }
  }
  ~RowWriter() { png_destroy_write_struct(&png_, &info_); }
  RowWriter(const RowWriter&) = delete;
  RowWriter& operator=(const RowWriter&) = delete;

  void write_row(const std::uint8_t* row) {
    if (!write_one_row(row)) fail(failure_.message);
  }
  std::string finish() {
    if (!write_end()) fail(failure_.message);
    return std::move(out_);
  }

 private:
  bool write_header(int width, int height, bool rgba, int compression) {
    if (setjmp(png_jmpbuf(png_))) return false;
    png_set_write_fn(png_, &out_, append_to_string, flush_nothing);
    png_set_IHDR(png_, info_, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
                 rgba ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png_, compression);
    png_set_filter(png_, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);  // see encode_png() in png.h
    png_write_info(png_, info_);
    return true;
  }
  bool write_one_row(const std::uint8_t* row) {
    if (setjmp(png_jmpbuf(png_))) return false;
    png_write_row(png_, row);
    return true;
  }
  bool write_end() {
    if (setjmp(png_jmpbuf(png_))) return false;
    png_write_end(png_, nullptr);
    return true;
  }

  PngFailure failure_;
  std::string out_;
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
};

std::uint32_t read_be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

}  // namespace

PngSize png_size(std::string_view png) {
  // Signature (8 bytes), then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4).
  static constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (png.size() < 24 || std::memcmp(png.data(), kSignature, 8) != 0 ||
      png.substr(12, 4) != "IHDR") {
    fail("not a PNG (" + std::to_string(png.size()) + " bytes)");
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(png.data());
  const std::uint32_t width = read_be32(bytes + 16);
  const std::uint32_t height = read_be32(bytes + 20);
  if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff) {
    fail("bad PNG dimensions");
  }
  return {static_cast<int>(width), static_cast<int>(height)};
}

Image::Image(int w, int h, std::uint32_t rgba_colour) : width(w), height(h) {
  rgba.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) set_pixel(x, y, rgba_colour);
  }
}

std::uint32_t Image::pixel(int x, int y) const {
  const std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

void Image::set_pixel(int x, int y, std::uint32_t rgba_colour) {
  std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
  p[0] = static_cast<std::uint8_t>(rgba_colour >> 24);
  p[1] = static_cast<std::uint8_t>(rgba_colour >> 16);
  p[2] = static_cast<std::uint8_t>(rgba_colour >> 8);
  p[3] = static_cast<std::uint8_t>(rgba_colour);
}

Image decode_png(std::string_view png) {
  // libpng's simplified API: handles every colour type and interlacing, and reports errors by
  // return value rather than longjmp.
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, png.data(), png.size()) == 0) {
    fail(image.message);
  }
  image.format = PNG_FORMAT_RGBA;
  Image out;
  out.width = static_cast<int>(image.width);
  out.height = static_cast<int>(image.height);
  out.rgba.resize(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr) == 0) {
    const std::string message = image.message;
    png_image_free(&image);
    fail(message);
  }
  return out;
}

std::string encode_png(const Image& image, int compression) {
  bool opaque = true;
  for (std::size_t i = 3; opaque && i < image.rgba.size(); i += 4) opaque = image.rgba[i] == 0xff;
  RowWriter writer(image.width, image.height, /*rgba=*/!opaque, compression);
  const std::size_t stride = static_cast<std::size_t>(image.width) * 4;
  std::vector<std::uint8_t> rgb(opaque ? static_cast<std::size_t>(image.width) * 3 : 0);
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* row = &image.rgba[y * stride];
    if (opaque) {
      for (int x = 0; x < image.width; ++x) std::memcpy(&rgb[x * 3], row + x * 4, 3);
      row = rgb.data();
    }
    writer.write_row(row);
  }
  return writer.finish();
}

std::string stitch_png(const std::vector<std::string>& tiles, int compression) {
  if (tiles.empty()) fail("no tiles to stitch");
  // First pass, headers only: the result's size and whether it needs an alpha channel.
  int width = 0;
  long long height = 0;
  bool rgba = false;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    RowReader tile(tiles[i]);
    if (i == 0) width = tile.width();
    if (tile.width() != width) {
      fail("tile " + std::to_string(i) + " is " + std::to_string(tile.width()) +
           " pixels wide, tile 0 is " + std::to_string(width));
    }
    if (tile.interlaced()) fail("tile " + std::to_string(i) + " is interlaced");
    height += tile.height();
    rgba = rgba || tile.has_alpha();
  }
  if (height > 0x7fffffff) fail("stitched image too tall");

  RowWriter writer(width, static_cast<int>(height), rgba, compression);
  std::vector<std::uint8_t> row(static_cast<std::size_t>(width) * (rgba ? 4 : 3));
  for (const std::string& bytes : tiles) {
    RowReader tile(bytes);
    tile.set_output(rgba);
    for (int y = 0; y < tile.height(); ++y) {
      tile.read_row(row.data());
      writer.write_row(row.data());
    }
  }
  return writer.finish();
}

}  // namespace gleaner::screenshots
