#include "coordinator/schedule/multicast/work_racing.h"

#include <algorithm>
#include <optional>

namespace baton::schedule::multicast {

WorkRacingRule::WorkRacingRule(const Problem& problem) : fastest_(problem), virtual_time_(problem.node_count(), 0.0) {}

NodeId WorkRacingRule::choose(const PartialSchedule& partial) {
  // Step 1: the least completed work among nodes with SR_i not empty; then the fastest.
  std::optional<NodeId> best;
  for (NodeId i = 0; i < virtual_time_.size(); ++i) {
    if (partial.pending_multicasts(i).empty()) continue;
    if (!best || virtual_time_[i] < virtual_time_[*best] ||
        (virtual_time_[i] == virtual_time_[*best] && fastest_.rank(i) < fastest_.rank(*best))) {
      best = i;
    }
  }
  return *best;
}

void WorkRacingRule::committed(const PartialSchedule& partial, const Transfer& transfer) {
  const Problem& problem = partial.problem();
  const auto [sender, receiver, k] = transfer;
  const std::size_t n = problem.node_count();
  // Equation 9: the virtual arrival of m_k at the receiver.
  double arrival = send_overhead(problem, sender, k) + link_time(problem, sender, receiver, k);
  if (sender != problem.multicasts[k].source) arrival += time_at_receipt_.at(k * n + sender);
  // Equation 8 (its k = 1 case is the same formula with W_{i,0} = 0).
  double& w = virtual_time_[receiver];
  w = std::max(w, arrival) + recv_overhead(problem, receiver, k);
  time_at_receipt_[k * n + receiver] = w;
}

Schedule work_racing(const Problem& problem, Placement placement) {
  WorkRacingRule rule(problem);
  return schedule_receivers_first(problem, placement, rule);
}

}  // namespace baton::schedule::multicast
