// A buffered multicast plan that passed its independent validator, the one way batonctl and
// the coordinator's plan compiler get one: plan with the named procedure, simulate the
// buffers (validator.h), and hold the procedure to its theorem's round bound.
#pragma once

#include "coordinator/schedule/buffered_multicast/algorithms.h"

#include <cstddef>
#include <cstdint>

namespace baton::schedule::buffered_multicast {

struct CheckedPlan {
  Schedule schedule;
  std::uint64_t rounds = 0;  // from the simulation
  std::size_t degree = 0;    // d
  std::uint64_t bound = 0;   // d·⌈d/l⌉ + l − 1 (Theorem 3.3)
};

// `problem` must pass check(). Throws error::Bug naming the procedure if the plan fails
// the simulation or takes more rounds than its
// theorem allows (Theorem 3.1 for coloring, 3.3 for ordered-coloring).
CheckedPlan checked_plan(const Problem& problem, Algorithm algorithm);

}  // namespace baton::schedule::buffered_multicast
