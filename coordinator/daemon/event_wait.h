// Waiting for the next event instead of polling: a coroutine waits until a condition holds
// or a deadline passes, and whatever may change the condition calls notify(), which
// cancels the waiter's timer (Asio's "timer cancelled as a signal").
//
// Threading: one waiter at a time, on the executor's thread, as is every notify().
#pragma once

#include "coordinator/daemon/clock.h"

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>

#include <functional>

namespace baton::coordinator {

class EventWait {
 public:
  EventWait(asio::any_io_executor executor, Clock& clock);

  // Something a waiter may be waiting for happened: it looks again now.
  void notify() { timer_.cancel(); }

  // Until done() holds (true) or `deadline` passes on the clock (false); done() is
  // evaluated first, and again after each notify() or movement of the clock.
  asio::awaitable<bool> until(std::function<bool()> done, Clock::time_point deadline);

 private:
  Clock& clock_;
  asio::steady_timer timer_;
};

}  // namespace baton::coordinator
