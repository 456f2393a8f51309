// A libfabric "connection": a peer address in the endpoint's address vector plus a pair of
// tags that no other connection uses. Frames travel as tagged messages (header and payload
// in one message), ordered send-after-send (FI_ORDER_SAS). See transport/connection.h.
//
// Memory: data frames are received into pool buffers (registered with the domain). A
// payload that already sits in the pool (a file chunk read into a pool buffer) is sent from
// there, gathered behind the header; any other payload is staged in a registered buffer
// the connection owns (one frame, reused), so that a send libfabric keeps after a timeout
// never pins the caller's memory. Control frames are received into a small buffer the
// connection owns: a sender never holds a pool buffer while waiting on its peer, so flows
// sharing a small pool cannot deadlock one another.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <rdma/fabric.h>

#include "transport/buffer.h"
#include "transport/connection.h"
#include "transport/fabric/endpoint.h"

namespace baton::transport::fabric {

// Tag layout: bit 63 marks connection set-up messages; data tags are (id << 1) | direction.
inline constexpr std::uint64_t setup_tag_bit = std::uint64_t{1} << 63;
inline constexpr std::uint64_t hello_tag = setup_tag_bit;
inline constexpr std::uint64_t max_connection_id = (std::uint64_t{1} << 61) - 1;
inline std::uint64_t welcome_tag(std::uint64_t id) { return setup_tag_bit | (id << 1) | 1; }
inline std::uint64_t data_tag(std::uint64_t id, bool from_acceptor) { return (id << 1) | (from_acceptor ? 1 : 0); }

struct LinkOptions {
  fi_addr_t peer = FI_ADDR_UNSPEC;
  std::string peer_name;
  std::uint64_t send_tag = 0;
  std::uint64_t receive_tag = 0;
};

class Connection final : public transport::Connection {
 public:
  // The endpoint and pool must outlive the connection (they belong to its Context).
  Connection(Endpoint& endpoint, BufferPool& pool, LinkOptions link);
  std::string peer() const override { return link_.peer_name; }

 protected:
  asio::awaitable<std::error_code> do_send(const HeaderBytes& header, std::span<const std::byte> payload,
                                           std::chrono::milliseconds timeout) override;
  asio::awaitable<ReceivedFrame> do_receive(Buffer& into, std::chrono::milliseconds timeout) override;
  asio::awaitable<ReceivedFrame> do_receive_control(std::chrono::milliseconds timeout) override;
  // Nothing to tear down on a reliable datagram endpoint; operations still in flight end
  // at once (cancelled, errc::connection_failed) rather than at their deadlines.
  void close() noexcept override;

 private:
  Endpoint& endpoint_;
  BufferPool& pool_;
  LinkOptions link_;
  std::unique_ptr<Operation> staging_;  // holds the reusable send memory between sends
  std::unique_ptr<Operation> control_;  // holds the control receive memory between receives
  // The operations in flight (each kind at most one at a time), for close().
  Operation* sending_ = nullptr;
  Operation* receiving_ = nullptr;
  Operation* receiving_control_ = nullptr;
};

// Sends first+second as one tagged message from `op`'s own memory (copied there first, so
// a timed-out send never pins the caller's memory). On return `op` is null if libfabric
// kept it.
asio::awaitable<error::Status> send_message(Endpoint& endpoint, std::unique_ptr<Operation>& op, fi_addr_t peer,
                                            std::uint64_t tag, std::span<const std::byte> first,
                                            std::span<const std::byte> second, Endpoint::time_point deadline);

// Sends `header` (copied into `op`'s own memory) and `payload`, which lies in `pool`, as
// one tagged message gathered from both. On return `op` is null if libfabric kept it.
// Decision: a kept send does not keep the pool buffer (the flow releases it when the send
// fails). The pool lives until the endpoint is shut, so the late send reads valid memory;
// if the buffer was reused meanwhile, the receiver sees a payload that does not match the
// header's checksum and writes none of it.
asio::awaitable<error::Status> send_gathered(Endpoint& endpoint, std::unique_ptr<Operation>& op, const BufferPool& pool,
                                             fi_addr_t peer, std::uint64_t tag, std::span<const std::byte> header,
                                             std::span<const std::byte> payload, Endpoint::time_point deadline);

// Receives one tagged message of at most `capacity` bytes into `op`'s own memory.
asio::awaitable<error::Status> receive_message(Endpoint& endpoint, std::unique_ptr<Operation>& op, fi_addr_t from,
                                               std::uint64_t tag, std::size_t capacity, Endpoint::time_point deadline);

// Checks a received frame of `received` bytes in `memory` (header, then payload).
ReceivedFrame parse_frame(std::span<std::byte> memory, std::size_t received, FrameSeal& seal);

}  // namespace baton::transport::fabric
