// The fair turns of a node's page-job threads (jobs/fair_share.h): accounts take turns, then the
// jobs of one account; a job past its share goes after the jobs under theirs, and never past the
// cap.
#include "jobs/fair_share.h"

#include <gtest/gtest.h>

namespace gleaner::jobs {
namespace {

using store::PageJobRef;

/// The ids of `candidates` in the order `fair` gives.
std::vector<std::string> ids(FairShare& fair, const std::vector<PageJobRef>& candidates) {
  std::vector<std::string> out;
  for (std::size_t i : fair.order(candidates)) out.push_back(candidates.at(i).id);
  return out;
}

/// Takes the first job of the order, as a thread whose claim found it ready; returns its id.
std::string take_first(FairShare& fair, const std::vector<PageJobRef>& candidates) {
  const auto order = fair.order(candidates);
  if (order.empty()) return {};
  fair.took(candidates.at(order.front()));
  return candidates.at(order.front()).id;
}

TEST(FairShare, AccountsTakeTurnsThenTheJobsOfAnAccount) {
  FairShare fair(1, 1);
  // Account 1 has two jobs (the oldest first), account 2 one.
  const std::vector<PageJobRef> jobs = {{"a1", 1}, {"a2", 1}, {"b1", 2}};
  EXPECT_EQ(ids(fair, jobs), (std::vector<std::string>{"a1", "a2", "b1"}));
  std::vector<std::string> served;
  for (int i = 0; i < 6; ++i) {
    served.push_back(take_first(fair, jobs));
    fair.released(jobs.at(served.back() == "a1" ? 0 : served.back() == "a2" ? 1 : 2));
  }
  // Account 2 every other turn; account 1's turns alternate between its jobs.
  EXPECT_EQ(served, (std::vector<std::string>{"a1", "b1", "a2", "b1", "a1", "b1"}));
}

TEST(FairShare, ANewAccountsJobComesBeforeTheLongJobThatHadEveryThread) {
  FairShare fair(4, 4);
  std::vector<PageJobRef> jobs = {{"crawl", 1}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(take_first(fair, jobs), "crawl");  // alone: every thread
  EXPECT_EQ(fair.holding("crawl"), 4);
  EXPECT_TRUE(fair.order(jobs).empty());  // at the cap
  jobs.push_back({"batch", 2});
  fair.released(jobs[0]);
  // The crawl holds three threads, past its share of two: the batch goes first.
  EXPECT_EQ(ids(fair, jobs), (std::vector<std::string>{"batch", "crawl"}));
  EXPECT_EQ(take_first(fair, jobs), "batch");
  fair.released(jobs[0]);
  // Two of four: at its share, still after the batch.
  EXPECT_EQ(ids(fair, jobs), (std::vector<std::string>{"batch", "crawl"}));
  fair.released(jobs[0]);
  // One and one of four: both under their share; the crawl's account was served longer ago.
  EXPECT_EQ(ids(fair, jobs), (std::vector<std::string>{"crawl", "batch"}));
}

TEST(FairShare, AJobPastItsShareStillTakesWhatNoOtherJobCanUseButNeverPastTheCap) {
  FairShare fair(4, 3);
  const std::vector<PageJobRef> jobs = {{"a", 1}, {"b", 2}};
  fair.took(jobs[0]);
  fair.took(jobs[0]);
  // "a" holds its share (2 of 4): "b" first, "a" after it (used when "b" has nothing ready).
  EXPECT_EQ(ids(fair, jobs), (std::vector<std::string>{"b", "a"}));
  fair.took(jobs[0]);
  // At the cap of three: left out.
  EXPECT_EQ(ids(fair, jobs), (std::vector<std::string>{"b"}));
}

TEST(FairShare, AnAccountsShareIsSplitBetweenItsJobs) {
  FairShare fair(4, 4);
  const std::vector<PageJobRef> jobs = {{"a1", 1}, {"a2", 1}, {"a3", 1}, {"b1", 2}};
  fair.took(jobs[0]);
  fair.took(jobs[1]);
  // Account 1 holds its share of two threads, however many jobs it has: b1 first, and account
  // 1's jobs only after it.
  EXPECT_EQ(ids(fair, jobs).front(), "b1");
  fair.released(jobs[1]);
  // Now account 1 holds one thread (a1, at its job's share of one): a2 and a3 are under theirs,
  // after b1 (account 2 was served longer ago), a3 first (never served).
  EXPECT_EQ(ids(fair, jobs), (std::vector<std::string>{"b1", "a3", "a2", "a1"}));
}

TEST(FairShare, TurnsOfAccountsWithNoJobLeftAreForgotten) {
  FairShare fair(1, 1);
  const PageJobRef old{"old", 1};
  fair.took(old);
  fair.released(old);
  // While account 1 has a job, it remembers its turn: account 2 goes first.
  EXPECT_EQ(ids(fair, {{"new", 1}, {"other", 2}}), (std::vector<std::string>{"other", "new"}));
  // Account 1 had no job for a while (only account 2's was offered): its turn is forgotten, and
  // its next job takes its place by age.
  fair.order({{"other", 2}});
  EXPECT_EQ(ids(fair, {{"new", 1}, {"other", 2}}), (std::vector<std::string>{"new", "other"}));
}

}  // namespace
}  // namespace gleaner::jobs
