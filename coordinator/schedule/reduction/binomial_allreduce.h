// The homogeneous baseline all-reduction: a binomial-tree reduction to node 0, then a
// binomial-tree broadcast from node 0 (ranks in index order). Like MPI's reduce + bcast it
// does not look at the speeds, so its root is node 0 rather than the fastest node.
#pragma once

#include "coordinator/schedule/reduction/allreduce.h"

#include <span>

namespace baton::schedule::reduction {

AllReduceSchedule binomial_allreduce(std::span<const double> times);

}  // namespace baton::schedule::reduction
