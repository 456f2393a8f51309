#include "coordinator/schedule/kpbs/oggp.h"

namespace baton::schedule::kpbs {

Schedule oggp(const Problem& problem, const PeelOptions& options) {
  check(problem);
  ExtendedGraph graph = build_extended_graph(problem);
  const auto matchings = peel(graph, MatchingChoice::max_min_weight, options);
  return to_schedule(matchings, graph, problem);
}

}  // namespace baton::schedule::kpbs
