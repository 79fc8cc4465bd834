#include "core/config.h"

#include <gtest/gtest.h>

#include <stdexcept>

using gleaner::Config;
using nlohmann::json;

TEST(Config, FileValuesAndFallbacks) {
  Config c(json{{"port", 9000}, {"replay_dir", "/x"}, {"allow_private_addresses", true}}, {});
  EXPECT_EQ(c.get_int("port", 8080), 9000);
  EXPECT_EQ(c.get_int("absent", 7), 7);
  EXPECT_EQ(c.get_string("replay_dir", ""), "/x");
  EXPECT_TRUE(c.get_bool("allow_private_addresses", false));
  EXPECT_FALSE(c.has("absent"));
}

TEST(Config, EnvironmentOverridesFileAndSetOverridesBoth) {
  Config c(json{{"port", 9000}}, {{"GLEANER_PORT", "9100"}});
  EXPECT_EQ(c.get_int("port", 8080), 9100);
  c.set("port", 9200);
  EXPECT_EQ(c.get_int("port", 8080), 9200);
}

TEST(Config, EnvironmentListIsOneItemPerLine) {
  Config c(json::object(), {{"GLEANER_CHROMIUM_FLAGS", "--a=1\n--b\r\n\n--c"}});
  EXPECT_EQ(c.get_string_list("chromium_flags"), (std::vector<std::string>{"--a=1", "--b", "--c"}));
}

TEST(Config, BadValuesNameTheEntry) {
  Config c(json{{"port", "eighty"}}, {{"GLEANER_WORKERS", "3x"}, {"GLEANER_FLAG", "maybe"}});
  EXPECT_THROW(c.get_int("port", 1), std::invalid_argument);
  try {
    c.get_int("workers", 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("GLEANER_WORKERS"), std::string::npos);
  }
  EXPECT_THROW(c.get_bool("flag", false), std::invalid_argument);
}

TEST(Config, JsonEntriesFromEnvironment) {
  Config c(json::object(), {{"GLEANER_COSTS", R"({"web": 5})"}});
  EXPECT_EQ(c.get_json("costs")["web"], 5);
  EXPECT_TRUE(c.get_json("absent").is_null());
}
