// A TCP listener (an acceptor bound to a numeric address). See transport/listener.h.
#pragma once

#include <asio/ip/tcp.hpp>

#include "transport/listener.h"

namespace baton::transport::tcp {

class Listener final : public transport::Listener {
 public:
  Listener(asio::ip::tcp::acceptor acceptor, std::size_t socket_buffer_bytes)
      : acceptor_(std::move(acceptor)), socket_buffer_bytes_(socket_buffer_bytes) {}
  asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> accept(
      std::chrono::milliseconds timeout) override;
  std::string address() const override;
  void close() noexcept override;

 private:
  asio::ip::tcp::acceptor acceptor_;
  std::size_t socket_buffer_bytes_;
};

}  // namespace baton::transport::tcp
