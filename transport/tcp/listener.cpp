#include "transport/tcp/listener.h"

#include <variant>

#include <asio/experimental/awaitable_operators.hpp>
#include <asio/steady_timer.hpp>

#include "transport/close_on_exec.h"
#include "transport/errors.h"
#include "transport/tcp/connection.h"

namespace baton::transport::tcp {

using Connected = error::Result<std::unique_ptr<transport::Connection>>;

using namespace asio::experimental::awaitable_operators;

asio::awaitable<error::Result<std::unique_ptr<transport::Connection>>> Listener::accept(
    std::chrono::milliseconds timeout) {
  asio::steady_timer timer(acceptor_.get_executor(), timeout);
  auto outcome = co_await (acceptor_.async_accept(use_nothrow) || timer.async_wait(use_nothrow));
  if (outcome.index() == 1) co_return Connected{.error = errc::idle_timeout, .detail = {}, .value = {}};
  auto [ec, socket] = std::move(std::get<0>(outcome));
  if (ec) co_return Connected{.error = ec, .detail = {}, .value = {}};
  close_on_exec(socket.native_handle());
  co_return Connected{
      .error = {}, .detail = {}, .value = std::make_unique<Connection>(std::move(socket), socket_buffer_bytes_)};
}

void Listener::close() noexcept {
  asio::error_code ignored;
  acceptor_.close(ignored);  // a pending async_accept ends with operation_aborted
}

std::string Listener::address() const {
  asio::error_code ignored;
  return to_string(acceptor_.local_endpoint(ignored));
}

}  // namespace baton::transport::tcp
