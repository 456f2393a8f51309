#include "coordinator/schedule/kpbs/heuristic.h"

#include <algorithm>
#include <tuple>

namespace baton::schedule::kpbs {

// Fig. 10 with line 2 as Section 7 changes it: "the k edges with highest degrees".
// Decision: the paper does not define an edge's degree; we take the number of edges still
// to send at its two ends (deg(sender) + deg(receiver)), the edges that compete with it,
// and break ties by weight, then by sender.
Schedule heuristic_degrees(const Problem& problem) {
  return run_heuristic(problem, [](const BipartiteGraph& g, std::vector<int>& matched) {
    std::vector<int> left_degree(static_cast<std::size_t>(g.left_count()), 0);
    std::vector<int> right_degree(static_cast<std::size_t>(g.right_count()), 0);
    for (int e = 0; e < g.edge_count(); ++e) {
      if (!g.alive(e)) continue;
      ++left_degree[static_cast<std::size_t>(g.edge(e).left)];
      ++right_degree[static_cast<std::size_t>(g.edge(e).right)];
    }
    auto key = [&](int e) {
      const Edge& edge = g.edge(e);
      return std::make_tuple(
          left_degree[static_cast<std::size_t>(edge.left)] + right_degree[static_cast<std::size_t>(edge.right)],
          edge.weight);
    };
    std::stable_sort(matched.begin(), matched.end(), [&](int a, int b) { return key(a) > key(b); });
  });
}

}  // namespace baton::schedule::kpbs
