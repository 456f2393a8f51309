#include "coordinator/schedule/multicast/round_robin.h"

namespace baton::schedule::multicast {

NodeId RoundRobinRule::choose(const PartialSchedule& partial) {
  const std::size_t n = partial.problem().node_count();
  NodeId node = next_ % n;
  while (partial.pending_multicasts(node).empty()) node = (node + 1) % n;
  next_ = (node + 1) % n;
  return node;
}

Schedule round_robin(const Problem& problem, Placement placement) {
  RoundRobinRule rule;
  return schedule_receivers_first(problem, placement, rule);
}

}  // namespace baton::schedule::multicast
