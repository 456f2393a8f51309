// A connection to one peer: an ordered, reliable stream of frames.
//
// Implementations (tcp::Connection, fabric::Connection) only move frames; the flow
// protocol on top (flow.h) is shared, so both transports behave identically on bad input.
//
// Lifetimes and ownership: a connection is made by a Context (connect) or a Listener
// (accept) and handed out as a unique_ptr; it must not outlive the Context that made it.
// Only one send_frame and one receive_frame may be pending at a time (they may be pending
// together). Threading: use it only from the thread running its context's io_context.
//
// Failure (as in gloo's pair): the first error recorded by fail() — or returned by a send
// or receive — closes the connection; every later call returns that same first error.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <system_error>

#include "transport/async.h"
#include "transport/buffer.h"
#include "transport/frame.h"
#include "transport/frame_seal.h"

namespace baton::transport {

struct ReceivedFrame {
  std::error_code error;
  FrameHeader header;
  std::span<const std::byte> payload;  // inside the buffer given to receive_frame
  // XXH3-64 of `payload`, if the transport computed it while the bytes arrived (TCP does,
  // piece by piece, while they are still in cache); otherwise the flow layer computes it.
  std::optional<std::uint64_t> payload_checksum;
};

class Connection {
 public:
  virtual ~Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Sends `header` followed by `payload` (gathered; both must stay valid until the
  // operation completes). Fails with errc::idle_timeout if the peer takes nothing for
  // `timeout` (TCP: no byte moves for that long, however long the whole frame takes;
  // libfabric: the frame is one operation, which must complete within it).
  asio::awaitable<std::error_code> send_frame(const HeaderBytes& header, std::span<const std::byte> payload,
                                              std::chrono::milliseconds timeout);

  // Receives one frame into the pool buffer `into`: its header and then its payload, which
  // must fit in into.bytes().size() - frame_header_size bytes (else errc::oversized_frame).
  // The header's seal and structure are checked (frame_seal.h); its fields are the caller's to check.
  // If the operation fails while a NIC may still write into the memory (a receive that
  // could not be cancelled), the implementation keeps the buffer (`into` becomes empty) and
  // returns it to the pool only once the NIC has let go: memory is never reused too early.
  asio::awaitable<ReceivedFrame> receive_frame(Buffer& into, std::chrono::milliseconds timeout);

  // Receives one small control frame (an ack or a reject: payload up to max_reject_reason
  // bytes) into memory the connection owns; the payload stays valid until the next call.
  // Senders wait for their ack this way, so a sender never holds a pool buffer while it
  // waits on its peer (which could otherwise deadlock a pool shared by many flows).
  asio::awaitable<ReceivedFrame> receive_control(std::chrono::milliseconds timeout);

  // Seals every later frame with the session keys of the data-plane handshake
  // (authenticate.h) and accepts only frames sealed by the peer's: frame_seal.h.
  void protect(std::string_view send_key, std::string_view receive_key) { seal_.protect(send_key, receive_key); }
  bool is_protected() const noexcept { return seal_.is_protected(); }

  // Records `error` as this connection's failure (if it is the first) and closes it.
  void fail(std::error_code error) noexcept;
  std::error_code failure() const noexcept { return failure_; }

  // Whether an idle connection may carry another flow: it has not failed and, where the
  // transport can tell without waiting (TCP peeks at the socket), the peer has neither
  // closed its end nor sent anything unasked. A kept connection is asked before each reuse.
  bool reusable() noexcept { return !failure_ && idle_link_alive(); }

  // Who is at the other end, for error messages ("127.0.0.1:40312", "fabric peer 3").
  virtual std::string peer() const = 0;
  // When the connection failed with errc::idle_timeout: what the link layer knew at that
  // moment (TCP: retransmission back-off, or a peer that stopped reading), for the flow's
  // error. Empty otherwise, or when the link layer knows nothing.
  const std::string& stall_diagnosis() const noexcept { return stall_diagnosis_; }
  // The same, asked now (empty after close or when the link layer knows nothing): for a
  // step that timed out with this connection still sending.
  virtual std::string link_state() { return {}; }

 protected:
  Connection() = default;
  virtual asio::awaitable<std::error_code> do_send(const HeaderBytes& header, std::span<const std::byte> payload,
                                                   std::chrono::milliseconds timeout) = 0;
  virtual asio::awaitable<ReceivedFrame> do_receive(Buffer& into, std::chrono::milliseconds timeout) = 0;
  virtual asio::awaitable<ReceivedFrame> do_receive_control(std::chrono::milliseconds timeout) = 0;
  // Ends pending operations and releases the link; called once, on the first failure.
  virtual void close() noexcept = 0;
  // For reusable(): false when the link layer knows the idle link is gone. Transports
  // that cannot tell without waiting say true (libfabric: a reused connection to a gone
  // peer fails its flow, and the step's retry opens a new one).
  virtual bool idle_link_alive() noexcept { return true; }
  // Implementations check and decode every received header through this, once per frame.
  FrameSeal& seal() noexcept { return seal_; }

 private:
  FrameSeal seal_;
  std::error_code failure_;
  std::string stall_diagnosis_;
};

}  // namespace baton::transport
