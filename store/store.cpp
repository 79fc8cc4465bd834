#include "store/store.h"

#include <unistd.h>

#include <array>
#include <filesystem>

#include "core/config.h"
#include "core/error.h"
#include "core/log.h"
#include "store/migrations.h"
#include "store/postgres_database.h"
#include "store/sql_store.h"
#include "store/sqlite_database.h"

namespace gleaner::store {
namespace {

constexpr std::string_view kSqliteScheme = "sqlite:";

bool is_postgres(std::string_view spec) {
  return spec.rfind("postgresql://", 0) == 0 || spec.rfind("postgres://", 0) == 0 ||
         spec.find('=') != std::string_view::npos;
}

std::string default_node_id() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "node";
  return name.data();
}

std::int64_t positive_entry(const Config& config, const std::string& entry, std::int64_t fallback) {
  const std::int64_t value = config.get_int(entry, fallback);
  if (value <= 0) Config::refuse(entry, "must be more than 0");
  return value;
}

std::string store_spec(const Config& config) {
  return config.get_string("store", std::string(kSqliteScheme) +
                                        config.get_string("data_dir", "./data") + "/gleaner.db");
}

std::unique_ptr<Database> open_database(const Config& config) {
  const std::string spec = store_spec(config);
  // Both read whichever database is named, so a bad value is reported before it matters.
  const Millis wait(positive_entry(config, "store_wait_ms", 5000));
  const auto pool_size = static_cast<std::size_t>(positive_entry(config, "store_pool_size", 8));
  if (spec.rfind(kSqliteScheme, 0) == 0) {
    const std::string path = spec.substr(kSqliteScheme.size());
    if (path.empty())
      Config::refuse("store", "sqlite: needs a file path, e.g. sqlite:./data/gleaner.db");
    if (path != ":memory:") {
      const auto dir = std::filesystem::absolute(path).parent_path();
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      if (ec)
        Config::refuse("store", "cannot create directory " + dir.string() + ": " + ec.message());
    }
    const std::string sync = config.get_string("sqlite_synchronous", "full");
    if (sync != "full" && sync != "normal")
      Config::refuse("sqlite_synchronous", "expected full or normal");
    log::info("store") << "using SQLite at " << path << " (synchronous " << sync << ")";
    return std::make_unique<SqliteDatabase>(
        path, wait, sync == "full" ? SqliteDatabase::Sync::Full : SqliteDatabase::Sync::Normal);
  }
  if (is_postgres(spec)) {
    // The connection string may hold a password: it is never logged.
    log::info("store") << "using PostgreSQL";
    return std::make_unique<PostgresDatabase>(spec, pool_size, wait);
  }
  Config::refuse("store", "expected sqlite:<path> or a PostgreSQL connection string");
}

}  // namespace

std::string store_directory(const Config& config) {
  const std::string spec = store_spec(config);
  if (spec.rfind(kSqliteScheme, 0) == 0) {
    const std::string path = spec.substr(kSqliteScheme.size());
    if (!path.empty() && path != ":memory:") {
      return std::filesystem::absolute(path).parent_path().string();
    }
  }
  return config.get_string("data_dir", "./data");
}

std::unique_ptr<Store> open_store(const Config& config, const Clock& clock, StoreRole role) {
  SqlStoreSettings settings;
  settings.node_id = config.get_string("node_id", default_node_id());
  if (settings.node_id.empty()) Config::refuse("node_id", "must not be empty");
  settings.reservation_ttl =
      std::chrono::seconds(positive_entry(config, "reservation_ttl_seconds", 360));

  std::unique_ptr<Database> db = open_database(config);
  apply_migrations(*db, to_unix_seconds(clock.now()));
  auto store = std::make_unique<SqlStore>(std::move(db), clock, std::move(settings));
  if (role == StoreRole::Node) {
    // A previous run of this node may have died holding credits; its requests are gone.
    store->release_own_reservations();
    store->release_expired();
  }
  return store;
}

}  // namespace gleaner::store
