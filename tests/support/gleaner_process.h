#pragma once
// The real `gleaner` binary as a child process, for tests that kill it (SIGKILL, no cleanup) and
// start it again. Header-only: the including test target defines GLEANER_BINARY (the path of the
// built binary, `$<TARGET_FILE:gleaner>`) and depends on the gleaner target.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/regex.h"
#include "tests/support/answer_log.h"
#include "tests/support/service_under_test.h"

extern char** environ;

namespace gleaner::testing {

/// The whole content of the file at `path` ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// A `gleaner` process with its output in files; killed (SIGKILL) if still running at the end.
class GleanerProcess {
 public:
  GleanerProcess(const std::vector<std::string>& args,
                 const std::map<std::string, std::string>& env, const std::string& out_path,
                 const std::string& err_path)
      : out_path_(out_path), err_path_(err_path) {
    std::vector<std::string> environment;
    for (char** e = environ; *e; ++e) {
      if (std::string(*e).rfind("GLEANER_", 0) != 0) environment.emplace_back(*e);
    }
    for (const auto& [k, v] : env) environment.push_back(k + "=" + v);
    std::vector<char*> argv{const_cast<char*>(GLEANER_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (auto& e : environment) envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    const int rc = posix_spawn(&pid_, GLEANER_BINARY, &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " GLEANER_BINARY);
  }
  ~GleanerProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  GleanerProcess(const GleanerProcess&) = delete;
  GleanerProcess& operator=(const GleanerProcess&) = delete;

  /// Sends `signal` and reaps the process; returns its wait status.
  int stop(int signal) {
    ::kill(pid_, signal);
    return wait();
  }
  /// Waits for the process to exit; returns its wait status.
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }
  /// Waits at most `budget` for the process to exit; its wait status, or nullopt while it still
  /// runs (it is then killed by the destructor).
  std::optional<int> wait_for(Millis budget) {
    int status = 0;
    const bool gone = ServiceUnderTest::eventually(
        [&] { return ::waitpid(pid_, &status, WNOHANG) == pid_; }, budget);
    if (!gone) return std::nullopt;
    pid_ = -1;
    return status;
  }
  pid_t pid() const { return pid_; }
  std::string out() const { return read_file(out_path_); }
  std::string err() const { return read_file(err_path_); }

  /// The port from the "listening on port N" line, waiting for it (at most kMaxWait); 0 if none.
  int port() const {
    int found = 0;
    const Regex listening("listening on port ([0-9]+)");
    ServiceUnderTest::eventually([&] {
      RegexMatch m;
      const std::string text = err();
      if (!listening.search(text, m)) return false;
      found = std::stoi(m[1]);
      return true;
    });
    return found;
  }

 private:
  pid_t pid_ = -1;
  std::string out_path_;
  std::string err_path_;
};

/// The environment of a `gleaner serve` for these tests: a SQLite store at `db`, node id `node`, a
/// free port on loopback, one Chromium kept off the network, loopback sites allowed, jobs looked
/// for every 100 ms, at the requests' CPU priority (tests run beside other test binaries at theirs,
/// and a niced job would wait behind them; jobs_tests checks the nice itself).
inline std::map<std::string, std::string> loopback_serve_env(const std::string& db,
                                                             const std::string& node) {
  return {
      {"GLEANER_STORE", "sqlite:" + db},
      {"GLEANER_NODE_ID", node},
      {"GLEANER_HOST", "127.0.0.1"},
      {"GLEANER_PORT", "0"},
      {"GLEANER_BROWSER_PROCESSES", "1"},
      {"GLEANER_PAGES_PER_PROCESS", "2"},
      {"GLEANER_CHROMIUM_FLAGS", kLoopbackOnlyFlag},
      {"GLEANER_ALLOW_PRIVATE_ADDRESSES", "true"},
      {"GLEANER_JOBS_POLL_MS", "100"},
      {"GLEANER_JOBS_NICE", "0"},
  };
}

/// A client of `process` once it listens and answers /health with 200 (null if it never does);
/// its answers are recorded for the OpenAPI check (answer_log.h).
inline std::unique_ptr<httplib::Client> healthy_client(const GleanerProcess& process) {
  const int port = process.port();
  if (port == 0) return nullptr;
  auto client = std::make_unique<httplib::Client>("127.0.0.1", port);
  client->set_read_timeout(30, 0);
  record_answers(*client);
  const bool up = ServiceUnderTest::eventually(
      [&] {
        auto r = client->Get("/health");
        return r && r->status == 200;
      },
      Millis(60000));
  return up ? std::move(client) : nullptr;
}

}  // namespace gleaner::testing
