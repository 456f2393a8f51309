#include "coordinator/schedule/multicast/receiver_random_selection.h"

namespace baton::schedule::multicast {

RandomReceiverRule::RandomReceiverRule(const Problem& problem, std::uint64_t seed)
    : engine_(seed), position_(problem.node_count(), 0) {
  std::vector<bool> needs(problem.node_count(), false);
  for (const Multicast& m : problem.multicasts) {
    for (NodeId d : m.destinations) needs[d] = true;
  }
  for (NodeId i = 0; i < problem.node_count(); ++i) {
    if (!needs[i]) continue;
    position_[i] = active_.size();
    active_.push_back(i);
  }
}

NodeId RandomReceiverRule::choose(const PartialSchedule&) {
  return active_[static_cast<std::size_t>(engine_() % active_.size())];
}

void RandomReceiverRule::committed(const PartialSchedule& partial, const Transfer& transfer) {
  const NodeId done = transfer.receiver;
  if (!partial.pending_multicasts(done).empty()) return;
  // Swap-remove the receiver that needs nothing more.
  const NodeId moved = active_.back();
  active_[position_[done]] = moved;
  position_[moved] = position_[done];
  active_.pop_back();
}

Schedule receiver_random_selection(const Problem& problem, Placement placement, std::uint64_t seed) {
  RandomReceiverRule rule(problem, seed);
  return schedule_receivers_first(problem, placement, rule);
}

}  // namespace baton::schedule::multicast
