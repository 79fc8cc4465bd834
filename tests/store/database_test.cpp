// Nothing waits forever on the database: a busy SQLite file, an exhausted PostgreSQL pool and a
// row lock held by a stuck node all fail `unavailable` after the configured wait.
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "store/postgres_database.h"
#include "store/sqlite_database.h"
#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

constexpr Millis kShortWait{200};

/// Runs `holder` in a transaction on `db` on another thread and keeps that transaction open
/// until `waiter` (run on this thread) has returned or thrown. Returns the waiter's error code.
ErrorCode code_while_held(Database& db, const std::function<void(Transaction&)>& holder,
                          const std::function<void()>& waiter) {
  std::promise<void> holding;
  std::promise<void> finished;
  std::thread t([&] {
    bool held = false;
    try {
      db.transact(TxKind::Write, [&](Transaction& tx) {
        holder(tx);
        held = true;
        holding.set_value();
        finished.get_future().wait();
      });
    } catch (...) {
      if (!held) holding.set_exception(std::current_exception());
    }
  });
  auto held = holding.get_future();
  if (held.wait_for(kMaxWait) != std::future_status::ready) std::abort();  // a hung test
  try {
    held.get();
  } catch (...) {
    t.join();
    throw;
  }
  ErrorCode code = error_code_of(waiter);
  finished.set_value();
  t.join();
  return code;
}

TEST(SqliteDatabase, AWriterWaitsForAnotherProcessOnlyUpToTheWait) {
  const std::string path = SqliteBackend::new_store_spec().substr(7);  // without "sqlite:"
  SqliteDatabase first(path, kShortWait);
  SqliteDatabase second(path, kShortWait);
  first.transact(TxKind::Write,
                 [](Transaction& tx) { tx.run_script("CREATE TABLE t (x BIGINT)"); });
  EXPECT_EQ(code_while_held(
                first, [](Transaction& tx) { tx.run("INSERT INTO t (x) VALUES (?)", {1}); },
                [&] { second.transact(TxKind::Write, [](Transaction&) {}); }),
            ErrorCode::Unavailable);
  // Readers are not blocked by the writer (WAL): they see the last committed state.
  std::int64_t seen = -1;
  EXPECT_EQ(code_while_held(
                first, [](Transaction& tx) { tx.run("INSERT INTO t (x) VALUES (?)", {2}); },
                [&] {
                  seen = in_transaction(second, TxKind::Read, [](Transaction& tx) {
                    return tx.run("SELECT COUNT(*) FROM t").rows.at(0).integer(0);
                  });
                  throw Error(ErrorCode::NotFound, "the read returned");
                }),
            ErrorCode::NotFound);
  EXPECT_EQ(seen, 1);
}

// Writes that arrive together are committed in one group (sqlite_database.h); each must still
// behave as its own transaction: committed when its call returns, rolled back alone when it
// throws, its exception seen only by its caller.
TEST(SqliteDatabase, WritesCommittedTogetherStayIndependent) {
  const std::string path = SqliteBackend::new_store_spec().substr(7);
  SqliteDatabase db(path, kMaxWait);
  SqliteDatabase reader(path, kMaxWait);
  db.transact(TxKind::Write, [](Transaction& tx) { tx.run_script("CREATE TABLE t (x BIGINT)"); });
  auto count = [&](std::int64_t x) {
    return in_transaction(reader, TxKind::Read, [&](Transaction& tx) {
      return tx.run("SELECT COUNT(*) FROM t WHERE x = ?", {x}).rows.at(0).integer(0);
    });
  };
  constexpr int kWriters = 8;
  constexpr int kFailing = 3;
  std::vector<std::int64_t> seen_on_return(kWriters, -1);
  std::vector<std::string> errors(kWriters);
  std::vector<std::thread> writers;
  // A write held open, so that the others queue behind it and go as one group.
  EXPECT_EQ(code_while_held(
                db, [](Transaction& tx) { tx.run("INSERT INTO t (x) VALUES (?)", {100}); },
                [&] {
                  for (int i = 0; i < kWriters; ++i) {
                    writers.emplace_back([&, i] {
                      try {
                        db.transact(TxKind::Write, [&](Transaction& tx) {
                          tx.run("INSERT INTO t (x) VALUES (?)", {i});
                          if (i == kFailing)
                            throw Error(ErrorCode::InvalidParameter, "writer gives up");
                        });
                        seen_on_return[i] = count(i);
                      } catch (const Error& e) {
                        errors[i] = e.what();
                      }
                    });
                  }
                  const auto until = SteadyClock::now() + kMaxWait;
                  while (db.waiting_writes() < kWriters && SteadyClock::now() < until) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                  }
                  EXPECT_EQ(db.waiting_writes(), static_cast<std::size_t>(kWriters));
                  throw Error(ErrorCode::NotFound, "the writers are queued");
                }),
            ErrorCode::NotFound);
  for (auto& t : writers) t.join();
  EXPECT_EQ(count(100), 1);
  for (int i = 0; i < kWriters; ++i) {
    if (i == kFailing) {
      EXPECT_EQ(errors[i], "writer gives up");
      EXPECT_EQ(count(i), 0) << "the failed write was rolled back";
    } else {
      EXPECT_EQ(errors[i], "") << "writer " << i;
      EXPECT_EQ(seen_on_return[i], 1) << "writer " << i << " returned before its commit";
    }
  }
}

TEST(PostgresDatabase, AnExhaustedPoolFailsAfterTheWait) {
  PostgresDatabase db(TestPostgres::instance().fresh_database(), 1, kShortWait);
  EXPECT_EQ(code_while_held(
                db, [](Transaction& tx) { tx.run("SELECT 1"); },
                [&] { db.transact(TxKind::Read, [](Transaction&) {}); }),
            ErrorCode::Unavailable);
  // The connection came back to the pool.
  db.transact(TxKind::Read, [](Transaction& tx) { tx.run("SELECT 1"); });
}

TEST(PostgresDatabase, ARowLockHeldByAStuckNodeFailsOthersAfterTheWait) {
  const std::string spec = TestPostgres::instance().fresh_database();
  PostgresDatabase stuck(spec, 2, kShortWait);
  PostgresDatabase other(spec, 2, kShortWait);
  stuck.transact(TxKind::Write, [](Transaction& tx) {
    tx.run_script("CREATE TABLE t (id BIGINT PRIMARY KEY); INSERT INTO t VALUES (1);");
  });
  EXPECT_EQ(code_while_held(
                stuck, [](Transaction& tx) { tx.run("SELECT id FROM t WHERE id = 1 FOR UPDATE"); },
                [&] {
                  other.transact(TxKind::Write, [](Transaction& tx) {
                    tx.run("SELECT id FROM t WHERE id = 1 FOR UPDATE");
                  });
                }),
            ErrorCode::Unavailable);
}

}  // namespace
}  // namespace gleaner::store::testing
