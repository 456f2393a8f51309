#include "color_structure.h"

#include "random_shapes.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace baton::schedule::buffered_multicast::test {

std::string color_shape_error(const Problem& problem, const Schedule& schedule, ColorShape shape) {
  if (shape.period == 0) return schedule.sends.empty() ? "" : "a send without any edge to color";
  const std::size_t d = degree(problem);
  const std::size_t l = problem.buffers;
  const std::size_t groups = (d + l - 1) / l;
  const std::vector<std::size_t> label = source_bundle_index(problem);
  std::vector<std::size_t> per_value(problem.processors * (groups + 1), 0);
  // (processor, label, value) of every delivered edge.
  std::vector<std::tuple<ProcessorId, std::size_t, std::uint64_t>> incoming;
  for (const Send& send : schedule.sends) {
    const auto where = [&] {
      return "message " + std::to_string(send.message) + " in round " + std::to_string(send.round);
    };
    if (send.round < 1 || (send.round - 1) % shape.period + 1 != label[send.message]) {
      return where() + ": not in a round of its bundle label " + std::to_string(label[send.message]);
    }
    const std::uint64_t j = (send.round - 1) / shape.period + 1;
    if (j > groups) return where() + ": value " + std::to_string(j) + " > ceil(d/l)";
    for (const ProcessorId q : send.destinations) {
      if (++per_value[q * (groups + 1) + j] > l) {
        return where() + ": processor " + std::to_string(q) + " gets more than l edges of value " + std::to_string(j);
      }
      incoming.emplace_back(q, label[send.message], j);
    }
  }
  if (!shape.ordered) return "";
  std::ranges::sort(incoming);
  for (std::size_t k = 1; k < incoming.size(); ++k) {
    const auto& [q, label_now, value_now] = incoming[k];
    const auto& [q_before, label_before, value_before] = incoming[k - 1];
    if (q == q_before && value_before > value_now) {
      return "processor " + std::to_string(q) + ": label " + std::to_string(label_before) + " has value " +
             std::to_string(value_before) + " but label " + std::to_string(label_now) + " has value " +
             std::to_string(value_now);
    }
  }
  return "";
}

}  // namespace baton::schedule::buffered_multicast::test
