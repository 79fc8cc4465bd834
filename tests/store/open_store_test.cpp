// open_store(): which database the configuration names, and what it refuses.
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

namespace fs = std::filesystem;

TEST(OpenStore, TheDefaultIsSqliteUnderTheDataDirectory) {
  const fs::path data = process_temp_dir() / "default-data" / "nested";
  Config config;
  config.set("data_dir", data.string());
  config.set("node_id", "n");
  FakeClock clock(kStart);
  auto store = open_store(config, clock, StoreRole::Node);
  EXPECT_TRUE(fs::exists(data / "gleaner.db"));
  EXPECT_EQ(dynamic_cast<SqlStore&>(*store).database().dialect().name, "sqlite");
}

TEST(OpenStore, AnInMemoryStoreWorks) {
  FakeClock clock(kStart);
  auto store = open_store(store_config("sqlite::memory:", "n"), clock, StoreRole::Node);
  NewAccount a{"acme", 10, 30, std::nullopt};
  auto created = store->create_account(a);
  EXPECT_EQ(store->authenticate(created.key.key)->id, created.account.id);
}

TEST(OpenStore, BadEntriesAreRefusedByName) {
  FakeClock clock(kStart);
  auto message_of = [&](const std::string& entry, nlohmann::json value) -> std::string {
    Config config = store_config("sqlite::memory:", "n");
    config.set(entry, std::move(value));
    try {
      open_store(config, clock, StoreRole::Node);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(accepted)";
  };
  EXPECT_NE(message_of("store", "mysql://db/x").find("GLEANER_STORE"), std::string::npos);
  EXPECT_NE(message_of("store", "sqlite:").find("GLEANER_STORE"), std::string::npos);
  EXPECT_NE(message_of("node_id", "").find("GLEANER_NODE_ID"), std::string::npos);
  EXPECT_NE(message_of("reservation_ttl_seconds", 0).find("GLEANER_RESERVATION_TTL_SECONDS"),
            std::string::npos);
  EXPECT_NE(message_of("store_pool_size", -2).find("GLEANER_STORE_POOL_SIZE"), std::string::npos);
  EXPECT_NE(message_of("sqlite_synchronous", "off").find("GLEANER_SQLITE_SYNCHRONOUS"),
            std::string::npos);
}

TEST(OpenStore, SqliteSyncsEveryCommitUnlessToldNormal) {
  FakeClock clock(kStart);
  // PRAGMA synchronous reads 2 for FULL, 1 for NORMAL.
  auto synchronous = [&](const std::optional<std::string>& entry) {
    const fs::path file = process_temp_dir() / ("sync-" + entry.value_or("default") + ".db");
    Config config = store_config("sqlite:" + file.string(), "n");
    if (entry) config.set("sqlite_synchronous", *entry);
    auto store = open_store(config, clock, StoreRole::Node);
    return in_transaction(
        dynamic_cast<SqlStore&>(*store).database(), TxKind::Read,
        [](Transaction& tx) { return tx.run("PRAGMA synchronous").rows.at(0).integer(0); });
  };
  EXPECT_EQ(synchronous(std::nullopt), 2);
  EXPECT_EQ(synchronous("full"), 2);
  EXPECT_EQ(synchronous("normal"), 1);
}

TEST(OpenStore, AnUnreachablePostgresIsUnavailableAndItsPasswordIsNotTold) {
  FakeClock clock(kStart);
  const std::string spec = "host=127.0.0.1 port=" + std::to_string(free_loopback_port()) +
                           " user=u password=secret-pw dbname=d connect_timeout=2";
  try {
    open_store(store_config(spec, "n"), clock, StoreRole::Node);
    FAIL() << "connected to nothing";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable);
    EXPECT_EQ(std::string(e.what()).find("secret-pw"), std::string::npos);
    EXPECT_EQ(e.detail().find("secret-pw"), std::string::npos);
  }
}

}  // namespace
}  // namespace gleaner::store::testing
