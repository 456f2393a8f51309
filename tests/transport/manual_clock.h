// A clock that moves only when a test says so: pacing is tested exactly, without sleeps.
#pragma once

#include <chrono>
#include <cstdint>

namespace baton::transport::test {

struct ManualClock {
  using rep = std::int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<ManualClock>;
  static constexpr bool is_steady = true;
};

inline ManualClock::time_point at_ns(std::int64_t ns) { return ManualClock::time_point(std::chrono::nanoseconds(ns)); }

}  // namespace baton::transport::test
