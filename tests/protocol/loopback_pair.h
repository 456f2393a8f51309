// Two coroutines at the two ends of one real loopback TCP connection.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/use_awaitable.hpp>

#include <chrono>
#include <functional>

namespace baton::test {

using SocketTask = std::function<asio::awaitable<void>(asio::ip::tcp::socket)>;

// Connects a client socket to a server socket on loopback and runs `server` and `client`
// to completion (or 20 s).
inline void run_pair(const SocketTask& server, const SocketTask& client) {
  using asio::ip::tcp;
  asio::io_context io;
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  const auto endpoint = acceptor.local_endpoint();
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        tcp::socket s = co_await acceptor.async_accept(asio::use_awaitable);
        co_await server(std::move(s));
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        tcp::socket s(io);
        co_await s.async_connect(endpoint, asio::use_awaitable);
        co_await client(std::move(s));
      },
      asio::detached);
  io.run_for(std::chrono::seconds(20));
}

}  // namespace baton::test
