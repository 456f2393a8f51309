// Slowest-node-first (the SNF paper, Section 4): EP over the senders in
// non-increasing t order. Optimal on power-of-2 clusters (Theorem 1) and on two speed
// classes with ratio >= 2 (Theorem 4); within 2x the optimum on any cluster (Theorem 2).
#pragma once

#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <vector>

namespace baton::schedule::reduction {

// The senders by non-increasing time. The paper does not order equal times; we break ties
// by node index so plans are reproducible.
std::vector<std::size_t> snf_order(const Problem& problem);

Schedule snf(const Problem& problem);

}  // namespace baton::schedule::reduction
