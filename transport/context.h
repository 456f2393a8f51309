// A transport context: one node's side of a transport (gloo's "device" + "context").
//
// It owns the receive buffer pool and the node-wide limits, and makes listeners and
// connections. tcp::Context and fabric::Context implement it; open_context() (open.h)
// picks one from configuration.
//
// Lifetimes: the context must outlive every listener, connection and Buffer it made.
// Threading: a context is bound to one executor; use it and everything it made only from
// the thread that runs that executor's io_context. Many concurrent flows on one
// io_context are the intended use.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>

#include <asio/any_io_executor.hpp>

#include "error/error.h"
#include "error/result.h"
#include "transport/async.h"
#include "transport/buffer.h"
#include "transport/connection.h"
#include "transport/frame.h"
#include "transport/listener.h"

namespace baton::transport {

struct ContextOptions {
  // The l receive buffers. Each holds one frame: max payload = buffer_size - frame_header_size.
  // buffer_size must be at least min_buffer_size (a header and a reject frame's reason).
  BufferPoolOptions pool{};
  // Longest wait for any one frame (to arrive, or to be taken by the peer). An idle peer
  // (connects and says nothing) or a dead one ends its flow after at most this long.
  std::chrono::milliseconds frame_timeout{10'000};
  // Longest wait for a connection to be established.
  std::chrono::milliseconds connect_timeout{10'000};
  // TCP only: SO_SNDBUF and SO_RCVBUF of every socket (the kernel caps them at
  // net.core.wmem_max / rmem_max); 0 leaves them to the kernel's autotuning.
  std::size_t socket_buffer_bytes = 0;
  // TCP only: the congestion control of the connections this context opens, which carry
  // its flows' data (TCP_CONGESTION); empty, or one the kernel refuses, leaves the
  // system's (net.ipv4.tcp_congestion_control). Cubic, not BBR: Baton paces every flow at
  // its planned rate, and BBR's own model of the path (its minimum RTT taken on packets a
  // shaper let through at once) held kept connections far below it. Many small steps on
  // the Fig. 16 cluster measured 3-8x their prediction under BBR and 0.84-1.52x under
  // cubic, the same day (docs/transport.md, "Congestion control").
  std::string tcp_congestion = "cubic";
};

inline constexpr std::size_t min_buffer_size = frame_header_size + max_reject_reason;

class Context {
 public:
  virtual ~Context() = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Listens at `address` (TCP: "host:port" with a numeric host, port 0 = any free port;
  // libfabric: "" = the endpoint's own address).
  virtual error::Result<std::unique_ptr<Listener>> listen(const std::string& address) = 0;
  // Connects to a listener's address().
  // (Parameters of coroutines are taken by value: the call may run after the caller's temporaries are gone.)
  virtual asio::awaitable<error::Result<std::unique_ptr<Connection>>> connect(std::string address) = 0;

  // "tcp", or "fabric/<provider>".
  virtual std::string name() const = 0;

  BufferPool& pool() noexcept { return *pool_; }
  const ContextOptions& options() const noexcept { return options_; }
  const asio::any_io_executor& executor() const noexcept { return executor_; }

 protected:
  Context(asio::any_io_executor executor, ContextOptions options) : executor_(std::move(executor)), options_(options) {}
  // Implementations call this once in their constructor (fabric registers the memory).
  // Throws error::InvalidInput if the pool options are out of range.
  void make_pool(const RegisterMemory& register_memory) {
    if (options_.pool.buffer_size < min_buffer_size) {
      throw error::InvalidInput("transport: pool buffer_size must be at least " + std::to_string(min_buffer_size));
    }
    pool_ = std::make_unique<BufferPool>(executor_, options_.pool, register_memory);
  }
  // Implementations whose registration depends on their own members free the pool first.
  void drop_pool() noexcept { pool_.reset(); }

 private:
  asio::any_io_executor executor_;
  ContextOptions options_;
  std::unique_ptr<BufferPool> pool_;
};

}  // namespace baton::transport
