#pragma once
// Which page job a node's free page-job thread serves next (docs/jobs.md "Fair shares"): the
// accounts take turns, then the jobs of one account, so one account's long crawl does not keep
// another's one-page batch waiting for it to end. Each job is held to its fair share of the
// node's threads while others have work (the node's threads split between the accounts with
// page jobs, an account's share between its jobs); threads no other job can use go to jobs past
// their share, up to `job_cap`, so a job alone still has every thread.
//
// The turns are this node's: every node shares out its own threads, and the store's leases
// (store/jobs_store.h claim_entry) keep two nodes from taking one entry. Not thread-safe: the
// page worker holds one lock around order(), the claim it orders and took().
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "store/jobs_store.h"

namespace gleaner::jobs {

class FairShare {
 public:
  /// `threads`: the node's page-job threads; `job_cap`: the most of them one job may hold, alone
  /// or not (entry `page_jobs_job_share`).
  FairShare(int threads, int job_cap);

  /// The order in which to try `candidates` (store::ClaimOrder): first the jobs under their fair
  /// share, the account served longest ago first and, within an account, the job served longest
  /// ago (then the oldest); then the jobs past their share but under `job_cap`, in the same order.
  /// Jobs at `job_cap` are left out. Forgets the turns of jobs and accounts no longer offered.
  std::vector<std::size_t> order(const std::vector<store::PageJobRef>& candidates);
  /// A thread took an entry of `job`: its account and the job go to the end of their turns, and
  /// the job holds one more thread until released().
  void took(const store::PageJobRef& job);
  /// A thread is done with an entry of `job`.
  void released(const store::PageJobRef& job);
  /// Threads holding an entry of `job_id` now.
  int holding(const std::string& job_id) const;

 private:
  const int threads_;
  const int job_cap_;
  std::uint64_t turn_ = 0;  ///< counts took(); a turn number 0 means never served
  std::map<std::int64_t, std::uint64_t> account_turn_;
  std::map<std::string, std::uint64_t> job_turn_;
  std::map<std::int64_t, int> account_threads_;
  std::map<std::string, int> job_threads_;
};

}  // namespace gleaner::jobs
