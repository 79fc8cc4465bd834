#pragma once
// The free space of the disk the store writes to (docs/store.md "Sizes"): a full disk takes
// SQLite, and with it every account, down, so new jobs and their rows are refused while the
// disk holding the store has less than `min_free_disk_bytes` free, and GET /health says so.
#include <cstdint>
#include <optional>
#include <string>

#include "core/config.h"

namespace gleaner::store {

/// Bytes free on the file system holding `path` for an unprivileged writer (statvfs: f_bavail
/// blocks of f_frsize); none when it cannot be read (the path is gone).
std::optional<std::uint64_t> free_disk_bytes(const std::string& path);

class DiskWatch {
 public:
  /// Watches the file system of directory `dir`; low while fewer than `min_free` bytes are free.
  DiskWatch(std::string dir, std::uint64_t min_free) : dir_(std::move(dir)), min_free_(min_free) {}

  /// The store's directory (store_directory()) and entry `min_free_disk_bytes` (default 1 GB;
  /// 0: never low).
  static DiskWatch from_config(const Config& config);

  /// Whether the disk has less free room than min_free() (asked anew at every call: a statvfs
  /// costs microseconds). A disk whose free space cannot be read is not called low.
  bool low() const;
  std::optional<std::uint64_t> free_bytes() const { return free_disk_bytes(dir_); }
  std::uint64_t min_free() const { return min_free_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::uint64_t min_free_;
};

}  // namespace gleaner::store
