// The deadline of a channel's operation in one direction (a receive, or the frame being
// written): once the operation has run past it, the socket's operations are cancelled.
// One timer per direction wakes at most once per timeout and moves itself on to the
// latest deadline, instead of a timer armed, raced against the socket and cancelled for
// every message: a heartbeat costs its read and its write, not two timers and two
// awaitable-operator groups (docs/runtime.md, "Scale", "What a control message costs").
//
// Threading: only from the socket's executor, as the channel that owns it.
#pragma once

#include <asio/ip/tcp.hpp>

#include <chrono>
#include <memory>

namespace baton::protocol {

class OperationDeadline {
 public:
  explicit OperationDeadline(asio::ip::tcp::socket& socket);
  // The timer's handler may still be queued: it finds the deadline gone and touches
  // nothing of the socket.
  ~OperationDeadline();
  OperationDeadline(const OperationDeadline&) = delete;
  OperationDeadline& operator=(const OperationDeadline&) = delete;

  struct State;

  // An operation in progress; ends (the deadline no longer applies) when it goes.
  class Running {
   public:
    explicit Running(std::shared_ptr<State> state) : state_(std::move(state)) {}
    ~Running();
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;
    // Whether the deadline passed and the socket's operations were cancelled for it.
    bool expired() const noexcept;

   private:
    std::shared_ptr<State> state_;
  };

  // Starts an operation that must end within `timeout` from now.
  Running start(std::chrono::milliseconds timeout);

 private:
  std::shared_ptr<State> state_;
};

}  // namespace baton::protocol
