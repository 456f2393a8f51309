// The binomial-tree reduction, the homogeneous baseline (the "log P phases" tree of
// the SNF paper, Section 1; MPI's usual reduce).
//
// Ranks are relative: rank 0 is the destination. Rank i receives from i + 2^k for
// k = 0, 1, ... while bit k of i is clear, then sends to i - lowbit(i). The tree ignores
// the speeds; each transfer starts as soon as its sender holds its subtree's data and its
// receiver has finished the previous receive (no global rounds), so on a homogeneous
// cluster it takes ceil(log2 n) transfer times, and on a heterogeneous one it waits for
// whatever slow node the tree happens to put on its critical path.
#pragma once

#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <span>

namespace baton::schedule::reduction {

// The tree over `ranks` (distinct node ids; ranks[0] receives the result), starting at 0.
Schedule binomial_reduction(std::span<const double> times, std::span<const std::size_t> ranks);

// Rank 0 = the destination, then the other nodes in index order.
Schedule binomial_tree(const Problem& problem);

}  // namespace baton::schedule::reduction
