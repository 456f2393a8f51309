// How fast this node combines arrays, per dtype and op: what each agent reports when it
// registers (Register.combine_speeds), from which the coordinator derives the papers' t(p)
// (docs/collectives.md, "From the model to the nodes" and "Measured").
#pragma once

#include "combine/types.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

namespace baton::combine {

struct Speed {
  DType dtype;
  Op op;
  double bytes_per_second;  // bytes of one array combined per second
};

// Times apply(out = a ⊕ b) on arrays of `array_bytes` (a pool buffer's worth) for every
// valid dtype and op, `max_rounds` times or, once `min_rounds` are done, until `per_pair`
// has passed, after one untimed warm-up, and keeps the fastest round. 36 pairs: about
// 0.05 s on an idle core, about 0.15 s of rounds on a busy one. `now` is the steady clock
// but in a unit test, which counts the rounds and checks the arithmetic with a clock that
// moves by a set step each time it is read.
inline constexpr int min_rounds = 4;
inline constexpr int max_rounds = 16;
using SpeedClock = std::function<std::chrono::steady_clock::time_point()>;
std::vector<Speed> measure_speeds(std::size_t array_bytes = std::size_t{1} << 20,
                                  std::chrono::microseconds per_pair = std::chrono::microseconds(4000),
                                  const SpeedClock& now = std::chrono::steady_clock::now);

}  // namespace baton::combine
