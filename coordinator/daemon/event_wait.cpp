#include "coordinator/daemon/event_wait.h"

#include "transport/async.h"

namespace baton::coordinator {

EventWait::EventWait(asio::any_io_executor executor, Clock& clock) : executor_(std::move(executor)), clock_(clock) {
  clock_.on_moved([this] { notify(); });
}

void EventWait::notify() {
  for (asio::steady_timer& timer : timers_) timer.cancel();
}

asio::awaitable<bool> EventWait::until(std::function<bool()> done, Clock::time_point deadline) {
  if (done()) co_return true;
  // The timer leaves the list when the wait ends, returning or throwing (done() may throw).
  // A waiter destroyed while it waits (its io_context or this EventWait going away) leaves
  // an idle timer behind, which notify() cancels harmlessly: erasing it from the frame's
  // destructor could touch a list being destroyed.
  timers_.emplace_front(executor_);
  const auto mine = timers_.begin();
  bool reached = true;
  try {
    while (!done()) {
      if (clock_.now() >= deadline) {
        reached = false;
        break;
      }
      mine->expires_after(clock_.real_wait(deadline));
      co_await mine->async_wait(transport::use_nothrow);  // expired or cancelled: look again
    }
  } catch (...) {
    timers_.erase(mine);
    throw;
  }
  timers_.erase(mine);
  co_return reached;
}

}  // namespace baton::coordinator
