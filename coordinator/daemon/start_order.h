// Which waiting jobs start now (docs/runtime.md, "Jobs at once"): the driver's policy for
// running jobs side by side, as a pure function of the running jobs' nodes and the queue.
//
// A job starts when none of its nodes is in a running job and a slot is free. The waiting
// jobs are taken by "priority" (higher first), then in submission order, except that the
// jobs a restarted coordinator resumes that had started go first: their agents may still
// hold their plans, and would refuse another job's (they ran at once before, so their
// nodes are disjoint). A job that cannot start keeps its nodes for itself against every
// job after it in that order. So a later job whose nodes are free starts ahead of an
// earlier blocked one (backfill), but never on a node an earlier blocked one waits for: a
// waiting job starts once the jobs running on its nodes when it became first in line for
// them end, whatever is submitted after it at its priority or below (no starvation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace baton::coordinator {

struct WaitingJob {
  std::uint64_t id = 0;
  std::int64_t priority = 0;
  std::vector<std::string> nodes;
  bool started_before = false;  // resumed, and it had started under the earlier coordinator
};

// The ids of `waiting` (in submission order) that start now, in the order they are to
// start: `busy` holds every node of a running job, `slots` how many more may run at once.
std::vector<std::uint64_t> jobs_to_start(const std::set<std::string>& busy, const std::vector<WaitingJob>& waiting,
                                         std::size_t slots);

}  // namespace baton::coordinator
