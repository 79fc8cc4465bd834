#pragma once
// A replay archive (spec/conventions.md "Replay archives") built by a test in a temporary
// directory, removed when the object goes. Entries are written in the order added, so the first
// added wins among those that match.
#include "browser/replay.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>

namespace gleaner::testing {

/// `data` gzip-compressed (a .gz file's bytes).
std::string gzip(const std::string& data);

class TempReplayArchive {
 public:
  /// One index.json entry. Exactly one of `body` (written into the archive) and `source` (a file
  /// copied byte for byte, e.g. a fixture) gives the content.
  struct Entry {
    std::string match = "exact";  // exact | prefix | regex
    std::string url;
    std::string body;
    std::string source;
    /// Name of the file in the archive; its extension sets the content type when `headers` has
    /// none. Default: derived from `source`, else "entry<N>.html".
    std::string file_name;
    /// Store the file gzip-compressed (as `<file_name>.gz`): served decompressed.
    bool gzip = false;
    /// Omitted from index.json when 0 (the archive's default, 200).
    int status = 0;
    std::map<std::string, std::string> headers;
  };

  TempReplayArchive();
  ~TempReplayArchive();
  TempReplayArchive(const TempReplayArchive&) = delete;
  TempReplayArchive& operator=(const TempReplayArchive&) = delete;

  TempReplayArchive& add(Entry entry);
  /// An HTML page answering exactly `url`.
  TempReplayArchive& page(const std::string& url, const std::string& html);
  /// A file (e.g. site_page("google", "serp/...") of pages.h) answering exactly `url`.
  TempReplayArchive& file(const std::string& url, const std::string& source_path);
  /// The status of requests no entry matches (default: the archive's, 404).
  TempReplayArchive& unmatched(int status);

  /// Writes index.json and loads the archive (each call loads it afresh, with an empty log).
  std::shared_ptr<browser::ReplayArchive> load();
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  nlohmann::json index_;
  int count_ = 0;
};

}  // namespace gleaner::testing
