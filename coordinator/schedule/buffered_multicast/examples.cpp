#include "coordinator/schedule/buffered_multicast/examples.h"

#include "error/error.h"

#include <algorithm>
#include <numeric>

namespace baton::schedule::buffered_multicast {
namespace {

// d senders with d messages each; message k·d + b is bundle b + 1 of sender k.
Problem senders_only(std::size_t d, std::size_t buffers) {
  Problem problem;
  problem.buffers = buffers;
  problem.processors = d;
  for (std::size_t k = 0; k < d; ++k) {
    for (std::size_t b = 0; b < d; ++b) {
      problem.messages.push_back(Message{.source = static_cast<ProcessorId>(k), .destinations = {}});
    }
  }
  return problem;
}

// Calls visit(J) for every J ∈ [0:d)^d in lexicographic order.
template <typename Visit>
void for_each_tuple(std::size_t d, Visit visit) {
  std::vector<std::size_t> tuple(d, 0);
  while (true) {
    visit(tuple);
    std::size_t k = d;
    while (k > 0 && tuple[k - 1] == d - 1) tuple[--k] = 0;
    if (k == 0) return;
    ++tuple[k - 1];
  }
}

// Adds a receiver that gets bundle tuple[k] of every sender k; returns its processor.
ProcessorId add_receiver(Problem& problem, const std::vector<std::size_t>& tuple) {
  const auto receiver = static_cast<ProcessorId>(problem.processors++);
  for (std::size_t k = 0; k < tuple.size(); ++k) {
    problem.messages[k * tuple.size() + tuple[k]].destinations.push_back(receiver);
  }
  return receiver;
}

}  // namespace

TightInstance example_3_1(std::size_t d, std::size_t buffers) {
  if (d < 2 || d > 5) throw error::InvalidInput("example_3_1: d must be in [2, 5]");
  TightInstance tight{.problem = senders_only(d, buffers), .incoming_order = {}};
  Problem& problem = tight.problem;
  // For each receiver, the position of its edge within each sender's message.
  struct Copy {
    std::vector<std::size_t> tuple;
    std::vector<std::size_t> permutation;
    std::vector<std::size_t> position;  // position[k]: index in the destinations of sender k's message
  };
  std::vector<Copy> copies;
  for_each_tuple(d, [&](const std::vector<std::size_t>& tuple) {
    std::vector<std::size_t> permutation(d);
    std::iota(permutation.begin(), permutation.end(), std::size_t{0});
    do {
      Copy copy{.tuple = tuple, .permutation = permutation, .position = {}};
      for (std::size_t k = 0; k < d; ++k) {
        copy.position.push_back(problem.messages[k * d + tuple[k]].destinations.size());
      }
      add_receiver(problem, tuple);
      copies.push_back(std::move(copy));
    } while (std::next_permutation(permutation.begin(), permutation.end()));
  });
  const std::vector<std::size_t> offsets = edge_offsets(problem);
  for (const Copy& copy : copies) {
    for (const std::size_t k : copy.permutation) {
      tight.incoming_order.push_back(offsets[k * d + copy.tuple[k]] + copy.position[k]);
    }
  }
  return tight;
}

Problem example_3_2(std::size_t d, std::size_t buffers) {
  if (d < 2 || d > 7) throw error::InvalidInput("example_3_2: d must be in [2, 7]");
  Problem problem = senders_only(d, buffers);
  for_each_tuple(d, [&](const std::vector<std::size_t>& tuple) { add_receiver(problem, tuple); });
  return problem;
}

}  // namespace baton::schedule::buffered_multicast
