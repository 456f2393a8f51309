#include "coordinator/schedule/kpbs/ggp.h"

namespace baton::schedule::kpbs {

Schedule ggp(const Problem& problem, const PeelOptions& options) {
  check(problem);
  ExtendedGraph graph = build_extended_graph(problem);               // Fig. 5 steps 1–3
  const auto matchings = peel(graph, MatchingChoice::any, options);  // steps 4–6
  return to_schedule(matchings, graph, problem);                     // short paper, step 7
}

}  // namespace baton::schedule::kpbs
