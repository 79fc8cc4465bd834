#include "jobs/job_export.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "jobs/job_request.h"

namespace gleaner::jobs {

JobExport::JobExport(std::shared_ptr<store::JobStore> jobs, std::string job_id,
                     const std::string& kind, ExportFormat format, std::int64_t first,
                     std::optional<std::int64_t> count, std::string head, std::string tail,
                     ExportPaging paging)
    : jobs_(std::move(jobs)),
      job_id_(std::move(job_id)),
      format_(format),
      fields_(format == ExportFormat::Csv ? row_fields(kind) : std::vector<std::string>{}),
      first_(first),
      left_(count),
      head_(std::move(head)),
      tail_(std::move(tail)),
      paging_(paging) {
  window_ = std::clamp<std::int64_t>(window_, 1, std::max<std::int64_t>(paging_.max_rows, 1));
}

std::optional<std::string> JobExport::next() {
  if (ended_) return std::nullopt;
  std::string out;
  if (!started_) {
    started_ = true;
    out = std::move(head_);
    if (format_ == ExportFormat::Csv) out += csv_header(fields_);
    if (first_ > 0) {
      // A page past the first starts at its first row's seq (one look at the index, then a
      // cursor); past the last row there is nothing to write.
      const auto seq = jobs_->seq_at(job_id_, first_);
      if (seq) {
        cursor_ = *seq - 1;
      } else {
        left_ = 0;
      }
    }
  }
  std::vector<store::StoredRow> rows;
  if (!left_ || *left_ > 0) {
    const std::int64_t ask = left_ ? std::min(window_, *left_) : window_;
    rows = jobs_->rows_after(job_id_, cursor_, ask, paging_.max_bytes);
    ++held_.reads;
    std::int64_t bytes = 0;
    for (const auto& row : rows) bytes += static_cast<std::int64_t>(row.json.size());
    held_.rows = std::max<std::int64_t>(held_.rows, static_cast<std::int64_t>(rows.size()));
    held_.bytes = std::max(held_.bytes, bytes);
    // A full read asks for twice as many next time (up to max_rows); one cut by max_bytes asks
    // for as many as fitted.
    const auto got = static_cast<std::int64_t>(rows.size());
    window_ = got >= ask ? std::min(window_ * 2, paging_.max_rows) : std::max<std::int64_t>(got, 1);
    if (!rows.empty()) cursor_ = rows.back().seq;
    if (left_) *left_ -= got;
  }
  out += render(rows);
  if (rows.empty() || (left_ && *left_ <= 0)) {
    out += tail_;
    ended_ = true;
    // A read that found nothing more still ends the export with its tail (or header alone).
  }
  return out;
}

std::string JobExport::render(const std::vector<store::StoredRow>& rows) {
  std::string out;
  switch (format_) {
    case ExportFormat::Csv: {
      std::vector<nlohmann::json> parsed;
      parsed.reserve(rows.size());
      for (const auto& row : rows) parsed.push_back(nlohmann::json::parse(row.json));
      return csv_lines(parsed, fields_);
    }
    case ExportFormat::Ndjson:
      for (const auto& row : rows) {
        out += row.json;
        out += '\n';
      }
      return out;
    case ExportFormat::JsonPage:
      for (const auto& row : rows) {
        if (wrote_row_) out += ',';
        wrote_row_ = true;
        out += row.json;
      }
      return out;
  }
  return out;
}

ExportSlots::ExportSlots(int per_node, int per_account)
    : per_node_(per_node), per_account_(per_account) {}

std::shared_ptr<ExportSlots> ExportSlots::from_config(const Config& config) {
  const long long per_node = config.get_int("max_exports", 16);
  const long long per_account =
      config.get_int("max_exports_per_account", std::min<long long>(4, per_node));
  if (per_node < 1 || per_node > 100000) Config::refuse("max_exports", "must be 1 to 100000");
  if (per_account < 1 || per_account > per_node) {
    Config::refuse("max_exports_per_account", "must be 1 to max_exports");
  }
  return std::make_shared<ExportSlots>(static_cast<int>(per_node), static_cast<int>(per_account));
}

std::shared_ptr<void> ExportSlots::take(std::int64_t account_id) {
  {
    std::lock_guard lock(mutex_);
    int& mine = per_account_in_use_[account_id];
    if (mine >= per_account_ || in_use_ >= per_node_) {
      const bool account_full = mine >= per_account_;
      if (mine == 0) per_account_in_use_.erase(account_id);
      const auto exports = [](int n) {
        return std::to_string(n) + (n == 1 ? " export" : " exports") + " of job results";
      };
      throw Error(ErrorCode::TooManyRequests,
                  account_full ? "this account already has " + exports(per_account_) +
                                     " being sent, as many as it may have at once; try again "
                                     "when one has ended"
                               : "this node is already sending " + exports(per_node_) +
                                     ", as many as it may at once; try again shortly")
          .with_retry_after(std::chrono::seconds(1));
    }
    ++mine;
    ++in_use_;
  }
  // The slot's deleter gives it back; it holds the slots alive as long as it lives.
  auto self = shared_from_this();
  return std::shared_ptr<void>(static_cast<void*>(this),
                               [self, account_id](void*) { self->give_back(account_id); });
}

void ExportSlots::give_back(std::int64_t account_id) {
  std::lock_guard lock(mutex_);
  --in_use_;
  auto it = per_account_in_use_.find(account_id);
  if (it != per_account_in_use_.end() && --it->second <= 0) per_account_in_use_.erase(it);
}

int ExportSlots::in_use() const {
  std::lock_guard lock(mutex_);
  return in_use_;
}

}  // namespace gleaner::jobs
