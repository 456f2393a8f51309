// Independent checks of reduction and all-reduction schedules against the rules of
// docs/formats.md ("Reduction and all-reduction"), recomputing the makespan. They know nothing
// of how a schedule was made; batonctl runs them on every plan before printing it.
#pragma once

#include "coordinator/schedule/reduction/allreduce.h"
#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/schedule.h"
#include "error/refusal.h"

#include <optional>
#include <span>
#include <string>

namespace baton::schedule::reduction {

struct Verdict {
  std::optional<error::Refusal> broken;  // the first broken rule, naming the transfer (#index) or node
  double makespan = 0;                   // the latest end, recomputed (meaningful when nothing is broken)
};

// Times are compared with a relative tolerance of 1e-9 so schedules read back from JSON
// check the same as in memory.
inline constexpr double kRelativeTolerance = 1e-9;

// Reduction: every node but the destination sends exactly once and the destination never;
// a transfer from p lasts times[p]; no node is in two overlapping transfers; a node sends
// only after every transfer it receives has ended, and after sending takes part in nothing
// more. Then every node's data reaches the destination (times grow along the send chain).
Verdict validate_reduction(const Problem& problem, const Schedule& schedule);

// All-reduction: the reduce-phase transfers are a reduction to the root as above; the
// broadcast starts once the root holds the result (the end of the reduce phase); in it a
// node sends only after it has received, every node but the root receives exactly once,
// and a transfer from p lasts times[p]; no node is in two overlapping transfers over both
// phases. The makespan covers both phases.
Verdict validate_allreduce(std::span<const double> times, const AllReduceSchedule& schedule);

}  // namespace baton::schedule::reduction
