// Something coroutines on one executor wait for: notify() wakes every waiter at once. An
// Asio timer that never expires, cancelled as the signal (Asio's cpp20 examples). It
// carries nothing: a waiter re-checks its condition when it wakes. A notify() with nobody
// waiting is not kept, and none is lost either: on one thread a waiter checks its condition
// and starts waiting with nothing in between.
#pragma once

#include "transport/async.h"

#include <asio/experimental/awaitable_operators.hpp>
#include <asio/steady_timer.hpp>

#include <chrono>

namespace baton::agent {

class Signal {
 public:
  explicit Signal(const asio::any_io_executor& executor)
      : timer_(executor, std::chrono::steady_clock::time_point::max()) {}

  void notify() { timer_.cancel(); }

  // Until the next notify().
  asio::awaitable<void> wait() { co_await timer_.async_wait(transport::use_nothrow); }

  // Until the next notify() or `deadline`, whichever comes first.
  asio::awaitable<void> wait_until(std::chrono::steady_clock::time_point deadline) {
    using namespace asio::experimental::awaitable_operators;
    asio::steady_timer limit(timer_.get_executor(), deadline);
    co_await (timer_.async_wait(transport::use_nothrow) || limit.async_wait(transport::use_nothrow));
  }

 private:
  asio::steady_timer timer_;
};

}  // namespace baton::agent
