// Procedure Coloring (Section 3.1, Theorem 3.1): at most ⌈d/l⌉·(d + l − 1) rounds, which is
// d²/l − d/l + d when l divides d.
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/schedule.h"

#include <cstddef>
#include <span>

namespace baton::schedule::buffered_multicast {

struct ColoringOptions {
  // The order in which every processor's incoming edges receive the values 1, 1, ..., 2, ...
  // (the paper leaves it free). Empty means input order; otherwise it lists every edge
  // number (problem.h) once. Theorem 3.2's tight instance needs orders that differ from
  // processor to processor, which input order cannot give.
  std::span<const std::size_t> incoming_order = {};
};

// Colors edge e of the i-th bundle of its source, given value j at its destination, with
// (i, j) and sends it in round (j − 1)·(d + l − 1) + i: group j's d rounds of sending plus
// l − 1 rounds for the fullest buffer to drain before group j + 1 starts. Linear time
// (bundle_order, incoming_values, schedule_by_color are each O(n + m + E + d)).
// Throws error::InvalidInput for a malformed problem (check()) or order.
Schedule coloring(const Problem& problem, const ColoringOptions& options = {});

}  // namespace baton::schedule::buffered_multicast
