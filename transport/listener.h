// A listener accepts connections from peers that were given its address out of band
// (by the coordinator, or by the caller in tests).
//
// Lifetimes: made by Context::listen; must not outlive its Context. One accept() may be
// pending at a time. Threading: use only from its context's io_context thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <system_error>

#include "error/result.h"
#include "transport/async.h"
#include "transport/connection.h"

namespace baton::transport {

class Listener {
 public:
  virtual ~Listener() = default;
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // The next connection; errc::idle_timeout if none arrives within `timeout`.
  virtual asio::awaitable<error::Result<std::unique_ptr<Connection>>> accept(std::chrono::milliseconds timeout) = 0;
  // Stops listening: a pending accept ends at once with an error, as does every later one.
  virtual void close() noexcept = 0;
  // The address to give peers (for TCP "127.0.0.1:40312"; for libfabric an opaque string).
  virtual std::string address() const = 0;

 protected:
  Listener() = default;
};

}  // namespace baton::transport
