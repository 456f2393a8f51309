// The compilers of each collective kind, behind compile_collective (collective_compiler.h).
// Each turns its scheduler's output into dataflow tasks (or lockstep steps) and reports the
// paper model's makespan of what it scheduled.
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/collectives/collective_model.h"
#include "coordinator/collectives/dataflow.h"
#include "coordinator/jobs/plan_compiler.h"

#include <optional>

namespace baton::collectives {

struct DataflowSchedule {
  DataflowPlan plan;
  std::optional<double> model_seconds;  // the paper model's makespan; none for ring
  std::optional<double> lower_bound_seconds;
  // How many sends a node may have unfinished at once (the agents' Plan.k for a dataflow
  // step; dataflow_timing.h): 1 is the papers' 1-port model.
  std::size_t sends_at_once = 1;
};

// Reduce (snf, dp, bnb, binomial, flat) and allreduce (snf-fnf, binomial): compile_tree.cpp.
DataflowSchedule compile_tree(const CollectiveJob& job, const CollectiveModel& model);

// One transfer of a reduction tree, by node index: `start` orders a node's sends, the
// reduction's before the broadcast's.
struct TreeTransfer {
  std::size_t src = 0, dst = 0;
  double start = 0;
  bool broadcast = false;
};
// The tasks of a reduce (or all-reduce, with broadcast transfers) over `transfers` to
// `root` (compile_tree.cpp): each node combines its data with its inputs and sends the
// result on; the root combines into result.file and the broadcast relays it.
DataflowPlan tree_tasks(const CollectiveJob& job, std::vector<TreeTransfer> transfers, std::size_t root);

// Reduce, allreduce and multicast "pipelined-tree" (compile_pipelined_tree.cpp): a tree
// shaped by the nodes' rates, every message cut into segments (pipeline.h).
DataflowSchedule compile_pipelined_tree(const CollectiveJob& job, const CollectiveModel& model);
// Allreduce "rate-rsag": shards sized by the rates, reduce-scatter then all-gather
// (compile_rate_rsag.cpp).
DataflowSchedule compile_rate_rsag(const CollectiveJob& job, const CollectiveModel& model);
// Allreduce ring: compile_ring.cpp.
DataflowSchedule compile_ring(const CollectiveJob& job);
// Multicast (the paper's family, flat, binomial): compile_multicast.cpp.
DataflowSchedule compile_multicast(const CollectiveJob& job, const CollectiveModel& model);
// Buffered multicast, lockstep rounds: compile_buffered_multicast.cpp.
jobs::CompiledPlan compile_buffered_multicast(const CollectiveJob& job, const CollectiveModel& model);

}  // namespace baton::collectives
