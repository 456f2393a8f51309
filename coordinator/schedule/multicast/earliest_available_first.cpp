#include "coordinator/schedule/multicast/earliest_available_first.h"

#include <optional>

namespace baton::schedule::multicast {

NodeId EarliestAvailableRule::choose(const PartialSchedule& partial) {
  std::optional<NodeId> best;
  double best_time = 0;
  for (NodeId i = 0; i < partial.problem().node_count(); ++i) {
    if (partial.pending_multicasts(i).empty()) continue;
    const double available = partial.receive_available(i);
    if (!best || available < best_time || (available == best_time && fastest_.rank(i) < fastest_.rank(*best))) {
      best = i;
      best_time = available;
    }
  }
  return *best;
}

Schedule earliest_available_first(const Problem& problem, Placement placement) {
  EarliestAvailableRule rule(problem);
  return schedule_receivers_first(problem, placement, rule);
}

}  // namespace baton::schedule::multicast
