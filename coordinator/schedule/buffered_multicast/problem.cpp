#include "coordinator/schedule/buffered_multicast/problem.h"

#include "error/error.h"

#include <algorithm>
#include <limits>
#include <string>

namespace baton::schedule::buffered_multicast {
namespace {

std::string message_path(std::size_t m) { return "messages[" + std::to_string(m) + "]"; }

}  // namespace

void check(const Problem& problem) {
  if (problem.buffers < 1) throw error::InvalidInput("buffers must be >= 1");
  // Stamp each destination with the message that last named it: a repeat is a duplicate.
  constexpr std::size_t unseen = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> named_by(problem.processors, unseen);
  for (std::size_t m = 0; m < problem.messages.size(); ++m) {
    const Message& message = problem.messages[m];
    if (message.source >= problem.processors) {
      throw error::InvalidInput(message_path(m) + ".source is out of range");
    }
    if (message.destinations.empty()) {
      throw error::InvalidInput(message_path(m) + " has no destinations");
    }
    for (const ProcessorId q : message.destinations) {
      if (q >= problem.processors) {
        throw error::InvalidInput(message_path(m) + " has a destination out of range");
      }
      if (q == message.source) {
        throw error::InvalidInput(message_path(m) + " names its source as a destination");
      }
      if (named_by[q] == m) {
        throw error::InvalidInput(message_path(m) + " names a destination twice");
      }
      named_by[q] = m;
    }
  }
}

std::size_t degree(const Problem& problem) {
  std::vector<std::size_t> sent(problem.processors, 0);
  std::vector<std::size_t> received(problem.processors, 0);
  for (const Message& message : problem.messages) {
    ++sent.at(message.source);
    for (const ProcessorId q : message.destinations) ++received.at(q);
  }
  std::size_t d = 0;
  for (std::size_t p = 0; p < problem.processors; ++p) d = std::max({d, sent[p], received[p]});
  return d;
}

std::size_t edge_count(const Problem& problem) {
  std::size_t edges = 0;
  for (const Message& message : problem.messages) edges += message.destinations.size();
  return edges;
}

std::vector<std::size_t> edge_offsets(const Problem& problem) {
  std::vector<std::size_t> offsets(problem.messages.size() + 1, 0);
  for (std::size_t m = 0; m < problem.messages.size(); ++m) {
    offsets[m + 1] = offsets[m] + problem.messages[m].destinations.size();
  }
  return offsets;
}

std::uint64_t round_bound(std::size_t degree, std::size_t buffers) {
  if (buffers < 1) throw error::InvalidInput("buffers must be >= 1");
  const std::uint64_t d = degree;
  const std::uint64_t l = buffers;
  return d * ((d + l - 1) / l) + l - 1;
}

std::uint64_t coloring_round_bound(std::size_t degree, std::size_t buffers) {
  if (buffers < 1) throw error::InvalidInput("buffers must be >= 1");
  const std::uint64_t d = degree;
  const std::uint64_t l = buffers;
  if (d == 0) return 0;
  return ((d + l - 1) / l) * (d + l - 1);
}

}  // namespace baton::schedule::buffered_multicast
