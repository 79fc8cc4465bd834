#pragma once
// One Chromium process tree: launched in its own process group with a fresh temporary profile,
// its DevTools endpoint read from stderr, and stopped so that nothing of it outlives us.
//
// Zombies and orphans: the browser runs in a new process group (its zygotes, renderers and
// utility processes stay in that group: --no-sandbox keeps them out of new namespaces), so one
// signal to the group reaches every process of the tree. The browser gets
// PR_SET_PDEATHSIG(SIGKILL), which fires when the *thread* that forked it exits: launch from a
// long-lived thread (the pool's supervisor). Its children exit by themselves within a second or two
// when the browser dies.
#include "core/clock.h"

#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gleaner::browser {

/// The flags every pooled Chromium gets (headless, no first-run/background noise, DevTools on a
/// free port), before the configured extra flags. --no-sandbox is added only when running as root.
std::vector<std::string> standard_chromium_flags();

/// Chromium takes only the last --disable-features (and --enable-features,
/// --disable-blink-features, --enable-blink-features) it is given: this joins every such flag of
/// `flags` into one, in place of the first, so configured extra flags (and a device's, see
/// browser/identity.h) add to the standard list instead of replacing it. Other flags are kept in
/// order.
std::vector<std::string> merge_feature_flags(const std::vector<std::string>& flags);

/// The live (not zombie) processes of process group `pgid`, from /proc.
std::vector<pid_t> process_group_members(pid_t pgid);
/// Sum of the proportional set size (PSS, from /proc/<pid>/smaps_rollup) of the live processes of
/// group `pgid`, in bytes. PSS shares each page among the processes that map it, so the sum is
/// what the group really costs.
std::size_t process_group_pss_bytes(pid_t pgid);

/// Removes temporary profiles left by a gleaner process that no longer runs (after a crash or
/// SIGKILL, when nobody could clean up). Safe to call at any time.
void remove_stale_profiles();

class ChromiumProcess {
 public:
  /// Starts `chromium_path` with `flags` plus --user-data-dir=<fresh temporary directory> and
  /// waits for "DevTools listening on ws://..." on its stderr. `preferences`, when not empty, is
  /// the profile's preferences file (Default/Preferences, JSON) the browser starts with. Throws
  /// gleaner::Error(Unavailable) (with Chromium's last output in the detail) when it exits or does
  /// not answer by `deadline`.
  static std::unique_ptr<ChromiumProcess> launch(const std::string& chromium_path,
                                                 const std::vector<std::string>& flags,
                                                 Deadline deadline,
                                                 const std::string& preferences = {});
  /// Kills the whole process group at once (no grace), reaps it and removes the profile.
  ~ChromiumProcess();
  ChromiumProcess(const ChromiumProcess&) = delete;
  ChromiumProcess& operator=(const ChromiumProcess&) = delete;

  /// The browser's pid, which is also its process group id.
  pid_t pid() const { return pid_; }
  const std::string& websocket_url() const { return websocket_url_; }
  const std::string& profile_dir() const { return profile_dir_; }

  /// True once the browser process has exited (reaps it; never blocks).
  bool exited();
  /// Waits up to `timeout` for the browser to exit by itself (after Browser.close). True if it did.
  bool wait_for_exit(Millis timeout);
  /// SIGTERM to the group, up to `grace` for the browser to exit, then SIGKILL to the group; waits
  /// (bounded) until no process of the group is left and removes the profile. Idempotent: once
  /// stopped, the group id is never signalled again (it may be reused).
  void stop(Millis grace);
  /// Sum of the proportional set size (PSS) of every process in the group, in bytes.
  std::size_t memory_bytes() const;
  /// The pids of the group's processes still alive (not zombies).
  std::vector<pid_t> group_pids() const;
  /// Chromium's last lines of output, for the log when it fails.
  std::string recent_output() const;

 private:
  ChromiumProcess() = default;
  void drain_output(int fd, int wake_fd);
  void reap_group(Deadline deadline);

  pid_t pid_ = -1;
  std::string profile_dir_;
  std::string websocket_url_;
  // Used by one thread at a time (the pool's supervisor, then whoever destroys the process).
  bool reaped_ = false;     // the browser itself was waited for
  bool stopped_ = false;    // stop() finished
  int wake_write_fd_ = -1;  // written to stop the output reader
  int wake_read_fd_ = -1;   // the output reader polls it; closed after the reader is joined

  mutable std::mutex output_mutex_;  // guards recent_lines_, devtools_url_, output_closed_
  std::condition_variable output_changed_;
  std::deque<std::string> recent_lines_;
  std::string devtools_url_;
  bool output_closed_ = false;

  // Declared last: reads Chromium's stderr into the fields above until stopped.
  std::thread output_reader_;
};

}  // namespace gleaner::browser
