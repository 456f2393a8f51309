#include "coordinator/schedule/multicast/fastest_edge_first.h"

#include "coordinator/schedule/multicast/partial_schedule.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>
#include <vector>

namespace baton::schedule::multicast {
namespace {

// (weight, receiver, sender, multicast): the heap's order is the tie rule.
using Candidate = std::tuple<double, NodeId, NodeId, MulticastId>;
using CandidateHeap = std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>>;

void add_sender(const PartialSchedule& partial, NodeId sender, MulticastId k, CandidateHeap& heap) {
  for (NodeId j : partial.pending_receivers(k)) {
    heap.emplace(latency(partial.problem(), sender, j, k), j, sender, k);
  }
}

}  // namespace

Schedule fastest_edge_first(const Problem& problem) {
  PartialSchedule partial(problem, Placement::append);
  CandidateHeap heap;
  for (MulticastId k = 0; k < problem.multicasts.size(); ++k) {
    add_sender(partial, problem.multicasts[k].source, k, heap);
  }
  while (partial.remaining_deliveries() > 0) {
    // Step 1: the lightest (i, j, k) whose receiver still needs m_k.
    const auto [weight, receiver, sender, k] = heap.top();
    heap.pop();
    const std::vector<NodeId>& pending = partial.pending_receivers(k);
    if (!std::binary_search(pending.begin(), pending.end(), receiver)) continue;
    // Step 2: P_j moves from B_k to A_k; append the send and the receive.
    partial.commit(Transfer{sender, receiver, k});
    add_sender(partial, receiver, k, heap);
  }
  return std::move(partial).take();
}

}  // namespace baton::schedule::multicast
