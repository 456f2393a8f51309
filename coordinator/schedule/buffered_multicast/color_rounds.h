// From colors to rounds (Section 3.1): edge e of the i-th bundle of its source that got the
// value j at its destination has color (i, j), and "all the messages colored (i, 1) are
// transmitted at time i"; group j starts `period` rounds after group j − 1. Procedure
// Coloring uses period d + l − 1 (each group waits for the buffers to drain), Procedure
// Ordered-Coloring period d (the draining overlaps the next group).
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/schedule.h"

#include <cstddef>
#include <vector>

namespace baton::schedule::buffered_multicast {

struct EdgeColoring {
  std::vector<std::size_t> bundle;  // i of each message, 1-based (bundle_order.h)
  std::vector<std::size_t> value;   // j of each edge, 1-based (incoming_values.h)
};

// Sends color (i, j) in round (j − 1)·period + i. The edges of one message with the same
// color become one Send. Sends are listed by round, then message; destinations keep input
// order. Linear time, O(m + E + d): one pass groups each message's edges by value, then two
// stable counting sorts order the sends by i and then by j, which is round order because
// i ≤ period. Throws error::InvalidInput if the coloring does not fit the problem or some
// i exceeds period (two colors would then share a round).
Schedule schedule_by_color(const Problem& problem, const EdgeColoring& coloring, std::size_t period);

}  // namespace baton::schedule::buffered_multicast
