// One reliable-datagram libfabric endpoint with its fabric, domain, completion queue and
// address vector, and the operations in flight on it. Internal to the fabric transport.
//
// Progress: the providers used here progress data only when the completion queue is read
// (FI_PROGRESS_MANUAL), so every coroutine waiting on an operation reads the queue itself,
// dispatching every completion it finds to its operation; -FI_EAGAIN on a post means
// "drive progress and retry". Waiters yield to the io_context between polls and back off
// (10 µs doubling to 1 ms) while nothing completes, so an idle endpoint costs little CPU.
//
// Memory safety: an operation that timed out is cancelled; if libfabric does not give it
// back within a bounded time it is kept (with its buffer) until it completes or the
// endpoint is shut, so memory the NIC may still write is never reused.
// Threading: one io_context thread (FI_THREAD_DOMAIN).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include <sys/uio.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <asio/any_io_executor.hpp>
#include <asio/steady_timer.hpp>

#include "error/result.h"
#include "transport/async.h"
#include "transport/buffer.h"
#include "transport/fabric/fid.h"

namespace baton::transport::fabric {

struct EndpointOptions {
  std::string provider = "tcp;ofi_rxm";
  // Local address to bind (FI_SOURCE), e.g. "127.0.0.1"; empty = the provider's default.
  std::string node = "127.0.0.1";
};

struct Operation;

// What libfabric hands back with a completion: fi_context2 first (standard layout), so the
// pointer it returns converts back to this struct.
struct OperationContext {
  fi_context2 context;
  Operation* owner;
};

struct Operation {
  explicit Operation(const asio::any_io_executor& executor) : signal(executor) { context.owner = this; }
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  OperationContext context{};
  asio::steady_timer signal;  // cancelled when the operation completes, to wake its waiter
  bool done = false;
  bool orphaned = false;
  // Its connection closed while it was in flight: the waiter stops at once and cancels it as
  // on a timeout (Endpoint::abandon).
  bool abandoned = false;
  int error = 0;  // positive FI_* errno; 0 = success
  std::string error_text;
  std::size_t length = 0;                   // bytes received
  Buffer buffer;                            // pool memory the operation uses (data receives)
  std::vector<std::byte> heap;              // the operation's own memory (sends, control receives)
  std::shared_ptr<void> heap_registration;  // its registration, when the provider needs one
  void* heap_descriptor = nullptr;
  // A gathered send's pieces and their descriptors, kept as long as the operation (a
  // provider may read them until the send completes, even after a timeout).
  std::array<iovec, 2> pieces{};
  std::array<void*, 2> piece_descriptors{};
};

// Names `op` in `slot` while it is in flight (for a close to abandon it), and clears the
// slot when it goes: a connection's send and receives, a listener's accept.
class InFlight {
 public:
  InFlight(Operation*& slot, Operation& op) : slot_(slot) { slot_ = &op; }
  ~InFlight() { slot_ = nullptr; }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

 private:
  Operation*& slot_;
};

class Endpoint {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  static error::Result<std::unique_ptr<Endpoint>> open(asio::any_io_executor executor, const EndpointOptions& options);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  const std::string& provider() const noexcept { return provider_; }
  // This endpoint's address as hex text, for out-of-band exchange.
  std::string address() const;
  // Whether every buffer passed to libfabric needs a registration descriptor (FI_MR_LOCAL).
  bool needs_local_descriptors() const noexcept;
  // How many pieces one send may gather (the provider's tx iov_limit).
  std::size_t send_iov_limit() const noexcept;
  fid_domain* domain() const noexcept { return domain_.get(); }
  fid_ep* ep() const noexcept { return ep_.get(); }

  // Inserts a peer's hex address into the address vector.
  std::optional<fi_addr_t> insert(const std::string& hex_address, std::string& detail);
  // A printable form of an inserted peer address ("fi_sockaddr_in://127.0.0.1:4711").
  std::string describe(fi_addr_t peer) const;

  std::unique_ptr<Operation> make_operation() const;
  // Makes op.heap at least `size` bytes, registered if the provider needs descriptors, and
  // returns its descriptor. Throws error::SystemError if registration fails.
  void* heap_memory(Operation& op, std::size_t size) const;

  // Posts `op` with `post` (retrying -FI_EAGAIN while driving progress) and waits for its
  // completion until `deadline`. On timeout `op` is cancelled and, if libfabric still holds
  // it, moved into the endpoint's keeping (then `op` is null on return).
  asio::awaitable<error::Status> execute(std::unique_ptr<Operation>& op, const std::function<ssize_t()>& post,
                                         time_point deadline);

  // Ends the wait of `op`, in flight on a connection that closed: execute() cancels it as on
  // a timeout and returns errc::connection_failed, instead of waiting out its deadline.
  static void abandon(Operation& op) noexcept;

  // Stops all I/O: closes the endpoint and drops operations it held. Call before freeing
  // the memory they used (the buffer pool).
  void shut() noexcept;

 private:
  Endpoint(asio::any_io_executor executor, std::string provider);
  std::size_t poll();
  void complete(void* op_context, int error, std::size_t length, std::string text);
  // Whether `op` completed by `deadline`; false at once when it is abandoned and
  // `until_abandoned` (an operation's wait, not its cancel's grace).
  asio::awaitable<bool> wait(Operation& op, time_point deadline, bool until_abandoned);

  asio::any_io_executor executor_;
  std::string provider_;
  InfoPtr info_;
  FidPtr<fid_fabric> fabric_;
  FidPtr<fid_domain> domain_;
  FidPtr<fid_cq> cq_;
  FidPtr<fid_av> av_;
  std::vector<std::unique_ptr<Operation>> orphans_;
  FidPtr<fid_ep> ep_;  // last: closed first
};

// Hex text of bytes and back (addresses travel as text).
std::string to_hex(std::span<const std::byte> bytes);
std::optional<std::vector<std::byte>> from_hex(const std::string& text);

}  // namespace baton::transport::fabric
