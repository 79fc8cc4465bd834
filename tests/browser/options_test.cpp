// PoolOptions from configuration: defaults, file entries, environment overrides, bad values.
#include "browser/pool.h"
#include "browser/process.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

namespace gleaner::browser {
namespace {

TEST(PoolOptions, DefaultsWhenNothingIsConfigured) {
  PoolOptions o = PoolOptions::from_config(Config(nlohmann::json::object(), {}));
  EXPECT_EQ(o.processes, 2);
  EXPECT_EQ(o.pages_per_process, 4);
  EXPECT_EQ(o.recycle_after_pages, 500);
  EXPECT_EQ(o.memory_limit_mb, 2048u);
  EXPECT_EQ(o.warm_pages, 2);
  EXPECT_FALSE(o.paint_every_page);
  EXPECT_EQ(o.device_idle, Millis(300000));
  EXPECT_TRUE(o.extra_flags.empty());
  EXPECT_TRUE(o.replay_dir.empty());
  EXPECT_GT(o.lease_wait.count(), 0);
  EXPECT_FALSE(o.chromium_path.empty());
}

TEST(PoolOptions, FileEntriesAreRead) {
  Config config(nlohmann::json{{"chromium_path", "/opt/chrome"},
                               {"browser_processes", 3},
                               {"pages_per_process", 7},
                               {"lease_wait_ms", 1500},
                               {"recycle_after_pages", 20},
                               {"browser_memory_limit_mb", 900},
                               {"chromium_flags", {"--lang=de", "--force-dark-mode"}},
                               {"replay_dir", "/data/replay"},
                               {"health_check_interval_ms", 250},
                               {"health_check_timeout_ms", 100},
                               {"health_check_misses", 5},
                               {"warm_pages", 0},
                               {"paint_every_page", true},
                               {"device_browsers_idle_ms", 60000},
                               {"browser_launch_timeout_ms", 5000},
                               {"browser_close_grace_ms", 300}},
                {});
  PoolOptions o = PoolOptions::from_config(config);
  EXPECT_EQ(o.chromium_path, "/opt/chrome");
  EXPECT_EQ(o.processes, 3);
  EXPECT_EQ(o.pages_per_process, 7);
  EXPECT_EQ(o.lease_wait, Millis(1500));
  EXPECT_EQ(o.recycle_after_pages, 20);
  EXPECT_EQ(o.memory_limit_mb, 900u);
  EXPECT_EQ(o.extra_flags, (std::vector<std::string>{"--lang=de", "--force-dark-mode"}));
  EXPECT_EQ(o.replay_dir, "/data/replay");
  EXPECT_EQ(o.health_interval, Millis(250));
  EXPECT_EQ(o.health_timeout, Millis(100));
  EXPECT_EQ(o.health_misses, 5);
  EXPECT_EQ(o.warm_pages, 0);
  EXPECT_TRUE(o.paint_every_page);
  EXPECT_EQ(o.device_idle, Millis(60000));
  EXPECT_EQ(o.launch_timeout, Millis(5000));
  EXPECT_EQ(o.close_grace, Millis(300));
}

TEST(PoolOptions, EnvironmentOverridesTheFileWithOneFlagPerLine) {
  Config config(nlohmann::json{{"chromium_flags", {"--from-file"}}, {"browser_processes", 3}},
                {{"GLEANER_CHROMIUM_FLAGS", "--lang=fr\n--host-resolver-rules=MAP * 127.0.0.1\n"},
                 {"GLEANER_BROWSER_PROCESSES", "5"}});
  PoolOptions o = PoolOptions::from_config(config);
  EXPECT_EQ(o.extra_flags,
            (std::vector<std::string>{"--lang=fr", "--host-resolver-rules=MAP * 127.0.0.1"}));
  EXPECT_EQ(o.processes, 5);
}

TEST(PoolOptions, OutOfRangeValuesAreRefusedNamingTheEntry) {
  for (const char* entry : {"browser_processes", "pages_per_process"}) {
    Config config(nlohmann::json{{entry, 0}}, {});
    try {
      PoolOptions::from_config(config);
      ADD_FAILURE() << entry << " = 0 was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(entry), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(PoolOptions::from_config(Config(nlohmann::json{{"lease_wait_ms", -1}}, {})),
               std::invalid_argument);
  EXPECT_THROW(PoolOptions::from_config(Config({}, {{"GLEANER_WARM_PAGES", "many"}})),
               std::invalid_argument);
}

TEST(ChromiumFlags, StandardFlagsKeepChromiumQuietAndHeadless) {
  auto flags = standard_chromium_flags();
  auto has = [&](const std::string& flag) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  };
  for (const char* flag :
       {"--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--remote-debugging-port=0",
        "--disable-quic", "--disable-sync", "--mute-audio", "--hide-scrollbars",
        "--disable-extensions", "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"})
    EXPECT_TRUE(has(flag)) << flag;
  // The sandbox needs user namespaces that root does not get; it stays on otherwise.
  EXPECT_EQ(has("--no-sandbox"), ::geteuid() == 0);
}

TEST(ChromiumFlags, FeatureListsAreJoinedNotReplaced) {
  auto merged = merge_feature_flags({"--headless", "--disable-features=Translate,MediaRouter",
                                     "--enable-features=A", "--lang=de",
                                     "--disable-features=MediaRouter,BackForwardCache"});
  EXPECT_EQ(merged, (std::vector<std::string>{
                        "--headless", "--disable-features=Translate,MediaRouter,BackForwardCache",
                        "--enable-features=A", "--lang=de"}));
  // Blink's runtime features too: a phone's browser keeps AutomationControlled off.
  EXPECT_EQ(merge_feature_flags({"--disable-blink-features=AutomationControlled",
                                 "--enable-blink-features=OrientationEvent",
                                 "--disable-blink-features=SharedWorker"}),
            (std::vector<std::string>{"--disable-blink-features=AutomationControlled,SharedWorker",
                                      "--enable-blink-features=OrientationEvent"}));
  // Exactly one of each survives in the standard set plus configured extras.
  auto flags = standard_chromium_flags();
  flags.push_back("--disable-features=SomethingElse");
  auto joined = merge_feature_flags(flags);
  auto lists = std::count_if(joined.begin(), joined.end(), [](const std::string& f) {
    return f.rfind("--disable-features=", 0) == 0;
  });
  EXPECT_EQ(lists, 1);
  auto list = *std::find_if(joined.begin(), joined.end(), [](const std::string& f) {
    return f.rfind("--disable-features=", 0) == 0;
  });
  EXPECT_NE(list.find("site-per-process"), std::string::npos);
  EXPECT_NE(list.find("SomethingElse"), std::string::npos);
}

}  // namespace
}  // namespace gleaner::browser
