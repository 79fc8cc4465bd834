#pragma once
// The schema as an ordered list of versioned migrations, shared by both databases. Adding a
// table or column is one more entry at the end of the list in migrations.cpp; never edit an
// entry that has shipped.
#include <cstdint>
#include <string_view>
#include <vector>

#include "store/database.h"

namespace gleaner::store {

struct Migration {
  std::int64_t version;  ///< 1, 2, 3, ... in list order
  std::string_view description;
  /// SQL for both databases; `{{id}}` becomes the dialect's auto-assigned primary key.
  std::string_view sql;
  /// Only where PostgreSQL needs different SQL (empty: use `sql`).
  std::string_view postgres_sql = {};
};

const std::vector<Migration>& migrations();

/// `migration`'s SQL for `dialect`, with `{{id}}` expanded.
std::string migration_sql(const Migration& migration, const Dialect& dialect);

/// Applies, in one transaction, every migration of `list` newer than the database's version and
/// records each in table schema_migrations. Returns how many were applied. Throws
/// Error(Internal) when the database is at a version this binary does not know (a newer
/// binary migrated it), rather than run against a schema it does not understand.
int apply_migrations(Database& db, std::int64_t now_unix_seconds,
                     const std::vector<Migration>& list = migrations());

/// The highest applied version (0 for an empty database).
std::int64_t schema_version(Database& db);

}  // namespace gleaner::store
