#include "coordinator/schedule/reduction/guided_search.h"

namespace baton::schedule::reduction {

SearchResult guided_search(const Problem& problem, const SearchOptions& options) {
  return search_sender_orders(problem, {.slowest_class_first = true, .corollary1_pruning = true}, options);
}

}  // namespace baton::schedule::reduction
