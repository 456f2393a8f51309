#include "coordinator/schedule/multicast/lower_bound.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace baton::schedule::multicast {

std::vector<double> earliest_reach_times(const Problem& problem, MulticastId k) {
  constexpr double kUnreached = std::numeric_limits<double>::infinity();
  const Multicast& m = problem.multicasts[k];
  std::vector<double> reach(problem.node_count(), kUnreached);
  // Dense Dijkstra over the nodes that may hold m_k: the source and D_k.
  std::vector<NodeId> members{m.source};
  members.insert(members.end(), m.destinations.begin(), m.destinations.end());
  std::vector<bool> settled(problem.node_count(), false);
  reach[m.source] = 0;
  for (std::size_t round = 0; round < members.size(); ++round) {
    NodeId u = members.front();
    double best = kUnreached;
    for (NodeId v : members) {
      if (!settled[v] && reach[v] < best) {
        best = reach[v];
        u = v;
      }
    }
    if (best == kUnreached) break;
    settled[u] = true;
    for (NodeId v : m.destinations) {
      if (!settled[v]) reach[v] = std::min(reach[v], reach[u] + latency(problem, u, v, k));
    }
  }
  return reach;
}

double earliest_reach_lower_bound(const Problem& problem) {
  // incoming[i]: (earliest start of the receive, R(i, l_k)) of every message P_i needs.
  std::vector<std::vector<std::pair<double, double>>> incoming(problem.node_count());
  for (MulticastId k = 0; k < problem.multicasts.size(); ++k) {
    const std::vector<double> reach = earliest_reach_times(problem, k);
    for (NodeId i : problem.multicasts[k].destinations) {
      const double receive = recv_overhead(problem, i, k);
      incoming[i].emplace_back(reach[i] - receive, receive);
    }
  }
  double bound = 0;
  for (auto& messages : incoming) {
    std::sort(messages.begin(), messages.end());
    // Equation 4: T_r(i, k) = max{T_r(i, k-1) + R, L} = max{T_r(i, k-1), L - R} + R.
    double done = 0;
    for (const auto& [release, receive] : messages) done = std::max(done, release) + receive;
    bound = std::max(bound, done);
  }
  return bound;
}

}  // namespace baton::schedule::multicast
