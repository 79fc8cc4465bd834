#pragma once
// Small helpers shared by the screenshot tests: a temporary directory, polling with the suite's
// one maximum wait, and PNG tiles of one colour.
#include "core/clock.h"
#include "core/ids.h"
#include "screenshots/png.h"

#include <filesystem>
#include <functional>
#include <string>
#include <thread>

namespace gleaner::screenshots::test {

/// The longest any unit test of this suite waits for anything (only reached when broken).
inline constexpr Millis kMaxWait{10000};

/// A fresh directory under the system's temporary directory, removed with its content.
class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() / ("gleaner-shots-" + random_hex(8))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// Polls `condition` until it holds or kMaxWait passes.
inline bool eventually(const std::function<bool()>& condition) {
  const Deadline deadline = deadline_in(kMaxWait);
  while (!condition()) {
    if (SteadyClock::now() >= deadline) return false;
    std::this_thread::sleep_for(Millis(5));
  }
  return true;
}

/// The parts of a signed URL ".../screenshots/<id>.<png|jpg|webp>?expires=<n>&sig=<hex>".
struct SignedUrlParts {
  std::string file;  ///< "<id>.png", "<id>.jpg" or "<id>.webp"
  std::string id;
  std::string expires;
  std::string sig;
};

inline SignedUrlParts split_signed_url(const std::string& url) {
  const auto slash = url.rfind('/');
  const auto question = url.find("?expires=", slash);
  const auto amp = url.find("&sig=", question);
  if (slash == std::string::npos || question == std::string::npos || amp == std::string::npos) {
    return {};
  }
  const std::string file = url.substr(slash + 1, question - slash - 1);
  return {file, file.substr(0, file.find('.')), url.substr(question + 9, amp - question - 9),
          url.substr(amp + 5)};
}

/// A width × height PNG of one colour (0xRRGGBBAA).
inline std::string solid_png(int width, int height, std::uint32_t colour) {
  return encode_png(Image(width, height, colour));
}

}  // namespace gleaner::screenshots::test
