#include "browser/process.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "core/log.h"

extern char** environ;

namespace gleaner::browser {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kRecentLines = 40;
constexpr std::string_view kDevToolsPrefix = "DevTools listening on ";
constexpr std::string_view kProfilePrefix = "gleaner-chromium-";
// How long stop() and the destructor wait for a killed group to disappear. SIGKILL cannot be
// caught, so this is only reached by a process stuck in the kernel; we log it and go on.
constexpr Millis kReapLimit{5000};

fs::path temp_root() {
  const char* tmp = std::getenv("TMPDIR");
  return fs::path(tmp && *tmp ? tmp : "/tmp");
}

// Waits until `fd` is readable or `timeout` passes. A pidfd is readable once its process exited.
bool wait_readable(int fd, Millis timeout) {
  pollfd p{fd, POLLIN, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
  } while (rc < 0 && errno == EINTR);
  return rc > 0;
}

struct ProcStat {
  char state = '?';
  pid_t pgid = -1;
};

// Fields 3 (state) and 5 (pgrp) of /proc/<pid>/stat; the command name in field 2 may hold spaces,
// so parse after its closing parenthesis.
std::optional<ProcStat> read_stat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return std::nullopt;
  auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(text.substr(close + 1));
  ProcStat stat;
  pid_t ppid = 0;
  if (!(rest >> stat.state >> ppid >> stat.pgid)) return std::nullopt;
  return stat;
}

std::vector<pid_t> all_pids() {
  std::vector<pid_t> pids;
  DIR* dir = ::opendir("/proc");
  if (!dir) return pids;
  while (dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    long value = std::strtol(entry->d_name, &end, 10);
    if (end && *end == '\0' && value > 0) pids.push_back(static_cast<pid_t>(value));
  }
  ::closedir(dir);
  return pids;
}

}  // namespace

std::vector<pid_t> process_group_members(pid_t pgid) {
  std::vector<pid_t> members;
  for (pid_t pid : all_pids()) {
    auto stat = read_stat(pid);
    if (stat && stat->pgid == pgid && stat->state != 'Z' && stat->state != 'X')
      members.push_back(pid);
  }
  return members;
}

namespace {

// The environment handed to Chromium: ours without GLEANER_* entries, which may hold secrets
// (database URLs, signing keys) that a browser has no business seeing.
std::vector<std::string> child_environment() {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, "GLEANER_", 8) != 0) env.emplace_back(*e);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::vector<std::string> standard_chromium_flags() {
  std::vector<std::string> flags = {
      // Chromium's full browser without a window (not the separate headless shell): the same
      // plugins, window.chrome, permissions and rendering as a windowed one (docs/stealth.md).
      "--headless=new",
      // navigator.webdriver stays false, as in a browser a person started.
      "--disable-blink-features=AutomationControlled",
      // The languages of the default identity (browser/identity.h) for what no page override
      // reaches: service workers and a visible tab's renderer preferences take theirs from here
      // (a page's dedicated workers get the page's override, BrowserInstance::open_page).
      "--accept-lang=en-US,en",
      "--disable-gpu",
      // No WebGL from the software rasterizer (SwiftShader), which headless Chromium falls back to
      // and a person's Chrome no longer does: on a machine without a usable GPU the page gets no
      // WebGL context at all, as a windowed Chromium gives it (docs/stealth.md, "webgl"). The
      // SwiftShader renderer string is what walls read as automation.
      "--disable-software-rasterizer",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-quic",
      // WebRTC may only use the proxy's route: no UDP straight out of the host, which would pass
      // the egress gateway (its address guard and the upstream proxy) and show the host's
      // address to the site.
      "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      "--disable-sync",
      "--mute-audio",
      "--hide-scrollbars",
      "--disable-extensions",
      "--disable-default-apps",
      "--disable-breakpad",
      "--disable-client-side-phishing-detection",
      "--disable-hang-monitor",
      "--disable-prompt-on-repost",
      "--password-store=basic",
      "--use-mock-keychain",
      // Pages of other contexts are in other windows; keep them running at full speed.
      "--disable-background-timer-throttling",
      "--disable-backgrounding-occluded-windows",
      "--disable-renderer-backgrounding",
      // A page left by a navigation is dropped, not kept in memory for the back button.
      "--disable-back-forward-cache",
      // Cross-site iframes stay in their page's renderer, so the page's request interception
      // (Fetch domain) also sees their requests, and fewer renderer processes are needed.
      // Contexts are still isolated from each other.
      "--disable-site-isolation-trials",
      // IsolateOrigins, site-per-process: as above. WebUIOmniboxPopup, WebUIOmniboxAimPopup: every
      // window (one per lease) would otherwise start a renderer for its address bar's popup
      // (about 33 MB each, measured). AutofillServerCommunication: a query to
      // content-autofill.googleapis.com for every page with a form (about two per benchmark page,
      // each a connection through the egress gateway). The rest: background features a scraper
      // never uses.
      "--disable-features=Translate,MediaRouter,OptimizationHints,AcceptCHFrame,"
      "ProcessPerSiteUpToMainFrameThreshold,IsolateOrigins,site-per-process,WebUIOmniboxPopup,"
      "WebUIOmniboxAimPopup,AutofillServerCommunication",
      // No component extension with a background page (a renderer of its own per browser).
      "--disable-component-extensions-with-background-pages",
      "--remote-debugging-port=0",
  };
  if (::geteuid() == 0) flags.push_back("--no-sandbox");
  return flags;
}

std::vector<std::string> merge_feature_flags(const std::vector<std::string>& flags) {
  static const std::string kLists[] = {"--disable-features=", "--enable-features=",
                                       "--disable-blink-features=", "--enable-blink-features="};
  constexpr std::size_t kCount = std::size(kLists);
  std::vector<std::string> out;
  std::vector<std::string> lists[kCount];  // the features of each, in order, without repeats
  std::size_t position[kCount];
  std::fill(std::begin(position), std::end(position), std::string::npos);
  for (const auto& flag : flags) {
    std::size_t which = kCount;
    for (std::size_t i = 0; i < kCount; ++i)
      if (flag.rfind(kLists[i], 0) == 0) which = i;
    if (which == kCount) {
      out.push_back(flag);
      continue;
    }
    if (position[which] == std::string::npos) {
      position[which] = out.size();
      out.emplace_back();  // filled in below
    }
    std::istringstream items(flag.substr(kLists[which].size()));
    for (std::string item; std::getline(items, item, ',');) {
      auto& list = lists[which];
      if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end())
        list.push_back(item);
    }
  }
  for (std::size_t i = 0; i < kCount; ++i) {
    if (position[i] == std::string::npos) continue;
    std::string flag = kLists[i];
    for (std::size_t j = 0; j < lists[i].size(); ++j) flag += (j ? "," : "") + lists[i][j];
    out[position[i]] = flag;
  }
  return out;
}

void remove_stale_profiles() {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(temp_root(), ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kProfilePrefix, 0) != 0) continue;
    // gleaner-chromium-<owner pid>-XXXXXX
    long owner = std::strtol(name.c_str() + kProfilePrefix.size(), nullptr, 10);
    if (owner <= 0 || owner == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(owner), 0) == 0 || errno == EPERM) continue;  // owner alive
    std::error_code remove_error;
    fs::remove_all(entry.path(), remove_error);
    if (!remove_error) log::info("browser") << "removed stale profile " << entry.path().string();
  }
}

std::unique_ptr<ChromiumProcess> ChromiumProcess::launch(const std::string& chromium_path,
                                                         const std::vector<std::string>& flags,
                                                         Deadline deadline,
                                                         const std::string& preferences) {
  std::unique_ptr<ChromiumProcess> process(new ChromiumProcess());

  std::string profile_template =
      (temp_root() / (std::string(kProfilePrefix) + std::to_string(::getpid()) + "-XXXXXX"))
          .string();
  if (!::mkdtemp(profile_template.data()))
    throw Error(ErrorCode::Unavailable, "no browser could be started",
                "cannot create a profile directory: " + std::string(std::strerror(errno)));
  process->profile_dir_ = profile_template;
  if (!preferences.empty()) {
    std::error_code ec;
    const fs::path profile = fs::path(profile_template) / "Default";
    fs::create_directories(profile, ec);
    std::ofstream file(profile / "Preferences", std::ios::binary);
    file << preferences;
    file.close();
    if (ec || !file) {
      throw Error(ErrorCode::Unavailable, "no browser could be started",
                  "cannot write the profile's preferences in " + profile.string());
    }
  }

  // Everything the child needs is prepared before fork(): after it, in a threaded program, only
  // async-signal-safe calls are allowed until exec.
  std::vector<std::string> args;
  args.push_back(chromium_path);
  args.insert(args.end(), flags.begin(), flags.end());
  args.push_back("--user-data-dir=" + process->profile_dir_);
  args.push_back("about:blank");
  std::vector<std::string> env = child_environment();
  std::vector<char*> argv = c_strings(args);
  std::vector<char*> envp = c_strings(env);
  const std::string exec_failed = "gleaner: cannot execute " + chromium_path + "\n";

  int output[2];
  int wake[2];
  if (::pipe2(output, O_CLOEXEC) != 0) {
    throw Error(ErrorCode::Unavailable, "no browser could be started",
                "pipe: " + std::string(std::strerror(errno)));
  }
  if (::pipe2(wake, O_CLOEXEC) != 0) {
    ::close(output[0]);
    ::close(output[1]);
    throw Error(ErrorCode::Unavailable, "no browser could be started",
                "pipe: " + std::string(std::strerror(errno)));
  }
  int dev_null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  const pid_t parent = ::getpid();

  pid_t pid = ::fork();
  if (pid == 0) {
    // Child: own process group, killed with us, plain signal state, stderr into our pipe.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // we died before prctl took effect
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &default_action, nullptr);
    if (dev_null >= 0) {
      ::dup2(dev_null, STDIN_FILENO);
      ::dup2(dev_null, STDOUT_FILENO);
    }
    ::dup2(output[1], STDERR_FILENO);
    ::close_range(3, ~0U, 0);
    ::execve(argv[0], argv.data(), envp.data());
    (void)!::write(STDERR_FILENO, exec_failed.data(), exec_failed.size());  // into our log
    ::_exit(127);
  }
  int fork_errno = errno;
  ::close(output[1]);
  if (dev_null >= 0) ::close(dev_null);
  if (pid < 0) {
    ::close(output[0]);
    ::close(wake[0]);
    ::close(wake[1]);
    throw Error(ErrorCode::Unavailable, "no browser could be started",
                "fork: " + std::string(std::strerror(fork_errno)));
  }
  ::setpgid(pid, pid);  // also from here, so the group exists whichever side runs first
  process->pid_ = pid;
  process->wake_write_fd_ = wake[1];
  process->wake_read_fd_ = wake[0];
  process->output_reader_ = std::thread(
      [p = process.get(), fd = output[0], wake_fd = wake[0]] { p->drain_output(fd, wake_fd); });

  std::unique_lock lock(process->output_mutex_);
  process->output_changed_.wait_until(
      lock, deadline, [&] { return !process->devtools_url_.empty() || process->output_closed_; });
  if (process->devtools_url_.empty()) {
    lock.unlock();
    const bool timed_out = !process->exited();
    std::string why = timed_out ? "Chromium did not print its DevTools endpoint in time"
                                : "Chromium exited at start";
    // The destructor kills and reaps what is left.
    throw Error(ErrorCode::Unavailable, "no browser could be started",
                why + " (" + chromium_path + "); last output:\n" + process->recent_output());
  }
  process->websocket_url_ = process->devtools_url_;
  log::info("browser") << "started Chromium pid " << pid << " at " << process->websocket_url_;
  return process;
}

void ChromiumProcess::drain_output(int fd, int wake_fd) {
  std::string pending;
  char buffer[4096];
  pollfd fds[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
  for (;;) {
    int rc = ::poll(fds, 2, -1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0 || (fds[1].revents & (POLLIN | POLLHUP))) break;
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // every process of the tree closed its stderr
    pending.append(buffer, static_cast<std::size_t>(n));
    std::size_t newline;
    while ((newline = pending.find('\n')) != std::string::npos) {
      std::string line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      log::debug("chromium") << pid_ << ": " << line;
      std::lock_guard lock(output_mutex_);
      if (devtools_url_.empty() && line.rfind(kDevToolsPrefix, 0) == 0) {
        devtools_url_ = line.substr(kDevToolsPrefix.size());
        output_changed_.notify_all();
      }
      recent_lines_.push_back(std::move(line));
      if (recent_lines_.size() > kRecentLines) recent_lines_.pop_front();
    }
  }
  ::close(fd);
  // wake_fd stays open until stop() has written to it and joined us: writing to a pipe without a
  // reader would raise SIGPIPE.
  std::lock_guard lock(output_mutex_);
  output_closed_ = true;
  output_changed_.notify_all();
}

bool ChromiumProcess::exited() {
  if (reaped_) return true;
  int status = 0;
  pid_t rc = ::waitpid(pid_, &status, WNOHANG);
  if (rc == pid_ || (rc < 0 && errno == ECHILD)) {
    reaped_ = true;
    if (rc == pid_) {
      if (WIFSIGNALED(status))
        log::info("browser") << "Chromium pid " << pid_ << " ended by signal " << WTERMSIG(status);
      else
        log::info("browser") << "Chromium pid " << pid_ << " exited with " << WEXITSTATUS(status);
    }
  }
  return reaped_;
}

void ChromiumProcess::reap_group(Deadline deadline) {
  // The browser itself is our child. Its zygotes and renderers were reparented when it died (to
  // init, or to us when we are pid 1 or a subreaper): waitpid(-pgid) reaps those that are ours.
  for (;;) {
    exited();
    while (::waitpid(-pid_, nullptr, WNOHANG) > 0) {
    }
    if (process_group_members(pid_).empty() && reaped_) return;
    if (SteadyClock::now() >= deadline) {
      log::warn("browser") << "Chromium group " << pid_ << " still has processes after SIGKILL";
      return;
    }
    ::kill(-pid_, SIGKILL);
    std::this_thread::sleep_for(Millis(5));
  }
}

bool ChromiumProcess::wait_for_exit(Millis timeout) {
  if (pid_ <= 0 || exited()) return true;
  // A pidfd becomes readable when the process exits: wait on it instead of polling waitpid.
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  if (pidfd < 0) return exited();
  wait_readable(pidfd, timeout);
  ::close(pidfd);
  return exited();
}

void ChromiumProcess::stop(Millis grace) {
  if (pid_ <= 0 || stopped_) return;
  if (!exited() && grace.count() > 0) {
    ::kill(-pid_, SIGTERM);
    wait_for_exit(grace);
  }
  ::kill(-pid_, SIGKILL);
  reap_group(deadline_in(kReapLimit));
  if (wake_write_fd_ >= 0) {
    // Stop the reader even if a stray process still holds the pipe open.
    (void)!::write(wake_write_fd_, "x", 1);
    ::close(wake_write_fd_);
    wake_write_fd_ = -1;
  }
  if (output_reader_.joinable()) output_reader_.join();
  if (wake_read_fd_ >= 0) {
    ::close(wake_read_fd_);
    wake_read_fd_ = -1;
  }
  std::error_code ec;
  fs::remove_all(profile_dir_, ec);
  stopped_ = true;
}

ChromiumProcess::~ChromiumProcess() {
  if (pid_ > 0) {
    stop(Millis(0));
  } else {
    std::error_code ec;
    if (!profile_dir_.empty()) fs::remove_all(profile_dir_, ec);
  }
}

std::size_t process_group_pss_bytes(pid_t pgid) {
  std::size_t total_kb = 0;
  for (pid_t pid : process_group_members(pgid)) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/smaps_rollup");
    std::string key;
    std::size_t value = 0;
    std::string unit;
    while (in >> key) {
      if (key == "Pss:") {
        in >> value >> unit;
        total_kb += value;
        break;
      }
      in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
  }
  return total_kb * 1024;
}

std::size_t ChromiumProcess::memory_bytes() const {
  return process_group_pss_bytes(pid_);
}

std::vector<pid_t> ChromiumProcess::group_pids() const {
  return process_group_members(pid_);
}

std::string ChromiumProcess::recent_output() const {
  std::lock_guard lock(output_mutex_);
  std::string out;
  for (const auto& line : recent_lines_) out += line + "\n";
  return out;
}

}  // namespace gleaner::browser
