#include "coordinator/schedule/multicast/earliest_completion_first.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

namespace baton::schedule::multicast {
namespace {

// (completion, receiver, sender, multicast): compared lexicographically, the tie rule.
using Candidate = std::tuple<double, NodeId, NodeId, MulticastId>;

// Step 1 for multicast k: the least CompleteTime(i, j, k) over P_i ∈ A_k, P_j ∈ B_k.
// Equations 5 and 6 as PartialSchedule::completion_time computes them, with the parts
// that depend on one side only hoisted out of the inner loop.
void improve_with_multicast(const PartialSchedule& partial, MulticastId k, std::optional<Candidate>& best) {
  const Problem& problem = partial.problem();
  const std::vector<NodeId>& receivers = partial.pending_receivers(k);
  const double length = static_cast<double>(problem.multicasts[k].bytes);
  std::vector<double> ready(receivers.size());    // Avail_j
  std::vector<double> receive(receivers.size());  // R(j, l_k)
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    ready[r] = partial.receive_available(receivers[r]);
    receive[r] = recv_overhead(problem, receivers[r], k);
  }
  for (NodeId i : partial.holders(k)) {
    const double sent = partial.send_available(i, k) + send_overhead(problem, i, k);
    const std::vector<double>& links = problem.link_per_byte[i];
    for (std::size_t r = 0; r < receivers.size(); ++r) {
      const NodeId j = receivers[r];
      const double completion = std::max(sent + links[j] * length, ready[r]) + receive[r];
      if (!best || completion < std::get<0>(*best) ||
          (completion == std::get<0>(*best) && Candidate{completion, j, i, k} < *best)) {
        best = Candidate{completion, j, i, k};
      }
    }
  }
}

}  // namespace

Schedule earliest_completion_first(const Problem& problem, Placement placement) {
  PartialSchedule partial(problem, placement);
  while (partial.remaining_deliveries() > 0) {
    // Steps 1 and 2: the minimum C_k over every multicast with B_k not empty.
    std::optional<Candidate> best;
    for (MulticastId k = 0; k < problem.multicasts.size(); ++k) {
      if (!partial.pending_receivers(k).empty()) improve_with_multicast(partial, k, best);
    }
    const auto [time, receiver, sender, k] = *best;
    partial.commit(Transfer{sender, receiver, k});
  }
  return std::move(partial).take();
}

}  // namespace baton::schedule::multicast
