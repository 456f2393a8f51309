// Waiting for a pacer's tokens inside a coroutine.
#pragma once

#include <algorithm>
#include <cstdint>

#include <asio/basic_waitable_timer.hpp>
#include <asio/this_coro.hpp>

#include "transport/async.h"
#include "transport/pacer.h"

namespace baton::transport {

// Suspends until `pacer` grants `bytes` (taking them), in pieces of at most max_piece().
// Returns at once for an unpaced pacer. The pacer must outlive the wait.
template <class Clock>
asio::awaitable<void> acquire_paced(FlowPacer<Clock>& pacer, std::uint64_t bytes) {
  if (!pacer.paced()) co_return;
  asio::basic_waitable_timer<Clock> timer(co_await asio::this_coro::executor);
  while (bytes > 0) {
    const std::uint64_t piece = std::min(bytes, pacer.max_piece());
    for (;;) {
      const auto grant = pacer.acquire(piece, Clock::now());
      if (grant.wait != Clock::duration::zero()) {
        timer.expires_after(grant.wait);
        co_await timer.async_wait(use_nothrow);
      }
      if (grant.granted) break;
    }
    bytes -= piece;
  }
}

}  // namespace baton::transport
