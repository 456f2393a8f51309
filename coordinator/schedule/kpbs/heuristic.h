// The heuristics of the kpbs paper, Section 7 (Fig. 10): repeatedly take a maximum
// matching of what is left, keep k of its edges, cut them to the lightest kept one.
// Faster than GGP (O(m²√n)) but without a guarantee.
#pragma once

#include "coordinator/schedule/kpbs/bipartite_graph.h"
#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

#include <functional>
#include <vector>

namespace baton::schedule::kpbs {

// Heuristic on weights: keeps the k heaviest edges of the matching.
Schedule heuristic_weights(const Problem& problem);

// Heuristic on degrees: keeps the k edges of highest degree.
Schedule heuristic_degrees(const Problem& problem);

// Fig. 10 line 2, the part the two heuristics differ in: reorders `matched` (edge ids of
// the current maximum matching of `graph`) so that the edges to keep come first.
using KeepOrder = std::function<void(const BipartiteGraph& graph, std::vector<int>& matched)>;

// Fig. 10 with the given line 2. Decision: line 1's "maximal matching" is a maximum
// (cardinality) matching, as the complexity analysis (Hopcroft–Karp) says.
Schedule run_heuristic(const Problem& problem, const KeepOrder& keep_first);

}  // namespace baton::schedule::kpbs
