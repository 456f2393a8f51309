#include "coordinator/schedule/buffered_multicast/coloring.h"

#include "coordinator/schedule/buffered_multicast/bundle_order.h"
#include "coordinator/schedule/buffered_multicast/color_rounds.h"
#include "coordinator/schedule/buffered_multicast/incoming_values.h"

#include <numeric>
#include <vector>

namespace baton::schedule::buffered_multicast {

Schedule coloring(const Problem& problem, const ColoringOptions& options) {
  check(problem);
  std::vector<std::size_t> input_order;
  std::span<const std::size_t> order = options.incoming_order;
  if (order.empty()) {
    input_order.resize(edge_count(problem));
    std::iota(input_order.begin(), input_order.end(), std::size_t{0});
    order = input_order;
  }
  EdgeColoring colors{.bundle = bundle_order(problem), .value = incoming_values(problem, order)};
  // Theorem 3.1: a group of colors (·, j) takes d rounds to send and l − 1 more to drain.
  const std::size_t period = degree(problem) + problem.buffers - 1;
  return schedule_by_color(problem, colors, period);
}

}  // namespace baton::schedule::buffered_multicast
