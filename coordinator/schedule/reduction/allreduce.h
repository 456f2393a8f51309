// An all-reduction schedule (the SNF paper, Section 5.2): a reduction to
// a root, then a broadcast of the result from the root to every other node.
#pragma once

#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace baton::schedule::reduction {

enum class Phase { reduce, broadcast };

// "reduce" / "broadcast" (docs/formats.md).
std::string_view name(Phase phase);

struct PhasedTransfer {
  Transfer transfer;
  Phase phase = Phase::reduce;
};

struct AllReduceSchedule {
  std::size_t root = 0;  // the node the reduction ends at and the broadcast starts from
  std::vector<PhasedTransfer> transfers;
};

// The latest end over both phases; 0 for a single node.
double makespan(const AllReduceSchedule& schedule);

// Puts a reduction and a broadcast together as the two phases of one schedule.
AllReduceSchedule join_phases(std::size_t root, const Schedule& reduce, const Schedule& broadcast);

}  // namespace baton::schedule::reduction
