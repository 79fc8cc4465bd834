#pragma once
// A job's rows written out (GET /scrapers/jobs/{id}/results: a JSON page, CSV, NDJSON) a bounded
// page at a time, straight from the store to the client: an export holds one page of rows at a
// time (at most ExportPaging's rows and bytes, or one row larger than that), never the job, so its
// memory is the same for a job of ten rows and one of a hundred thousand. And a bounded number of
// exports are sent at once, per account and per node (ExportSlots). docs/jobs.md, "Results and
// exports".
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/config.h"
#include "store/jobs_store.h"

namespace gleaner::jobs {

enum class ExportFormat {
  JsonPage,  ///< the rows as the elements of a JSON array, written between `head` and `tail`
  Csv,       ///< RFC 4180 lines of the kind's columns (csv_lines), after the header row
  Ndjson,    ///< a row per line, as stored
};

/// How much of a job an export reads from the store at once.
struct ExportPaging {
  /// Rows per read at most (the first reads fewer: see JobExport).
  std::int64_t max_rows = 256;
  /// JSON text per read at most (store::JobStore::rows_after: a single larger row is still read).
  std::int64_t max_bytes = 1 << 20;
};

/// What an export has held at once, for tests and logs.
struct ExportHeld {
  std::int64_t rows = 0;   ///< rows read from the store in one read, at most
  std::int64_t bytes = 0;  ///< their JSON text, at most
  std::int64_t reads = 0;  ///< reads made
};

/// One export of one job's rows, written in pieces: next() reads the next page of rows from the
/// store and returns its text, until the end. A JSON page or NDJSON row is written as the store
/// holds it (its compact JSON text, never parsed); a CSV row is parsed to pick its columns.
class JobExport {
 public:
  /// The job's rows from the `first`th (0-based) on, `count` of them at most (none: to the end),
  /// written in `format` (`kind` gives the CSV columns). `head` comes before the first row,
  /// `tail` after the last (a JSON page's envelope); CSV writes its header row after `head`.
  JobExport(std::shared_ptr<store::JobStore> jobs, std::string job_id, const std::string& kind,
            ExportFormat format, std::int64_t first, std::optional<std::int64_t> count,
            std::string head = {}, std::string tail = {}, ExportPaging paging = {});

  /// The next piece of the export, or none after the last. The first piece holds `head` and the
  /// first page of rows; the last one ends with `tail`.
  std::optional<std::string> next();

  const ExportHeld& held() const { return held_; }

 private:
  std::string render(const std::vector<store::StoredRow>& rows);

  std::shared_ptr<store::JobStore> jobs_;
  std::string job_id_;
  ExportFormat format_;
  std::vector<std::string> fields_;  ///< CSV columns
  std::int64_t first_;
  std::optional<std::int64_t> left_;  ///< rows still to write when `count` was given
  std::string head_;
  std::string tail_;
  ExportPaging paging_;
  /// Rows asked for in the next read: starts small and doubles while reads come back full, so
  /// that reading the lengths of rows that will not fit stays a small part of the work when rows
  /// are large (rows_after reads every asked row's length).
  std::int64_t window_ = 8;
  bool started_ = false;
  bool ended_ = false;
  bool wrote_row_ = false;
  std::int64_t cursor_ = 0;  ///< the seq of the last row written
  ExportHeld held_;
};

/// How many exports this node sends at once: `per_node` in all and `per_account` for one account.
/// One more is refused with 429 `too_many_requests` (Retry-After) until one ends.
class ExportSlots : public std::enable_shared_from_this<ExportSlots> {
 public:
  ExportSlots(int per_node, int per_account);
  /// Entries `max_exports` (default 16) and `max_exports_per_account` (default 4).
  static std::shared_ptr<ExportSlots> from_config(const Config& config);

  /// A slot for an export of `account_id`, given back when the last copy of the pointer goes.
  /// Throws Error(TooManyRequests) when none is free.
  std::shared_ptr<void> take(std::int64_t account_id);

  /// Exports being sent now (tests, metrics).
  int in_use() const;

 private:
  void give_back(std::int64_t account_id);

  const int per_node_;
  const int per_account_;
  mutable std::mutex mutex_;  // guards the counts below
  int in_use_ = 0;
  std::map<std::int64_t, int> per_account_in_use_;
};

}  // namespace gleaner::jobs
