// Instants of the steady clock, given in nanoseconds from its epoch: the pacer and the
// token bucket take the time as an argument, so their tests pass exact instants and
// never read a clock or sleep.
#pragma once

#include <chrono>
#include <cstdint>

namespace baton::transport::test {

inline std::chrono::steady_clock::time_point at_ns(std::int64_t ns) {
  return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(ns));
}

}  // namespace baton::transport::test
