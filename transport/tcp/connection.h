// A TCP connection: frames written with one gathered write (header + payload, no copy)
// and read straight into the caller's buffer. See transport/connection.h for the contract.
#pragma once

#include <array>
#include <string>

#include <asio/ip/tcp.hpp>

#include "transport/checksum.h"
#include "transport/connection.h"

namespace baton::transport::tcp {

class Connection final : public transport::Connection {
 public:
  // Takes an open, connected socket; sets TCP_NODELAY and, if not 0, the socket buffers.
  Connection(asio::ip::tcp::socket socket, std::size_t socket_buffer_bytes);
  std::string peer() const override { return peer_; }
  std::string link_state() override;

 protected:
  asio::awaitable<std::error_code> do_send(const HeaderBytes& header, std::span<const std::byte> payload,
                                           std::chrono::milliseconds timeout) override;
  asio::awaitable<ReceivedFrame> do_receive(Buffer& into, std::chrono::milliseconds timeout) override;
  asio::awaitable<ReceivedFrame> do_receive_control(std::chrono::milliseconds timeout) override;
  void close() noexcept override;
  bool idle_link_alive() noexcept override;

 private:
  asio::awaitable<ReceivedFrame> read_frame(std::span<std::byte> into, std::chrono::milliseconds timeout);

  asio::ip::tcp::socket socket_;
  RangeChecksum payload_sum_;
  std::array<std::byte, frame_header_size + max_reject_reason> control_{};
  std::string peer_;
};

// "127.0.0.1:4711" or "[::1]:4711".
std::string to_string(const asio::ip::tcp::endpoint& endpoint);

}  // namespace baton::transport::tcp
