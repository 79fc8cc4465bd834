#include "tests/store/test_postgres.h"

#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

namespace gleaner::store::testing {
namespace {

namespace fs = std::filesystem;
using std::chrono::steady_clock;

constexpr auto kPollInterval = std::chrono::milliseconds(50);  // polling, never an assertion

/// Who the server runs as: user `postgres` when we are root, ourselves otherwise.
struct RunAs {
  bool drop = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

RunAs server_user() {
  RunAs as;
  if (geteuid() != 0) return as;
  const passwd* pw = getpwnam("postgres");
  if (!pw)
    throw std::runtime_error(
        "running as root and there is no 'postgres' user to run the server as");
  as.drop = true;
  as.uid = pw->pw_uid;
  as.gid = pw->pw_gid;
  return as;
}

/// The newest server in Debian's layout, /usr/lib/postgresql/<major>/bin.
fs::path find_bindir() {
  if (const char* env = std::getenv("GLEANER_TEST_PG_BINDIR")) return env;
  fs::path best;
  int best_major = -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (!fs::exists(entry.path() / "bin" / "postgres")) continue;
    if (int major = std::stoi(name); major > best_major) {
      best_major = major;
      best = entry.path() / "bin";
    }
  }
  if (best.empty()) {
    throw std::runtime_error(
        "no PostgreSQL server under /usr/lib/postgresql; install Debian's postgresql package "
        "(scripts/install-deps.sh)");
  }
  return best;
}

std::string read_tail(const fs::path& path, std::size_t max_chars = 4000) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  return s.size() > max_chars ? s.substr(s.size() - max_chars) : s;
}

/// Starts `argv` (argv[0] a full path) with stdout and stderr appended to `log`.
pid_t spawn(const std::vector<std::string>& argv, const fs::path& log, const fs::path& cwd,
            const RunAs& as) {
  // Everything the child needs is prepared before fork: after it only system calls run.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string log_path = log.string();
  const std::string dir = cwd.string();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    int out = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (out < 0 || in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) _exit(120);
    if (as.drop && (setgroups(0, nullptr) != 0 || setgid(as.gid) != 0 || setuid(as.uid) != 0)) {
      _exit(121);
    }
    if (chdir(dir.c_str()) != 0) _exit(122);
    // Set after setuid (which clears it): the server dies with the test process.
    prctl(PR_SET_PDEATHSIG, SIGQUIT);
    if (getppid() != parent) _exit(123);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

/// Runs `argv` as `as` to its end; throws with its log if it fails.
void run_to_completion(const std::vector<std::string>& argv, const fs::path& log,
                       const fs::path& cwd, const RunAs& as, const std::string& what) {
  int status = wait_exit(spawn(argv, log, cwd, as));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(what + " failed (wait status " + std::to_string(status) + "):\n" +
                             read_tail(log));
  }
}

/// An initdb'd data directory shared by the test processes of this build (ctest runs each test
/// case in a process of its own): initdb costs about a second, copying its result a tenth of
/// that. Made once, under a file lock, and renamed into place only when complete.
fs::path data_template(const fs::path& bindir, const RunAs& as) {
  const fs::path root = fs::path(GLEANER_BINARY_DIR) / "store-test-postgres";
  fs::create_directories(root);
  if (as.drop && chown(root.c_str(), as.uid, as.gid) != 0) {
    throw std::system_error(errno, std::generic_category(), "chown " + root.string());
  }
  const fs::path ready = root / ("template-" + bindir.parent_path().filename().string());
  const int lock = open((root / "lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) throw std::system_error(errno, std::generic_category(), "open template lock");
  struct Unlock {
    int fd;
    ~Unlock() { close(fd); }  // closing drops the flock
  } unlock{lock};
  const auto deadline = steady_clock::now() + kMaxWait;
  while (flock(lock, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw std::system_error(errno, std::generic_category(), "flock");
    if (steady_clock::now() > deadline) {
      throw std::runtime_error("another test process held the template lock past the maximum wait");
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  if (!fs::exists(ready)) {
    const fs::path building = root / ("building-" + std::to_string(getpid()));
    fs::remove_all(building);
    run_to_completion({(bindir / "initdb").string(), "-D", building.string(), "-A", "trust", "-U",
                       "postgres", "-E", "UTF8", "--no-sync"},
                      root / "initdb.log", root, as, "initdb");
    fs::rename(building, ready);
  }
  return ready;
}

}  // namespace

int wait_exit(pid_t pid) {
  const auto deadline = steady_clock::now() + kMaxWait;
  for (;;) {
    int status = 0;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0) throw std::system_error(errno, std::generic_category(), "waitpid");
    if (steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw std::runtime_error("a child process did not finish within the maximum wait");
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

int free_loopback_port() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "socket");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    int err = errno;
    close(fd);
    throw std::system_error(err, std::generic_category(), "bind 127.0.0.1:0");
  }
  close(fd);
  return ntohs(addr.sin_port);
}

TestPostgres& TestPostgres::instance() {
  static TestPostgres server;
  return server;
}

TestPostgres::TestPostgres() {
  const RunAs as = server_user();
  const fs::path bindir = find_bindir();
  char pattern[] = "/tmp/gleaner-store-pg-XXXXXX";
  if (!mkdtemp(pattern)) throw std::system_error(errno, std::generic_category(), "mkdtemp");
  dir_ = pattern;
  try {
    if (as.drop && chown(dir_.c_str(), as.uid, as.gid) != 0) {
      throw std::system_error(errno, std::generic_category(), "chown " + dir_);
    }
    const fs::path dir(dir_);
    // A copy of the build's template, owned by the server's user like the template.
    run_to_completion(
        {"/bin/cp", "-a", data_template(bindir, as).string(), (dir / "data").string()},
        dir / "copy.log", dir, as, "copying the data directory template");
    port_ = free_loopback_port();
    const fs::path server_log = dir / "postgres.log";
    // Durability is pointless for a throw-away server; speed is not.
    server_ = spawn(
        {(bindir / "postgres").string(), "-D", (dir / "data").string(), "-p", std::to_string(port_),
         "-k", dir_, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c",
         "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"},
        server_log, dir, as);
    const auto deadline = steady_clock::now() + kMaxWait;
    const std::string ping = admin_conninfo() + " connect_timeout=2";
    while (PQping(ping.c_str()) != PQPING_OK) {
      int exit_status = 0;
      if (waitpid(server_, &exit_status, WNOHANG) == server_) {
        server_ = -1;
        throw std::runtime_error("postgres exited during start:\n" + read_tail(server_log));
      }
      if (steady_clock::now() > deadline) {
        throw std::runtime_error("postgres did not accept connections within the maximum wait:\n" +
                                 read_tail(server_log));
      }
      std::this_thread::sleep_for(kPollInterval);
    }
  } catch (...) {
    stop();
    throw;
  }
}

TestPostgres::~TestPostgres() {
  stop();
}

void TestPostgres::stop() {
  if (server_ > 0) {
    kill(server_, SIGINT);  // fast shutdown: disconnect clients, stop
    try {
      wait_exit(server_);
    } catch (const std::exception&) {
      // Killed by wait_exit; nothing more to do while exiting.
    }
    server_ = -1;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

std::string TestPostgres::admin_conninfo() const {
  return "host=127.0.0.1 port=" + std::to_string(port_) + " user=postgres dbname=postgres";
}

std::string TestPostgres::fresh_database() {
  const std::string schema =
      "test_" + std::to_string(getpid()) + "_" + std::to_string(++next_schema_);
  PGconn* conn = PQconnectdb((admin_conninfo() + " connect_timeout=10").c_str());
  std::string error;
  if (PQstatus(conn) != CONNECTION_OK) {
    error = PQerrorMessage(conn);
  } else {
    PGresult* result = PQexec(conn, ("CREATE SCHEMA " + schema).c_str());
    if (PQresultStatus(result) != PGRES_COMMAND_OK) error = PQresultErrorMessage(result);
    PQclear(result);
  }
  PQfinish(conn);
  if (!error.empty()) throw std::runtime_error("cannot create schema " + schema + ": " + error);
  return admin_conninfo() + " options='-c search_path=" + schema + "'";
}

}  // namespace gleaner::store::testing
