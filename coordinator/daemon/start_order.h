// Which waiting jobs start now (docs/runtime.md, "Jobs at once"): the driver's policy for
// running jobs side by side, as a pure function of the running jobs' nodes and the queue.
//
// A job starts when a slot is free and each of its nodes is free, or, for a job that
// shares nodes (a paced redistribution, WaitingJob::shares), runs only jobs that share it
// too, fewer than jobs_per_node of them (then each gets a share of the node's rate,
// node_shares.h). The waiting jobs are taken by "priority" (higher first), then in
// submission order, except that the jobs a restarted coordinator resumes that had started
// go first: their agents may still hold their plans (they ran at once before, so they fit
// side by side). A job that cannot start keeps its nodes for itself against every job
// after it in that order. So a later job whose nodes are free starts ahead of an earlier
// blocked one (backfill), but never on a node an earlier blocked one waits for: a waiting
// job starts once the jobs running on its nodes when it became first in line for them end,
// whatever is submitted after it at its priority or below (no starvation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace baton::coordinator {

struct WaitingJob {
  std::uint64_t id = 0;
  std::int64_t priority = 0;
  std::vector<std::string> nodes;
  bool started_before = false;  // resumed, and it had started under the earlier coordinator
  bool shares = false;          // may run on a node beside other jobs that share it
};

// The running jobs that share their nodes, and how many may share one.
struct NodeSharing {
  std::map<std::string, std::size_t> jobs;  // node → running jobs on it that share it
  std::size_t jobs_per_node = 1;            // the most jobs on one node (1: none share)
};

// The ids of `waiting` (in submission order) that start now, in the order they are to
// start: `held` holds every node of a running job that does not share it, `sharing` the
// nodes of those that do, `slots` how many more may run at once.
std::vector<std::uint64_t> jobs_to_start(const std::set<std::string>& held, const std::vector<WaitingJob>& waiting,
                                         std::size_t slots, const NodeSharing& sharing = {});

}  // namespace baton::coordinator
