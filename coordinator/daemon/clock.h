// The driver's time: the steady clock in the daemon, a clock moved by hand in the driver's
// unit test (tests/daemon/driver_test.cpp), so that step timeouts, retry pauses and
// measured durations can be tested without waiting for them.
#pragma once

#include <chrono>
#include <functional>

namespace baton::coordinator {

class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  using duration = std::chrono::steady_clock::duration;

  virtual ~Clock() = default;
  virtual time_point now() const = 0;
  // How long to sleep in real time before `deadline` may have come on this clock. A clock
  // that does not follow real time answers "a long while" and calls the function given to
  // on_moved each time it moves, so that a sleeper wakes and looks again.
  virtual duration real_wait(time_point deadline) const = 0;
  virtual void on_moved(std::function<void()> moved) = 0;
};

// Seconds from `from` to `to` on a Clock's time line.
inline double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

class SteadyClock final : public Clock {
 public:
  time_point now() const override { return std::chrono::steady_clock::now(); }
  duration real_wait(time_point deadline) const override {
    return std::min<duration>(deadline - now(), std::chrono::hours(1));  // deadline may be time_point::max()
  }
  void on_moved(std::function<void()>) override {}
};

}  // namespace baton::coordinator
