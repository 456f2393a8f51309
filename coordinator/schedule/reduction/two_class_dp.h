// The optimal reduction for a cluster with at most two speed classes
// (the SNF paper, Section 5.3.2): fill the T(f, s) table (mcp_table.h)
// and build the tree its splits describe.
//
// The classes are the distinct times among the senders; the destination's own time never
// matters (it never sends), so it is not counted. One class is the f = 0 row (3): a
// binomial tree. The tree becomes a schedule forwards in time: each transfer starts when
// both its predecessors (the subtree into its sender and the one into its receiver) are
// done, so the makespan is the critical path T(f, s).
#pragma once

#include "coordinator/schedule/reduction/mcp_table.h"
#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/schedule.h"

#include <cstdint>

namespace baton::schedule::reduction {

struct DpResult {
  Schedule schedule;
  double optimum = 0;         // T(f, s)
  std::uint64_t lookups = 0;  // over the whole table
};

// Throws error::InvalidInput when the senders have more than two distinct times.
DpResult two_class_dp(const Problem& problem, DpVariant variant = DpVariant::pruned);

}  // namespace baton::schedule::reduction
