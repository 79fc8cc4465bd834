// The screenshot store on a temporary directory with a FakeClock: saving, loading, expiry (by the
// sweep, at start, on the sweeper thread, and across a restart), the disk bound, and files that are
// not the store's.
#include "screenshots/store.h"

#include "core/error.h"
#include "screenshots/signing.h"
#include "tests/screenshots/helpers.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

namespace gleaner::screenshots {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using test::eventually;

// 2027-01-15T08:00:00Z
const auto kStart = std::chrono::system_clock::time_point(std::chrono::seconds(1800000000));

struct StoreTest : ::testing::Test {
  test::TempDir dir;
  FakeClock clock{kStart};

  StoreOptions options() const {
    StoreOptions o;
    o.dir = dir.path() / "shots";
    o.ttl = 168h;
    o.sweep_interval = 1h;  // tests sweep by hand unless they shorten it
    return o;
  }
  std::size_t files() const {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path() / "shots")) ++n;
    return n;
  }
};

TEST_F(StoreTest, SavesUnderARandomIdAndLoadsTheSameBytes) {
  ScreenshotStore store(options(), clock);
  const std::string png = test::solid_png(3, 3, 0xff0000ff);
  const StoredScreenshot saved = store.save(png);
  EXPECT_TRUE(valid_id(saved.id));
  EXPECT_EQ(saved.expires, 1800000000 + 168 * 3600);
  EXPECT_EQ(saved.bytes, png.size());
  EXPECT_EQ(store.path_of(saved.id, saved.expires).filename().string(),
            std::to_string(saved.expires) + "-" + saved.id + ".png");
  EXPECT_TRUE(fs::exists(store.path_of(saved.id, saved.expires)));
  EXPECT_EQ(store.load(saved.id, saved.expires), png);
  EXPECT_EQ(store.used_bytes(), png.size());
  EXPECT_EQ(files(), 1u) << "no temporary file is left behind";

  std::set<std::string> ids{saved.id};
  for (int i = 0; i < 20; ++i) ids.insert(store.save(png).id);
  EXPECT_EQ(ids.size(), 21u);
}

TEST_F(StoreTest, LoadRefusesOtherExpiriesMalformedIdsAndMissingFiles) {
  ScreenshotStore store(options(), clock);
  const StoredScreenshot saved = store.save("png bytes");
  EXPECT_FALSE(store.load(saved.id, saved.expires + 1));
  EXPECT_FALSE(store.load("../" + saved.id.substr(3), saved.expires));
  EXPECT_FALSE(store.load(random_hex(16), saved.expires));
}

TEST_F(StoreTest, AnExpiredScreenshotIsNotServedEvenBeforeTheSweep) {
  ScreenshotStore store(options(), clock);
  const StoredScreenshot saved = store.save("png bytes");
  clock.advance(168h - 1s);
  EXPECT_TRUE(store.load(saved.id, saved.expires));
  clock.advance(1s);
  EXPECT_FALSE(store.load(saved.id, saved.expires));
}

TEST_F(StoreTest, SweepDeletesOnlyWhatHasExpired) {
  ScreenshotStore store(options(), clock);
  const StoredScreenshot old_one = store.save("old");
  clock.advance(100h);
  const StoredScreenshot new_one = store.save("newer");

  EXPECT_EQ(store.sweep().expired, 0u);
  clock.advance(68h);  // the old one's expiry
  const SweepResult result = store.sweep();
  EXPECT_EQ(result.expired, 1u);
  EXPECT_EQ(result.bytes_left, 5u);
  EXPECT_FALSE(fs::exists(store.path_of(old_one.id, old_one.expires)));
  EXPECT_TRUE(fs::exists(store.path_of(new_one.id, new_one.expires)));
  EXPECT_EQ(store.used_bytes(), 5u);
}

TEST_F(StoreTest, JpegAndWebpFilesAreKeptCountedAndExpiredLikePngs) {
  StoredScreenshot jpeg;
  StoredScreenshot webp;
  {
    ScreenshotStore store(options(), clock);
    jpeg = store.save("jpeg bytes", ImageFormat::Jpeg);
    webp = store.save("webp", ImageFormat::Webp);
    EXPECT_EQ(store.path_of(jpeg.id, jpeg.expires, ImageFormat::Jpeg).filename().string(),
              std::to_string(jpeg.expires) + "-" + jpeg.id + ".jpg");
    EXPECT_EQ(store.load(jpeg.id, jpeg.expires, ImageFormat::Jpeg), "jpeg bytes");
    EXPECT_EQ(store.load(jpeg.id, jpeg.expires), std::nullopt) << "not under another extension";
    EXPECT_EQ(files(), 2u) << "no temporary file is left behind";
  }
  ScreenshotStore reopened(options(), clock);
  EXPECT_EQ(reopened.used_bytes(), 14u) << "the opening sweep counts them as the store's";
  EXPECT_EQ(reopened.load(webp.id, webp.expires, ImageFormat::Webp), "webp");
  clock.advance(169h);
  EXPECT_EQ(reopened.sweep().expired, 2u);
  EXPECT_EQ(files(), 0u);
}

TEST_F(StoreTest, ARestartedStoreKeepsServingAndExpiringEarlierFiles) {
  StoredScreenshot saved;
  StoredScreenshot later;
  {
    ScreenshotStore store(options(), clock);
    saved = store.save("first");
    clock.advance(24h);
    later = store.save("second");
  }
  clock.advance(24h);
  {
    ScreenshotStore reopened(options(), clock);
    EXPECT_EQ(reopened.load(saved.id, saved.expires), "first");
    EXPECT_EQ(reopened.used_bytes(), 11u) << "the opening sweep counts the files already there";
  }
  clock.advance(120h);  // the first one's expiry has passed, the second's has not
  ScreenshotStore reopened(options(), clock);  // the opening sweep deletes it
  EXPECT_FALSE(fs::exists(reopened.path_of(saved.id, saved.expires)));
  EXPECT_EQ(reopened.load(later.id, later.expires), "second");
}

TEST_F(StoreTest, TheSweeperThreadDeletesExpiredFilesByItself) {
  StoreOptions o = options();
  o.sweep_interval = 10ms;
  ScreenshotStore store(o, clock);
  const StoredScreenshot saved = store.save("soon gone");
  const fs::path file = store.path_of(saved.id, saved.expires);
  clock.advance(169h);
  EXPECT_TRUE(eventually([&] { return !fs::exists(file); }));
}

TEST_F(StoreTest, OverTheDiskBoundTheFilesExpiringFirstGoFirst) {
  StoreOptions o = options();
  o.max_bytes = 2500;
  ScreenshotStore store(o, clock);
  std::vector<StoredScreenshot> saved;
  for (int i = 0; i < 3; ++i) {
    saved.push_back(store.save(std::string(1000, 'x')));
    clock.advance(1h);
  }
  // The third save went over the bound and woke the sweeper.
  EXPECT_TRUE(eventually([&] { return store.used_bytes() <= 2500; }));
  EXPECT_FALSE(fs::exists(store.path_of(saved[0].id, saved[0].expires)));
  EXPECT_TRUE(fs::exists(store.path_of(saved[1].id, saved[1].expires)));
  EXPECT_TRUE(fs::exists(store.path_of(saved[2].id, saved[2].expires)));

  saved.push_back(store.save(std::string(1000, 'y')));
  const SweepResult result = store.sweep();
  EXPECT_EQ(result.bytes_left, 2000u);
  EXPECT_FALSE(fs::exists(store.path_of(saved[1].id, saved[1].expires)));
}

TEST_F(StoreTest, LeavesForeignFilesAloneAndRemovesStaleTemporaryFiles) {
  ScreenshotStore store(options(), clock);
  const fs::path shots = dir.path() / "shots";
  std::ofstream(shots / "README") << "not a screenshot";
  std::ofstream(shots / "1-nothex.png") << "not ours either";
  std::ofstream(shots / ".tmp-fresh.png") << "a write in progress";
  std::ofstream(shots / ".tmp-stale.png") << "left by a crash";
  fs::last_write_time(shots / ".tmp-stale.png", fs::file_time_type::clock::now() - 2h);
  clock.advance(10000h);
  store.sweep();
  EXPECT_TRUE(fs::exists(shots / "README"));
  EXPECT_TRUE(fs::exists(shots / "1-nothex.png"));
  EXPECT_TRUE(fs::exists(shots / ".tmp-fresh.png"));
  EXPECT_FALSE(fs::exists(shots / ".tmp-stale.png"));
}

TEST(StoreOptions, DefaultsAndEntries) {
  Config defaults;
  const StoreOptions d = StoreOptions::from_config(defaults);
  EXPECT_EQ(d.dir, fs::path("./data/screenshots"));
  EXPECT_EQ(d.ttl, 168h);
  EXPECT_EQ(d.max_bytes, 0u);

  Config config;
  config.set("data_dir", "/var/lib/gleaner");
  EXPECT_EQ(StoreOptions::from_config(config).dir, fs::path("/var/lib/gleaner/screenshots"));
  config.set("screenshots_dir", "/srv/shots");
  config.set("screenshot_ttl_hours", 24);
  config.set("screenshots_max_bytes", 1000000);
  const StoreOptions o = StoreOptions::from_config(config);
  EXPECT_EQ(o.dir, fs::path("/srv/shots"));
  EXPECT_EQ(o.ttl, 24h);
  EXPECT_EQ(o.max_bytes, 1000000u);

  config.set("screenshot_ttl_hours", 0);
  EXPECT_THROW(StoreOptions::from_config(config), Error);
}

}  // namespace
}  // namespace gleaner::screenshots
