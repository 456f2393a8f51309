// The first step of both procedures (Section 3.1): "assign an order (1 ≤ i ≤ d) to all the
// bundles emanating from each vertex".
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"

#include <cstddef>
#include <vector>

namespace baton::schedule::buffered_multicast {

// bundle[m] = i when message m is the i-th message (1-based) of its source in input order.
// Every i is at most d. O(n + m).
std::vector<std::size_t> bundle_order(const Problem& problem);

}  // namespace baton::schedule::buffered_multicast
