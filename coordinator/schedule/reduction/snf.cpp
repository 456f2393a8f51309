#include "coordinator/schedule/reduction/snf.h"

#include "coordinator/schedule/reduction/sender_order_schedule.h"

#include <algorithm>

namespace baton::schedule::reduction {

std::vector<std::size_t> snf_order(const Problem& problem) {
  std::vector<std::size_t> order = senders(problem);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return problem.times[a] > problem.times[b]; });
  return order;
}

Schedule snf(const Problem& problem) {
  check(problem);
  return schedule_sender_order(problem, snf_order(problem));
}

}  // namespace baton::schedule::reduction
