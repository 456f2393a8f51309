// Branch-and-bound over EP sender orders (the SNF paper, Section 6.2).
//
// Every schedule can be made earliest-possible without getting longer (Section 3), so the
// best of all sender orders run through EP is an optimal reduction. The search walks the
// tree of speed_classes.h depth first, extending the EP state one sender at a time; a
// prefix whose latest end already reaches the best makespan found is cut (the bound: no
// extension ends earlier). The policy adds the paper's guidance (guided_search.h) or not
// (generic_search.h).
#pragma once

#include "coordinator/schedule/reduction/problem.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace baton::schedule::reduction {

struct SearchPolicy {
  // Children slowest class first, so the first leaf is the SNF order; otherwise classes in
  // the order of their lowest node index (the input's order).
  bool slowest_class_first = false;
  // Cut a prefix whose newest sender got a processor freed by a faster sender
  // (Corollary 1: some optimal schedule has no sender with a faster predecessor).
  bool corollary1_pruning = false;
};

struct SearchOptions {
  std::uint64_t max_nodes = 0;           // stop after this many tree nodes; 0 = no limit
  std::function<bool()> stop_requested;  // polled every 1024 nodes when set (a time cap)
};

struct SearchResult {
  std::vector<std::size_t> order;    // the best sender order found
  double makespan = 0;               // its EP makespan
  std::uint64_t visited_nodes = 0;   // tree nodes examined, the root and cut ones included
  std::uint64_t expanded_nodes = 0;  // the visited nodes that were not cut (root included)
  std::uint64_t nodes_to_best = 0;   // visited_nodes when `order` was found
  bool complete = true;              // false when stopped early: `order` is then unproven
};

SearchResult search_sender_orders(const Problem& problem, const SearchPolicy& policy,
                                  const SearchOptions& options = {});

}  // namespace baton::schedule::reduction
