// Checks that a schedule has the shape Section 3.1 gives it, computed from the problem alone:
// color (i, j) goes in round (j − 1)·period + i, where i is the message's bundle label at its
// source; j ≤ ⌈d/l⌉; no processor gets more than l edges of one value j; and, for
// Ordered-Coloring, a processor's edges with a smaller label never get a larger value.
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/schedule.h"

#include <cstdint>
#include <string>

namespace baton::schedule::buffered_multicast::test {

struct ColorShape {
  std::uint64_t period = 1;  // d + l − 1 for Coloring, d for Ordered-Coloring
  bool ordered = false;      // values follow labels at every processor
};

// The first departure from the shape, or "" when there is none.
std::string color_shape_error(const Problem& problem, const Schedule& schedule, ColorShape shape);

}  // namespace baton::schedule::buffered_multicast::test
