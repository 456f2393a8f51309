// The all-reduction of the SNF paper, Theorem 3 (a 3.5-approximation):
// an SNF reduction to the fastest node, then a fastest-node-first broadcast from it.
// Ties for the fastest node go to the lowest index.
#pragma once

#include "coordinator/schedule/reduction/allreduce.h"

#include <span>

namespace baton::schedule::reduction {

AllReduceSchedule snf_fnf_allreduce(std::span<const double> times);

}  // namespace baton::schedule::reduction
