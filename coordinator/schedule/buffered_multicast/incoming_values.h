// The receiving side of both procedures (Section 3.1): "assign the value of 1 to l incoming
// edges to each processor, the value of 2 to l incoming edges to each processor, ..., and
// the value of d/l to l incoming edges to each processor".
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"

#include <cstddef>
#include <span>
#include <vector>

namespace baton::schedule::buffered_multicast {

// `order` lists every edge number once (see problem.h). Walking it, each processor's
// incoming edges get the values 1, ..., 1 (l times), 2, ..., 2 (l times), ...: value[e] =
// ⌊r/l⌋ + 1 when r edges into e's destination come before e in `order`. When l does not
// divide a processor's in-degree its last value covers fewer than l edges. Throws
// error::InvalidInput unless `order` is a permutation of the edges. O(n + E).
std::vector<std::size_t> incoming_values(const Problem& problem, std::span<const std::size_t> order);

}  // namespace baton::schedule::buffered_multicast
