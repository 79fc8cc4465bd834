// A replay archive's index.json (the operator's file, but built by tools from captured pages):
// loading refuses what it cannot use with gleaner::Error, and answering a URL never crashes.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "browser/replay.h"
#include "core/error.h"

namespace {

const std::filesystem::path& archive_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() /
             ("gleaner-fuzz-replay-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::ofstream(d / "page.html") << "<html><body>page</body></html>";
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream index(archive_dir() / "index.json", std::ios::binary | std::ios::trunc);
    index.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    gleaner::browser::ReplayArchive archive(archive_dir().string());
    for (const char* url : {"https://example.com/", "https://example.com/page?q=1",
                            "http://a.test/x/../y", ""}) {
      (void)archive.answer(url);
    }
  } catch (const gleaner::Error&) {
  }
  return 0;
}
