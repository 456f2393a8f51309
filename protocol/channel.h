// A control channel: Envelopes in length-prefixed frames over one TCP connection
// (coordinator <-> agent). Every frame's length is checked against the cap before a byte
// of its payload is buffered; a receive that waits longer than its timeout ends the
// channel. After the handshake (handshake.h) every message is sealed: it carries an
// HMAC-SHA256 over its sequence number and bytes under the direction's session key
// (security/sequence_mac.h), and one that fails its check ends the channel. Errors are exceptions (ChannelError, FrameError, ProtocolError): a control
// session that hits one is over, and the daemon logs it and carries on.
//
// Threading: use a channel only from its socket's executor. Any number of coroutines may
// send at once (messages go out whole, in the order send was called); one receive may be
// pending at a time.
#pragma once

#include "error/error.h"
#include "protocol/envelope.h"
#include "protocol/frame.h"
#include "protocol/operation_deadline.h"
#include "security/sequence_mac.h"

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>

#include <array>
#include <chrono>
#include <deque>
#include <optional>
#include <string>

namespace baton::protocol {

class ChannelError : public error::Error {
 public:
  using error::Error::Error;
};

class Channel {
 public:
  explicit Channel(asio::ip::tcp::socket socket, std::uint32_t max_frame = kDefaultMaxFrame);
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Sends one message (version set here). Throws ChannelError if the peer is gone or the
  // write does not finish within `timeout`. While another send is writing, the message is
  // queued behind it and this call returns at once; a failure then closes the channel
  // (and surfaces in the pending receive).
  asio::awaitable<void> send(Envelope envelope, std::chrono::milliseconds timeout);

  // The next message. Throws ChannelError (closed, timed out), FrameError (a length above
  // the cap) or ProtocolError (bytes that are not a message of this version).
  asio::awaitable<Envelope> receive(std::chrono::milliseconds timeout);

  // From now on, seal every message sent with `send_key` and accept only messages sealed
  // with `receive_key`; frames up to the channel's own cap are accepted again.
  void protect(std::string_view send_key, std::string_view receive_key);
  // Caps the frames the peer may announce from now on (kHandshakeMaxFrame before it has
  // authenticated); protect() restores the cap given at construction.
  void limit_frames(std::uint32_t max_frame) { decoder_.set_max_frame(max_frame); }
  bool is_protected() const noexcept { return receive_mac_.has_value(); }

  // Tells the peer why it is being dropped (best effort, short timeout), then closes.
  asio::awaitable<void> refuse(std::string reason);

  void close() noexcept;
  // Closes once every message sent before this call is written (at once when none waits):
  // a daemon that stops says its last word, then hangs up.
  void finish() noexcept;
  bool is_open() const noexcept { return socket_.is_open(); }
  // "127.0.0.1:40312", for logs.
  const std::string& peer() const noexcept { return peer_; }

 private:
  // Checks and strips the seal of a received payload (once protected), then decodes it.
  Envelope open(std::string_view payload);

  asio::ip::tcp::socket socket_;
  FrameDecoder decoder_;
  std::uint32_t max_frame_;
  std::string peer_;
  std::array<char, 16384> read_buffer_{};
  std::optional<security::SequenceMac> send_mac_;
  std::optional<security::SequenceMac> receive_mac_;
  std::deque<std::string> outgoing_;  // frames waiting behind the one being written
  bool writing_ = false;
  bool finishing_ = false;  // finish() called while a send was writing: close when it is done
  // After socket_: they refer to it, and go before it.
  OperationDeadline receive_deadline_;
  OperationDeadline send_deadline_;
};

}  // namespace baton::protocol
