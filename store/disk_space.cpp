#include "store/disk_space.h"

#include <sys/statvfs.h>

#include "store/store.h"

namespace gleaner::store {
namespace {

constexpr long long kDefaultMinFreeDiskBytes = 1'000'000'000;

}  // namespace

std::optional<std::uint64_t> free_disk_bytes(const std::string& path) {
  struct statvfs fs {};
  if (statvfs(path.c_str(), &fs) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_frsize);
}

DiskWatch DiskWatch::from_config(const Config& config) {
  const long long min_free = config.get_int("min_free_disk_bytes", kDefaultMinFreeDiskBytes);
  if (min_free < 0) Config::refuse("min_free_disk_bytes", "may not be negative");
  return DiskWatch(store_directory(config), static_cast<std::uint64_t>(min_free));
}

bool DiskWatch::low() const {
  if (min_free_ == 0) return false;
  const auto free = free_bytes();
  return free && *free < min_free_;
}

}  // namespace gleaner::store
