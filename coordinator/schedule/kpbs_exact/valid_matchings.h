// The valid matchings of a small KPBS instance: the candidate steps of the exact solver.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace baton::schedule::kpbs_exact {

struct EdgeList {
  std::vector<std::pair<std::size_t, std::size_t>> ends;  // (sender, receiver) of edge e
  std::vector<double> times;                              // its time
};

// The pairs with data, in row-major order: edge e is bit e of a matching's mask.
EdgeList edge_list(const kpbs::Problem& problem);

// Every matching of at most k edges to which no edge can be added: it has k edges, or
// every other edge shares a sender or a receiver with it. Only these are needed: adding
// an edge to a step never makes a schedule worse (the exact solver may leave it idle),
// so some optimal schedule uses maximal valid matchings only.
// Masks over edge_list(problem) (so at most 64 edges), in a fixed order; nullopt when
// there are more than `limit` of them or the search visits more than 256·limit partial
// matchings (so it never runs long).
std::optional<std::vector<std::uint64_t>> maximal_valid_matchings(const kpbs::Problem& problem, std::size_t limit);

// The index of the first of `matchings` that contains every edge of `mask`, or -1.
int first_superset(const std::vector<std::uint64_t>& matchings, std::uint64_t mask);

}  // namespace baton::schedule::kpbs_exact
