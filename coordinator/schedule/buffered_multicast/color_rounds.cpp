#include "coordinator/schedule/buffered_multicast/color_rounds.h"

#include "error/error.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace baton::schedule::buffered_multicast {
namespace {

constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

// The permutation that lists `items` stably by key(item) ∈ [0, keys); O(items + keys).
template <typename Key>
std::vector<std::size_t> counting_sort(const std::vector<std::size_t>& items, std::size_t keys, Key key) {
  std::vector<std::size_t> start(keys + 1, 0);
  for (const std::size_t item : items) ++start[key(item) + 1];
  for (std::size_t k = 0; k < keys; ++k) start[k + 1] += start[k];
  std::vector<std::size_t> sorted(items.size());
  for (const std::size_t item : items) sorted[start[key(item)]++] = item;
  return sorted;
}

std::size_t largest(const std::vector<std::size_t>& values) {
  return values.empty() ? 0 : *std::ranges::max_element(values);
}

}  // namespace

Schedule schedule_by_color(const Problem& problem, const EdgeColoring& coloring, std::size_t period) {
  const std::vector<std::size_t> offsets = edge_offsets(problem);
  if (coloring.bundle.size() != problem.messages.size() || coloring.value.size() != offsets.back()) {
    throw error::InvalidInput("coloring does not fit the problem");
  }
  const std::size_t max_bundle = largest(coloring.bundle);
  const std::size_t max_value = largest(coloring.value);
  if (std::ranges::find(coloring.bundle, 0) != coloring.bundle.end() ||
      std::ranges::find(coloring.value, 0) != coloring.value.end()) {
    throw error::InvalidInput("colors start at 1");
  }
  if (max_bundle > period) throw error::InvalidInput("a bundle index exceeds the period");

  // Group each message's edges by value: send_of_value[j] is the send of the current message
  // with value j, reset after the message so the pass stays linear.
  std::vector<Send> sends;
  std::vector<std::size_t> value_of_send;
  std::vector<std::size_t> send_of_value(max_value + 1, none);
  for (std::size_t m = 0; m < problem.messages.size(); ++m) {
    const std::size_t first_send = sends.size();
    const std::vector<ProcessorId>& destinations = problem.messages[m].destinations;
    for (std::size_t k = 0; k < destinations.size(); ++k) {
      const std::size_t j = coloring.value[offsets[m] + k];
      if (send_of_value[j] == none) {
        send_of_value[j] = sends.size();
        const std::uint64_t round = static_cast<std::uint64_t>(j - 1) * period + coloring.bundle[m];
        sends.push_back(Send{.message = m, .round = round, .destinations = {}});
        value_of_send.push_back(j);
      }
      sends[send_of_value[j]].destinations.push_back(destinations[k]);
    }
    for (std::size_t s = first_send; s < sends.size(); ++s) send_of_value[value_of_send[s]] = none;
  }

  // Round order is (j, i) order; messages stay in input order within a round.
  std::vector<std::size_t> order(sends.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = s;
  order = counting_sort(order, max_bundle + 1, [&](std::size_t s) { return coloring.bundle[sends[s].message]; });
  order = counting_sort(order, max_value + 1, [&](std::size_t s) { return value_of_send[s]; });

  Schedule schedule;
  schedule.sends.reserve(sends.size());
  for (const std::size_t s : order) schedule.sends.push_back(std::move(sends[s]));
  return schedule;
}

}  // namespace baton::schedule::buffered_multicast
