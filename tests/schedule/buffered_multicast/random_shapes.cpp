#include "random_shapes.h"

#include <random>

namespace baton::schedule::buffered_multicast::test {

std::vector<RandomInstanceOptions> random_shapes(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const auto between = [&](std::size_t lo, std::size_t hi) {
    return lo + static_cast<std::size_t>(random() % (hi - lo + 1));
  };
  std::vector<RandomInstanceOptions> shapes;
  for (std::size_t k = 0; k < count; ++k) {
    RandomInstanceOptions o;
    o.processors = between(2, 48);
    o.senders_receive = between(0, 2) != 0;
    o.senders = o.senders_receive ? between(1, o.processors) : between(1, o.processors - 1);
    o.degree = between(1, 12);
    o.full_senders = between(0, 1) == 0;
    o.max_fanout = between(1, o.processors);
    // Buffers from 1 to d + 2: divisors of d and not, l = d and l > d all occur.
    o.buffers = between(1, o.degree + 2);
    o.seed = random();
    shapes.push_back(o);
  }
  return shapes;
}

std::vector<std::size_t> source_bundle_index(const Problem& problem) {
  std::vector<std::size_t> held(problem.processors, 0);
  std::vector<std::size_t> index;
  for (const Message& message : problem.messages) index.push_back(++held[message.source]);
  return index;
}

}  // namespace baton::schedule::buffered_multicast::test
