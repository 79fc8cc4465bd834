#include "tests/store/store_fixture.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

namespace gleaner::store::testing {

namespace {

/// Deletes the directory when the process exits normally (a crashed test leaves it in /tmp).
struct TempDir {
  TempDir() {
    char pattern[] = "/tmp/gleaner-store-test-XXXXXX";
    if (!mkdtemp(pattern)) throw std::system_error(errno, std::generic_category(), "mkdtemp");
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path path;
};

}  // namespace

const std::filesystem::path& process_temp_dir() {
  static TempDir dir;
  return dir.path;
}

std::string SqliteBackend::new_store_spec() {
  static std::atomic<int> next{0};
  return "sqlite:" + (process_temp_dir() / ("store-" + std::to_string(++next) + ".db")).string();
}

Config store_config(const std::string& spec, const std::string& node_id) {
  Config config;
  config.set("store", spec);
  config.set("node_id", node_id);
  config.set("reservation_ttl_seconds", kTtlSeconds);
  return config;
}

ErrorCode error_code_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "expected a gleaner::Error";
  return ErrorCode::Internal;
}

}  // namespace gleaner::store::testing
