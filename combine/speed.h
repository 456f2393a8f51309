// How fast this node combines arrays, per dtype and op: what each agent reports when it
// registers (Register.combine_speeds), from which the coordinator derives the papers' t(p)
// (docs/collectives.md, "From the model to the nodes" and "Measured").
#pragma once

#include "combine/types.h"

#include <chrono>
#include <cstddef>
#include <vector>

namespace baton::combine {

struct Speed {
  DType dtype;
  Op op;
  double bytes_per_second;  // bytes of one array combined per second
};

// Times apply(out = a ⊕ b) on arrays of `array_bytes` for every valid dtype and op, each
// for about `per_pair` after one untimed warm-up: 36 pairs, so the default takes ~0.25 s.
std::vector<Speed> measure_speeds(std::size_t array_bytes = std::size_t{1} << 20,
                                  std::chrono::microseconds per_pair = std::chrono::microseconds(6000));

}  // namespace baton::combine
