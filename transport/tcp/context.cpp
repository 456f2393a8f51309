#include "transport/tcp/context.h"

#include <charconv>
#include <variant>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <asio/experimental/awaitable_operators.hpp>
#include <asio/steady_timer.hpp>

#include "transport/close_on_exec.h"
#include "transport/errors.h"
#include "transport/tcp/buffer.h"
#include "transport/tcp/connection.h"
#include "transport/tcp/listener.h"

namespace baton::transport::tcp {

using Connected = error::Result<std::unique_ptr<transport::Connection>>;

using namespace asio::experimental::awaitable_operators;

std::optional<asio::ip::tcp::endpoint> parse_endpoint(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port_text = address.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535 || port_text.empty()) {
    return std::nullopt;
  }
  asio::error_code bad;
  const auto ip = asio::ip::make_address(host, bad);
  if (bad) return std::nullopt;
  return asio::ip::tcp::endpoint(ip, static_cast<unsigned short>(port));
}

Context::Context(asio::any_io_executor executor, ContextOptions options)
    : transport::Context(std::move(executor), options) {
  make_pool(host_memory());
}

error::Result<std::unique_ptr<transport::Listener>> Context::listen(const std::string& address) {
  const auto endpoint = parse_endpoint(address);
  if (!endpoint) {
    return {
        .error = errc::bad_address, .detail = "'" + address + "' is not host:port with a numeric host", .value = {}};
  }
  asio::ip::tcp::acceptor acceptor(executor());
  asio::error_code ec;
  acceptor.open(endpoint->protocol(), ec);
  if (!ec) close_on_exec(acceptor.native_handle());
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  // Accepted sockets inherit the receive buffer, which must be set before the handshake
  // for the window scale to match it.
  if (!ec && options().socket_buffer_bytes != 0) {
    acceptor.set_option(asio::socket_base::receive_buffer_size(
                            static_cast<int>(std::min<std::size_t>(options().socket_buffer_bytes, 1U << 30))),
                        ec);
  }
  if (!ec) acceptor.bind(*endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return {.error = ec, .detail = "cannot listen on " + address + ": " + ec.message(), .value = {}};
  return {.error = {},
          .detail = {},
          .value = std::make_unique<Listener>(std::move(acceptor), options().socket_buffer_bytes)};
}

asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> Context::connect(std::string address) {
  const auto endpoint = parse_endpoint(address);
  if (!endpoint) {
    co_return Connected{
        .error = errc::bad_address, .detail = "'" + address + "' is not host:port with a numeric host", .value = {}};
  }
  asio::ip::tcp::socket socket(executor());
  asio::error_code opened;
  socket.open(endpoint->protocol(), opened);
  if (!opened) close_on_exec(socket.native_handle());
  if (!opened && !options().tcp_congestion.empty()) {
    // Refused (not built into this kernel, or not in net.ipv4.tcp_allowed_congestion_control):
    // the system's stays, which still works.
    const std::string& name = options().tcp_congestion;
    (void)::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_CONGESTION, name.data(),
                       static_cast<socklen_t>(name.size()));
  }
  asio::steady_timer timer(executor(), options().connect_timeout);
  auto outcome = co_await (socket.async_connect(*endpoint, use_nothrow) || timer.async_wait(use_nothrow));
  if (outcome.index() == 1) {
    co_return Connected{.error = errc::idle_timeout,
                        .detail = "no answer from " + address + " within the connect timeout",
                        .value = {}};
  }
  if (const auto [ec] = std::get<0>(outcome); ec) {
    co_return Connected{.error = ec,
                        .detail = "cannot connect to " + address + ": " + ec.message() + " (is the peer listening?)",
                        .value = {}};
  }
  co_return Connected{.error = {},
                      .detail = {},
                      .value = std::make_unique<Connection>(std::move(socket), options().socket_buffer_bytes)};
}

}  // namespace baton::transport::tcp
