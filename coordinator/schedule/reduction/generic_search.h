// The generic branch-and-bound the paper compares against (Table 1): the same depth-first
// search over EP orders and the same bound, with the classes tried in input order and no
// Corollary 1 pruning. Being exact and unguided it is also the tests' exhaustive search.
#pragma once

#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/sequence_search.h"

namespace baton::schedule::reduction {

SearchResult generic_search(const Problem& problem, const SearchOptions& options = {});

}  // namespace baton::schedule::reduction
