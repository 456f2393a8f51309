#include "coordinator/daemon/event_wait.h"

#include "transport/async.h"

namespace baton::coordinator {

EventWait::EventWait(asio::any_io_executor executor, Clock& clock) : clock_(clock), timer_(std::move(executor)) {
  clock_.on_moved([this] { notify(); });
}

asio::awaitable<bool> EventWait::until(std::function<bool()> done, Clock::time_point deadline) {
  while (!done()) {
    if (clock_.now() >= deadline) co_return false;
    timer_.expires_after(clock_.real_wait(deadline));
    co_await timer_.async_wait(transport::use_nothrow);  // expired or cancelled: look again
  }
  co_return true;
}

}  // namespace baton::coordinator
