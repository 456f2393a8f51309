// The binomial-tree broadcast, the homogeneous baseline for the broadcast half of an
// all-reduction: the reduction tree of binomial_tree.h run backwards. Rank i (> 0)
// receives from i - lowbit(i), then sends to i + 2^k for k from the highest below
// lowbit(i) down to 0 (rank 0: every 2^k < n, highest first), each as soon as both ends
// are free.
#pragma once

#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <span>

namespace baton::schedule::reduction {

// ranks[0] holds the message at `start`.
Schedule binomial_broadcast(std::span<const double> times, std::span<const std::size_t> ranks, double start);

}  // namespace baton::schedule::reduction
