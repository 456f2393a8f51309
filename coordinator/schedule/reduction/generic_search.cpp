#include "coordinator/schedule/reduction/generic_search.h"

namespace baton::schedule::reduction {

SearchResult generic_search(const Problem& problem, const SearchOptions& options) {
  return search_sender_orders(problem, {.slowest_class_first = false, .corollary1_pruning = false}, options);
}

}  // namespace baton::schedule::reduction
