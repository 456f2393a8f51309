#include "protocol/operation_deadline.h"

#include <asio/steady_timer.hpp>

namespace baton::protocol {

struct OperationDeadline::State {
  explicit State(asio::ip::tcp::socket& s) : timer(s.get_executor()), socket(&s) {}
  asio::steady_timer timer;
  asio::ip::tcp::socket* socket;  // null once the deadline is gone
  std::chrono::steady_clock::time_point deadline;
  bool running = false;  // an operation is in progress
  bool armed = false;    // the timer waits
  bool expired = false;  // the running operation's deadline passed
};

namespace {

void arm(const std::shared_ptr<OperationDeadline::State>& state) {
  state->armed = true;
  state->timer.expires_at(state->deadline);
  state->timer.async_wait([state](const std::error_code& error) {
    // Cancelled: the deadline is gone, or was moved earlier and waits again.
    if (error || state->socket == nullptr) return;
    state->armed = false;
    if (!state->running) return;  // the next operation arms it again
    if (std::chrono::steady_clock::now() < state->deadline) {
      arm(state);  // a later operation moved the deadline on
      return;
    }
    state->expired = true;
    std::error_code ignored;
    state->socket->cancel(ignored);
  });
}

}  // namespace

OperationDeadline::OperationDeadline(asio::ip::tcp::socket& socket) : state_(std::make_shared<State>(socket)) {}

OperationDeadline::~OperationDeadline() {
  state_->socket = nullptr;
  state_->timer.cancel();
}

OperationDeadline::Running OperationDeadline::start(std::chrono::milliseconds timeout) {
  State& s = *state_;
  s.deadline = std::chrono::steady_clock::now() + timeout;
  s.running = true;
  s.expired = false;
  // An armed timer that wakes before the new deadline moves itself on when it does.
  if (!s.armed || s.timer.expiry() > s.deadline) arm(state_);
  return Running(state_);
}

OperationDeadline::Running::~Running() { state_->running = false; }

bool OperationDeadline::Running::expired() const noexcept { return state_->expired; }

}  // namespace baton::protocol
