// The paper's tight instances (Section 3.1), for tests and benchmarks.
//
// Processors 0..d−1 are the senders P_1..P_d; each holds d messages, its bundles 1..d, as
// messages k·d + (b − 1) for sender k. The receivers follow.
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"

#include <cstddef>
#include <vector>

namespace baton::schedule::buffered_multicast {

struct TightInstance {
  Problem problem;
  // An incoming order for Procedure Coloring (ColoringOptions::incoming_order) under which
  // the copies of a receiver see their d incoming edges in every possible order.
  std::vector<std::size_t> incoming_order;
};

// Example 3.1: n = d^d·d! + d. For every J = (j_1, ..., j_d) ∈ [1:d]^d there are d! receivers
// P_{π,J}, one per permutation π of the senders; each receives one message from bundle j_k of
// every sender P_k, and takes its edges in the order π. The text indexes the copies by
// "1 ≤ i ≤ d" but counts d^d·d! of them and the proof of Theorem 3.2 needs "a different
// ordering for the bundles" at each of the d! copies, so the copies are the permutations.
// 2 ≤ d ≤ 5 (d = 5 already has 375 000 receivers); throws error::InvalidInput otherwise.
TightInstance example_3_1(std::size_t d, std::size_t buffers);

// Example 3.2: n = d^d + d, one receiver P_J per J ∈ [1:d]^d, receiving one message from
// bundle j_k of every sender P_k. (The text says "from the j_1th bundle of processor P_1",
// but the lower-bound argument that follows needs P_J to hear from all d bundles j_1..j_d,
// and each receiver must have degree d; we read it as bundle j_k of every P_k.)
// 2 ≤ d ≤ 7; throws error::InvalidInput otherwise.
Problem example_3_2(std::size_t d, std::size_t buffers);

}  // namespace baton::schedule::buffered_multicast
