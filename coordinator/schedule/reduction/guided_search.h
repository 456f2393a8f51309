// The guided branch-and-bound of the SNF paper, Section 6.2: the three
// techniques of the paper on top of sequence_search.h —
//  1. orders with slower senders first are examined first, so the SNF order is the first
//     leaf and its makespan the first bound (the paper's "priority" order, taken depth
//     first);
//  2. Corollary 1: a prefix whose newest sender's free processor was freed by a faster
//     sender is cut. EP hands each sender the free processors with the slowest
//     predecessors (earliest_possible.h), so a prefix is cut only when no choice among the
//     processors free at that moment avoids a faster predecessor — our reading of the
//     paper's rule for several receivers freed at once;
//  3. the bound: a prefix already ending no earlier than the best makespan is cut.
// Exact: tests compare it with the generic search and an independent tree recursion.
#pragma once

#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/sequence_search.h"

namespace baton::schedule::reduction {

SearchResult guided_search(const Problem& problem, const SearchOptions& options = {});

}  // namespace baton::schedule::reduction
