#pragma once
// Replay archives (spec/conventions.md "Replay archives"): a directory with an index.json that
// answers every request the browser makes, so tests and extractor debugging never reach the
// network. The archive is an Interceptor that always decides: a matching entry's file, or the
// archive's `unmatched` status.
#include "browser/interception.h"
#include "core/regex.h"

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gleaner::browser {

/// One line of index.json.
struct ReplayEntry {
  enum class Match { Exact, Prefix, Regex };
  Match match = Match::Exact;
  /// The URL (exact, prefix) or RE2 pattern that must match the whole URL (regex).
  std::string url;
  int status = 200;
  /// As given in index.json, plus a content-type from the file's extension when none was given.
  std::map<std::string, std::string> headers;
  /// Relative to the archive directory; a `.gz` file is served decompressed.
  std::string file;
};

/// A request the archive answered: what a test asserts on.
struct ReplayRequest {
  std::string url;
  std::string method;
  /// Index in index.json of the entry that answered, nullopt when none matched.
  std::optional<std::size_t> entry;
  int status = 0;
  /// The User-Agent the browser sent (a device profile is seen by the site through it).
  std::string user_agent;
};

class ReplayArchive final : public Interceptor {
 public:
  /// How many answered requests requests() keeps (the oldest are dropped first).
  static constexpr std::size_t kMaxRecorded = 10000;

  /// Reads `directory`/index.json and checks every entry (regex syntax, file present). Throws
  /// gleaner::Error(Internal) naming the entry when the archive is unusable.
  explicit ReplayArchive(std::string directory);

  /// The answer for `url` without recording it: the first matching entry's response, or the
  /// unmatched status. Throws gleaner::Error(Internal) when an entry's file cannot be read.
  struct Answer {
    std::optional<std::size_t> entry;
    Fulfill response;
  };
  Answer answer(const std::string& url) const;

  /// Always decides: answer() for the request's URL. Records and logs the request.
  std::optional<Decision> decide(const InterceptedRequest& request) override;

  /// The requests answered so far, oldest first (at most kMaxRecorded).
  std::vector<ReplayRequest> requests() const;
  void clear_requests();

  const std::string& directory() const { return directory_; }
  const std::vector<ReplayEntry>& entries() const { return entries_; }
  int unmatched_status() const { return unmatched_status_; }

  /// The content type served for a file name when index.json gives none (by extension; a `.gz`
  /// suffix is looked through).
  static std::string content_type_for(const std::string& file_name);

 private:
  bool matches(std::size_t index, const std::string& url) const;
  std::shared_ptr<const std::string> body(std::size_t index) const;

  std::string directory_;
  std::vector<ReplayEntry> entries_;
  std::vector<std::optional<Regex>> patterns_;  // compiled, for Match::Regex entries
  int unmatched_status_ = 404;

  mutable std::mutex bodies_mutex_;                                           // guards bodies_
  mutable std::map<std::size_t, std::shared_ptr<const std::string>> bodies_;  // read on first use

  mutable std::mutex requests_mutex_;  // guards requests_
  std::deque<ReplayRequest> requests_;
};

}  // namespace gleaner::browser
