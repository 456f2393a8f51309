#include "coordinator/schedule/kpbs/heuristic.h"

#include <algorithm>

namespace baton::schedule::kpbs {

// Fig. 10 line 2: the k edges whose weights are the largest (ties: lower sender first).
Schedule heuristic_weights(const Problem& problem) {
  return run_heuristic(problem, [](const BipartiteGraph& g, std::vector<int>& matched) {
    std::stable_sort(matched.begin(), matched.end(),
                     [&g](int a, int b) { return g.edge(a).weight > g.edge(b).weight; });
  });
}

}  // namespace baton::schedule::kpbs
