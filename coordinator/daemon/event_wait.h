// Waiting for the next event instead of polling: a coroutine waits until a condition holds
// or a deadline passes, and whatever may change the condition calls notify(), which
// cancels every waiter's timer (Asio's "timer cancelled as a signal").
//
// Many coroutines may wait at once (every running job's run, the run loop): a notify()
// wakes each of them, and each looks at its own condition again. At the driver's sizes
// (max_running_jobs runs, each with one waiter) that is a few dozen cheap checks an event.
//
// Threading: on the executor's thread, as is every notify().
#pragma once

#include "coordinator/daemon/clock.h"

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>

#include <cstddef>
#include <functional>
#include <list>

namespace baton::coordinator {

class EventWait {
 public:
  EventWait(asio::any_io_executor executor, Clock& clock);

  // Something a waiter may be waiting for happened: each looks again now.
  void notify();

  // Until done() holds (true) or `deadline` passes on the clock (false); done() is
  // evaluated first, and again after each notify() or movement of the clock.
  asio::awaitable<bool> until(std::function<bool()> done, Clock::time_point deadline);

  // How many coroutines wait now.
  std::size_t waiters() const { return timers_.size(); }

 private:
  asio::any_io_executor executor_;
  Clock& clock_;
  std::list<asio::steady_timer> timers_;  // one per waiter, removed when it stops waiting
};

}  // namespace baton::coordinator
