#include "screenshots/store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"
#include "screenshots/signing.h"

namespace gleaner::screenshots {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTemporaryPrefix = ".tmp-";
// A temporary file this old was left by a crashed write (a save takes milliseconds).
constexpr auto kTemporaryFileAge = std::chrono::hours(1);

long long positive_entry(const Config& config, const std::string& entry, long long fallback,
                         long long minimum) {
  const long long value = config.get_int(entry, fallback);
  if (value < minimum) {
    throw Error(
        ErrorCode::Internal, "invalid configuration",
        entry + " must be at least " + std::to_string(minimum) + ", not " + std::to_string(value));
  }
  return value;
}

/// Parses "<expires>-<id>.<extension of a format>"; nullopt for any other name.
std::optional<StoredScreenshot> parse_file_name(std::string_view name) {
  const std::size_t dash = name.find('-');
  if (dash == std::string_view::npos || name.size() < dash + 1 + kIdLength + 1 ||
      name[dash + 1 + kIdLength] != '.') {
    return std::nullopt;
  }
  const auto expires = parse_expires(name.substr(0, dash));
  const std::string_view id = name.substr(dash + 1, kIdLength);
  const auto format = format_of_extension(name.substr(dash + 1 + kIdLength + 1));
  if (!expires || !valid_id(id) || !format) return std::nullopt;
  return StoredScreenshot{std::string(id), *expires, 0, *format};
}

std::string file_suffix(ImageFormat format) {
  return "." + std::string(format_extension(format));
}

struct Found {
  StoredScreenshot screenshot;
  fs::path path;
};

}  // namespace

StoreOptions StoreOptions::from_config(const Config& config) {
  StoreOptions options;
  const std::string data_dir = config.get_string("data_dir", "./data");
  options.dir = config.get_string("screenshots_dir", data_dir + "/screenshots");
  options.ttl = std::chrono::hours(positive_entry(config, "screenshot_ttl_hours", 168, 1));
  options.max_bytes =
      static_cast<std::uint64_t>(positive_entry(config, "screenshots_max_bytes", 0, 0));
  options.sweep_interval =
      std::chrono::seconds(positive_entry(config, "screenshot_sweep_interval_s", 300, 1));
  return options;
}

ScreenshotStore::ScreenshotStore(StoreOptions options, const Clock& clock)
    : options_(std::move(options)), clock_(clock) {
  std::error_code error;
  fs::create_directories(options_.dir, error);
  if (error || !fs::is_directory(options_.dir)) {
    throw Error(ErrorCode::Internal, "the screenshot directory is unusable",
                options_.dir.string() + ": " + (error ? error.message() : "not a directory"));
  }
  sweep();
  sweeper_ = std::thread([this] { run_sweeper(); });
}

ScreenshotStore::~ScreenshotStore() {
  {
    std::lock_guard lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  sweeper_.join();
}

std::int64_t ScreenshotStore::now_unix() const {
  return std::chrono::duration_cast<std::chrono::seconds>(clock_.now().time_since_epoch()).count();
}

fs::path ScreenshotStore::path_of(std::string_view id, std::int64_t expires,
                                  ImageFormat format) const {
  return options_.dir / (std::to_string(expires) + "-" + std::string(id) + file_suffix(format));
}

StoredScreenshot ScreenshotStore::save(std::string_view image, ImageFormat format) {
  StoredScreenshot saved{random_hex(kIdLength / 2), now_unix() + options_.ttl.count(), image.size(),
                         format};
  const fs::path final_path = path_of(saved.id, saved.expires, format);
  const fs::path temporary =
      options_.dir / (std::string(kTemporaryPrefix) + saved.id + file_suffix(format));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(image.data(), static_cast<std::streamsize>(image.size()));
    out.close();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw Error(ErrorCode::Internal, "the screenshot could not be stored",
                  "writing " + temporary.string() + ": " + reason);
    }
  }
  std::error_code error;
  fs::rename(temporary, final_path, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw Error(ErrorCode::Internal, "the screenshot could not be stored",
                "renaming to " + final_path.string() + ": " + error.message());
  }
  const std::uint64_t used = used_bytes_ += image.size();
  if (options_.max_bytes > 0 && used > options_.max_bytes) {
    // Eviction scans the directory: the sweeper does it, not the request that saved.
    {
      std::lock_guard lock(wake_mutex_);
      sweep_requested_ = true;
    }
    wake_.notify_all();
  }
  return saved;
}

std::optional<std::string> ScreenshotStore::load(std::string_view id, std::int64_t expires,
                                                 ImageFormat format) const {
  if (!valid_id(id) || expires <= now_unix()) return std::nullopt;
  std::ifstream in(path_of(id, expires, format), std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  const std::streamoff size = in.tellg();
  if (size < 0) return std::nullopt;
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size)) return std::nullopt;  // deleted or cut while we read
  return bytes;
}

SweepResult ScreenshotStore::sweep() {
  std::lock_guard sweeping(sweep_mutex_);
  const std::int64_t now = now_unix();
  SweepResult result;
  std::vector<Found> alive;
  std::error_code error;
  for (fs::directory_iterator it(options_.dir, error), end; !error && it != end;
       it.increment(error)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    std::error_code ignored;
    if (name.starts_with(kTemporaryPrefix)) {
      const auto modified = fs::last_write_time(path, ignored);
      if (!ignored && fs::file_time_type::clock::now() - modified > kTemporaryFileAge) {
        fs::remove(path, ignored);
      }
      continue;
    }
    auto screenshot = parse_file_name(name);
    if (!screenshot) continue;  // not ours: left alone
    if (screenshot->expires <= now) {
      // Another node sharing the directory may have removed it already: that counts as done.
      fs::remove(path, ignored);
      ++result.expired;
      continue;
    }
    const auto size = fs::file_size(path, ignored);
    if (ignored) continue;  // removed meanwhile
    screenshot->bytes = size;
    result.bytes_left += size;
    alive.push_back({std::move(*screenshot), path});
  }
  if (error) {
    log::warn("screenshots") << "cannot list " << options_.dir.string() << ": " << error.message();
  }

  if (options_.max_bytes > 0 && result.bytes_left > options_.max_bytes) {
    // The first to expire go first: with one TTL these are the oldest.
    std::sort(alive.begin(), alive.end(), [](const Found& a, const Found& b) {
      return std::tie(a.screenshot.expires, a.screenshot.id) <
             std::tie(b.screenshot.expires, b.screenshot.id);
    });
    for (const Found& found : alive) {
      if (result.bytes_left <= options_.max_bytes) break;
      std::error_code ignored;
      fs::remove(found.path, ignored);
      result.bytes_left -= found.screenshot.bytes;
      ++result.evicted;
    }
  }
  used_bytes_ = result.bytes_left;
  if (result.expired > 0 || result.evicted > 0) {
    log::info("screenshots") << "sweep removed " << result.expired << " expired and "
                             << result.evicted << " over the disk bound; " << result.bytes_left
                             << " bytes left";
  }
  return result;
}

void ScreenshotStore::run_sweeper() {
  std::unique_lock lock(wake_mutex_);
  while (true) {
    wake_.wait_for(lock, options_.sweep_interval, [&] { return stopping_ || sweep_requested_; });
    if (stopping_) return;
    sweep_requested_ = false;
    lock.unlock();
    try {
      sweep();
    } catch (const std::exception& e) {
      log::error("screenshots") << "sweep failed: " << describe(e);
    }
    lock.lock();
  }
}

}  // namespace gleaner::screenshots
