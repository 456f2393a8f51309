// Random buffered multicast instances of a chosen degree, for tests and benchmarks.
// Deterministic for a given seed on every platform (mt19937_64, no std distributions).
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"

#include <cstddef>
#include <cstdint>

namespace baton::schedule::buffered_multicast {

struct RandomInstanceOptions {
  std::size_t processors = 16;
  std::size_t senders = 16;     // processors 0..senders−1 hold messages
  bool senders_receive = true;  // false: only processors senders..n−1 receive
  std::size_t degree = 4;       // no processor sends or receives more than this
  bool full_senders = true;     // every sender holds `degree` messages (else 1..degree)
  std::size_t max_fanout = 4;   // destinations wanted per message: uniform in 1..max_fanout
  std::size_t buffers = 1;
  std::uint64_t seed = 1;
};

// Messages are created bundle by bundle across the senders (every sender's first message,
// then every sender's second, ...) so receive capacity is shared fairly. Destinations are
// drawn among receivers with fewer than `degree` messages; a message may get fewer than it
// wanted when capacity runs short, and is left out if it gets none. The result passes
// check() and has degree at most `degree`. Throws error::InvalidInput for impossible
// options (senders > processors, degree or buffers < 1).
Problem random_instance(const RandomInstanceOptions& options);

}  // namespace baton::schedule::buffered_multicast
