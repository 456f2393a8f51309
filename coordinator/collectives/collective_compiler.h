// The plan compiler of collective jobs (docs/collectives.md, "The compiler"): runs the
// job's scheduler (coordinator/schedule/) or baseline on the papers' parameters derived
// from the nodes (collective_model.h), turns the schedule into every node's plan, predicts
// it (dataflow_timing.h) and checks it with an independent checker before anything is sent.
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/collectives/collective_model.h"
#include "coordinator/jobs/plan_compiler.h"
#include "error/refusal.h"

#include <optional>
#include <string>

namespace baton::collectives {

// REQUIRES: the job's message lengths are resolved (resolve_ranges) and `model` holds
// every node of the job with a rate > 0 (and, for reduce and allreduce, a combine speed > 0).
// Throws error::InvalidInput for what the job asks beyond an algorithm's limits (dp with
// more than two speeds, bnb past 24 nodes) and error::Bug if a compiled plan fails
// its checks (an internal error, never a silent plan).
jobs::CompiledPlan compile_collective(const CollectiveJob& job, const CollectiveModel& model);

// Nothing when a reduce job is within its algorithm's limits on these nodes (dp: at most
// 512 nodes and senders of at most two rates; bnb: at most 24 nodes), else one line saying
// which and what to use instead; checked at submit, so the job is refused rather than
// failing at planning. Every other job: nothing.
std::optional<error::Refusal> tree_algorithm_problem(const CollectiveJob& job, const CollectiveModel& model);

}  // namespace baton::collectives
