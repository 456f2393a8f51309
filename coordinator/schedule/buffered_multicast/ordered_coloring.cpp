#include "coordinator/schedule/buffered_multicast/ordered_coloring.h"

#include "coordinator/schedule/buffered_multicast/bundle_order.h"
#include "coordinator/schedule/buffered_multicast/color_rounds.h"
#include "coordinator/schedule/buffered_multicast/incoming_values.h"

#include <vector>

namespace baton::schedule::buffered_multicast {
namespace {

// Every edge number, stably ordered by the label of its bundle: a counting sort over 1..d.
std::vector<std::size_t> edges_by_label(const Problem& problem, const std::vector<std::size_t>& bundle, std::size_t d) {
  const std::vector<std::size_t> offsets = edge_offsets(problem);
  std::vector<std::size_t> start(d + 2, 0);
  for (std::size_t m = 0; m < problem.messages.size(); ++m) {
    start[bundle[m] + 1] += offsets[m + 1] - offsets[m];
  }
  for (std::size_t label = 0; label <= d; ++label) start[label + 1] += start[label];
  std::vector<std::size_t> order(offsets.back());
  for (std::size_t m = 0; m < problem.messages.size(); ++m) {
    for (std::size_t e = offsets[m]; e < offsets[m + 1]; ++e) order[start[bundle[m]]++] = e;
  }
  return order;
}

}  // namespace

Schedule ordered_coloring(const Problem& problem) {
  check(problem);
  const std::size_t d = degree(problem);
  EdgeColoring colors{.bundle = bundle_order(problem), .value = {}};
  // "We order all the incoming edges to each processor in ascending order of its label ...
  // via Radix sort in linear time. Now with respect to this order assign the value of 1 to
  // the first l incoming edges ..."
  colors.value = incoming_values(problem, edges_by_label(problem, colors.bundle, d));
  // "the last l − 1 units of time may be overlapped": group j starts d rounds after j − 1.
  return schedule_by_color(problem, colors, d);
}

}  // namespace baton::schedule::buffered_multicast
