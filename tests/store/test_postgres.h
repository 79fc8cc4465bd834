#pragma once
// A throw-away PostgreSQL server for the store tests, from Debian's postgresql package: a copy
// of a data directory initdb made once per build (under <build>/store-test-postgres) in a
// temporary directory, and `postgres` on a free loopback port, run as user `postgres` when the
// tests run as root (the server refuses root). Started on first use, so a test process that
// runs only SQLite tests never pays for it; stopped and deleted when the process exits, and
// killed by the kernel (parent-death signal) if the process dies first. If it cannot start, the
// PostgreSQL tests fail with the server's log; they never skip.
#include <sys/types.h>

#include <chrono>
#include <string>

namespace gleaner::store::testing {

/// The one maximum wait of these tests (server start, child processes).
inline constexpr std::chrono::seconds kMaxWait{60};

class TestPostgres {
 public:
  /// The process-wide server, started on the first call. Throws std::runtime_error (with the
  /// server's log) if it cannot be started.
  static TestPostgres& instance();

  /// A connection string to a new empty schema (its own search_path), so tests sharing the
  /// server never see each other's tables.
  std::string fresh_database();

  ~TestPostgres();
  TestPostgres(const TestPostgres&) = delete;
  TestPostgres& operator=(const TestPostgres&) = delete;

 private:
  TestPostgres();
  std::string admin_conninfo() const;
  void stop();

  std::string dir_;  ///< temporary directory: data/, socket, logs
  int port_ = 0;
  pid_t server_ = -1;
  int next_schema_ = 0;
};

/// Waits for child `pid` to exit within kMaxWait (killing it after that, and throwing).
/// Returns its wait status.
int wait_exit(pid_t pid);

/// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
int free_loopback_port();

}  // namespace gleaner::store::testing
