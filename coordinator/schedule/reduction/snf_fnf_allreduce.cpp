#include "coordinator/schedule/reduction/snf_fnf_allreduce.h"

#include "coordinator/schedule/reduction/fnf_broadcast.h"
#include "coordinator/schedule/reduction/snf.h"

#include <algorithm>
#include <iterator>

namespace baton::schedule::reduction {

AllReduceSchedule snf_fnf_allreduce(std::span<const double> times) {
  const Problem problem{.times = {times.begin(), times.end()},
                        .destination = static_cast<std::size_t>(
                            std::distance(times.begin(), std::min_element(times.begin(), times.end())))};
  const Schedule reduce = snf(problem);
  const Schedule broadcast = fnf_broadcast(times, problem.destination, makespan(reduce));
  return join_phases(problem.destination, reduce, broadcast);
}

}  // namespace baton::schedule::reduction
