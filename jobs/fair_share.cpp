#include "jobs/fair_share.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace gleaner::jobs {
namespace {

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

template <class Map>
typename Map::mapped_type value_in(const Map& map, const typename Map::key_type& key) {
  const auto it = map.find(key);
  return it == map.end() ? typename Map::mapped_type{} : it->second;
}

}  // namespace

FairShare::FairShare(int threads, int job_cap)
    : threads_(std::max(1, threads)), job_cap_(std::clamp(job_cap, 1, std::max(1, threads))) {}

std::vector<std::size_t> FairShare::order(const std::vector<store::PageJobRef>& candidates) {
  std::map<std::int64_t, int> jobs_of;  // account → its jobs offered
  std::set<std::string> offered;
  for (const store::PageJobRef& c : candidates) {
    ++jobs_of[c.account_id];
    offered.insert(c.id);
  }
  // Turns are kept only for what is still offered or running, so memory follows the live jobs.
  std::erase_if(job_turn_, [&](const auto& t) {
    return !offered.count(t.first) && !job_threads_.count(t.first);
  });
  std::erase_if(account_turn_, [&](const auto& t) {
    return !jobs_of.count(t.first) && !account_threads_.count(t.first);
  });

  const int account_share =
      jobs_of.empty() ? threads_ : ceil_div(threads_, static_cast<int>(jobs_of.size()));
  // (past its share, account's turn, job's turn, place offered): smallest first.
  std::vector<std::tuple<bool, std::uint64_t, std::uint64_t, std::size_t>> keyed;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const store::PageJobRef& c = candidates[i];
    const int held = value_in(job_threads_, c.id);
    if (held >= job_cap_) continue;
    const int job_share = ceil_div(account_share, jobs_of[c.account_id]);
    const bool past_share =
        held >= job_share || value_in(account_threads_, c.account_id) >= account_share;
    keyed.emplace_back(past_share, value_in(account_turn_, c.account_id), value_in(job_turn_, c.id),
                       i);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> out;
  out.reserve(keyed.size());
  for (const auto& k : keyed) out.push_back(std::get<3>(k));
  return out;
}

void FairShare::took(const store::PageJobRef& job) {
  ++turn_;
  account_turn_[job.account_id] = turn_;
  job_turn_[job.id] = turn_;
  ++account_threads_[job.account_id];
  ++job_threads_[job.id];
}

void FairShare::released(const store::PageJobRef& job) {
  if (auto it = job_threads_.find(job.id); it != job_threads_.end() && --it->second <= 0) {
    job_threads_.erase(it);
  }
  if (auto it = account_threads_.find(job.account_id);
      it != account_threads_.end() && --it->second <= 0) {
    account_threads_.erase(it);
  }
}

int FairShare::holding(const std::string& job_id) const {
  return value_in(job_threads_, job_id);
}

}  // namespace gleaner::jobs
