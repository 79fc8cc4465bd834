#pragma once
// Screenshots on disk, each with an expiry after which it is deleted.
//
// A screenshot is one file, <dir>/<expires>-<id>.<png|jpg|webp>: <expires> in unix seconds, <id> 32
// random hex digits, the extension its format. The name carries everything the store needs, so a restarted service (or another node
// sharing the directory) serves and expires files written before without any index. Files are
// written under a temporary name and renamed into place, so a reader never sees half a file.
//
// A sweeper deletes expired files when the store opens and then periodically on its own thread;
// with a disk bound, it also deletes the files that expire first until the total fits.
#include "core/clock.h"
#include "core/config.h"
#include "screenshots/format.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace gleaner::screenshots {

struct StoreOptions {
  /// Entry `screenshots_dir`; default <data_dir>/screenshots (entry `data_dir`, default ./data).
  std::filesystem::path dir = "./data/screenshots";
  /// Entry `screenshot_ttl_hours` (default 168, 7 days): how long a screenshot is served.
  std::chrono::seconds ttl = std::chrono::hours(168);
  /// Entry `screenshots_max_bytes` (default 0: no bound): the files expiring first are deleted
  /// when the directory holds more than this.
  std::uint64_t max_bytes = 0;
  /// Entry `screenshot_sweep_interval_s` (default 300): time between two sweeps.
  std::chrono::milliseconds sweep_interval = std::chrono::seconds(300);

  /// Reads the entries above. Throws gleaner::Error(Internal) for values out of range.
  static StoreOptions from_config(const Config& config);
};

/// A stored screenshot: what a signed URL names.
struct StoredScreenshot {
  std::string id;
  /// Unix seconds; served while now < expires.
  std::int64_t expires = 0;
  std::uint64_t bytes = 0;
  ImageFormat format = ImageFormat::Png;
};

/// What one sweep did.
struct SweepResult {
  /// Files removed because they had expired.
  std::size_t expired = 0;
  /// Files removed (before their expiry) to keep within max_bytes.
  std::size_t evicted = 0;
  /// Bytes of screenshots left in the directory.
  std::uint64_t bytes_left = 0;
};

class ScreenshotStore {
 public:
  /// Creates the directory, sweeps once, and starts the sweeper. `clock` (wall time, for expiries)
  /// must outlive the store. Throws gleaner::Error(Internal) when the directory is unusable.
  ScreenshotStore(StoreOptions options, const Clock& clock);
  /// Stops the sweeper and joins it.
  ~ScreenshotStore();
  ScreenshotStore(const ScreenshotStore&) = delete;
  ScreenshotStore& operator=(const ScreenshotStore&) = delete;

  /// Writes `image` (encoded in `format`) under a new random id, expiring ttl from now. Throws
  /// gleaner::Error(Internal) when the disk write fails.
  StoredScreenshot save(std::string_view image, ImageFormat format = ImageFormat::Png);

  /// The bytes of screenshot `id` in `format` with expiry `expires`, or nullopt when the id is malformed, the
  /// expiry has passed (even if the sweeper has not run yet) or there is no such file.
  std::optional<std::string> load(std::string_view id, std::int64_t expires,
                                  ImageFormat format = ImageFormat::Png) const;

  /// Deletes expired files (and, with max_bytes, the files expiring first beyond it) now; also
  /// removes temporary files left by a crash. The sweeper calls this; tests may too.
  SweepResult sweep();

  /// Bytes of screenshots in the directory: exact after a sweep, plus what was saved since.
  std::uint64_t used_bytes() const { return used_bytes_.load(); }
  const StoreOptions& options() const { return options_; }

  /// The file that holds screenshot `id` expiring at `expires` (no check that it exists).
  std::filesystem::path path_of(std::string_view id, std::int64_t expires,
                                ImageFormat format = ImageFormat::Png) const;

 private:
  void run_sweeper();
  std::int64_t now_unix() const;

  const StoreOptions options_;
  const Clock& clock_;
  std::atomic<std::uint64_t> used_bytes_{0};

  std::mutex sweep_mutex_;  // serializes sweep() (sweeper thread and direct callers)

  std::mutex wake_mutex_;  // guards stopping_, sweep_requested_
  std::condition_variable wake_;
  bool stopping_ = false;
  bool sweep_requested_ = false;

  // Declared last: runs run_sweeper() over the members above until the destructor joins it.
  std::thread sweeper_;
};

}  // namespace gleaner::screenshots
