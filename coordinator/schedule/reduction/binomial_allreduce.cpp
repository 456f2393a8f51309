#include "coordinator/schedule/reduction/binomial_allreduce.h"

#include "coordinator/schedule/reduction/binomial_broadcast.h"
#include "coordinator/schedule/reduction/binomial_tree.h"

#include <numeric>
#include <vector>

namespace baton::schedule::reduction {

AllReduceSchedule binomial_allreduce(std::span<const double> times) {
  std::vector<std::size_t> ranks(times.size());
  std::iota(ranks.begin(), ranks.end(), std::size_t{0});
  const Schedule reduce = binomial_reduction(times, ranks);
  const Schedule broadcast = binomial_broadcast(times, ranks, makespan(reduce));
  return join_phases(0, reduce, broadcast);
}

}  // namespace baton::schedule::reduction
