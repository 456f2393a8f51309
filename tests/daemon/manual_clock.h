// A clock for the daemon's unit tests that moves only when the test moves it: timers of
// the code under test fire when `advance` passes their deadline, never by real time.
#pragma once

#include "coordinator/daemon/clock.h"

#include <chrono>
#include <functional>
#include <utility>

namespace baton::test {

class ManualClock final : public coordinator::Clock {
 public:
  time_point now() const override { return now_; }
  duration real_wait(time_point) const override { return std::chrono::hours(1); }
  void on_moved(std::function<void()> moved) override { moved_ = std::move(moved); }
  void advance(duration by) {
    now_ += by;
    if (moved_) moved_();
  }

 private:
  time_point now_{std::chrono::hours(1000)};
  std::function<void()> moved_;
};

}  // namespace baton::test
