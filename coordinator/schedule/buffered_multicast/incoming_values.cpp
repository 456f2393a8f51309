#include "coordinator/schedule/buffered_multicast/incoming_values.h"

#include "error/error.h"

namespace baton::schedule::buffered_multicast {

std::vector<std::size_t> incoming_values(const Problem& problem, std::span<const std::size_t> order) {
  if (problem.buffers < 1) throw error::InvalidInput("buffers must be >= 1");
  std::vector<ProcessorId> destination_of_edge;
  destination_of_edge.reserve(edge_count(problem));
  for (const Message& message : problem.messages) {
    destination_of_edge.insert(destination_of_edge.end(), message.destinations.begin(), message.destinations.end());
  }
  if (order.size() != destination_of_edge.size()) {
    throw error::InvalidInput("incoming order must list every edge once");
  }
  std::vector<std::size_t> incoming_so_far(problem.processors, 0);
  std::vector<std::size_t> value(destination_of_edge.size(), 0);
  for (const std::size_t e : order) {
    if (e >= value.size() || value[e] != 0) {
      throw error::InvalidInput("incoming order must list every edge once");
    }
    const std::size_t rank = incoming_so_far.at(destination_of_edge[e])++;
    value[e] = rank / problem.buffers + 1;
  }
  return value;
}

}  // namespace baton::schedule::buffered_multicast
