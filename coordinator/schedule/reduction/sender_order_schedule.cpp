#include "coordinator/schedule/reduction/sender_order_schedule.h"

#include "coordinator/schedule/reduction/earliest_possible.h"
#include "coordinator/schedule/reduction/receiver_assignment.h"
#include "error/error.h"

#include <vector>

namespace baton::schedule::reduction {

Schedule schedule_sender_order(const Problem& problem, std::span<const std::size_t> order) {
  check(problem);
  const std::size_t n = problem.times.size();
  if (order.size() + 1 != n) {
    throw error::InvalidInput("sender order: must list the n - 1 senders");
  }
  std::vector<bool> seen(n, false);
  for (std::size_t p : order) {
    if (p >= n || p == problem.destination || seen[p]) {
      throw error::InvalidInput("sender order: not a permutation of the senders");
    }
    seen[p] = true;
  }
  const std::vector<EpSlot> slots = earliest_possible(problem.times, order);
  return assign_receivers(slots, problem.destination);
}

}  // namespace baton::schedule::reduction
