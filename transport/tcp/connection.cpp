#include "transport/tcp/connection.h"

#include <array>
#include <cerrno>
#include <variant>

#include <sys/socket.h>

#include <asio/buffer.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/read.hpp>
#include <asio/steady_timer.hpp>
#include <asio/write.hpp>

#include "transport/errors.h"
#include "transport/tcp/link_state.h"

namespace baton::transport::tcp {
namespace {

using namespace asio::experimental::awaitable_operators;

// The operating system's ways of saying "the peer is gone", as one error.
std::error_code peer_gone(const asio::error_code& ec, bool mid_frame) {
  if (ec == asio::error::eof || ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
      ec == asio::error::connection_aborted) {
    return mid_frame ? errc::truncated_frame : errc::peer_closed;
  }
  return ec;
}

// The timeouts below bound silence, not duration: the timer restarts whenever bytes move.
// A 1 MiB frame over a link shared by a hundred flows may take longer than the timeout
// while every flow still makes progress (found with all-at-once on 10 x 10 shaped nodes).

// Reads exactly `into`, failing when nothing arrives for `timeout`. `started` tells whether
// part of the frame was already read (a close is then a truncation). With `sum`, each
// piece is hashed as it lands (the receiver would otherwise wait for the whole payload and
// then read it all again to hash it).
asio::awaitable<std::error_code> read_exactly(asio::ip::tcp::socket& socket, std::span<std::byte> into,
                                              asio::steady_timer& timer, std::chrono::milliseconds timeout,
                                              bool started, RangeChecksum* sum = nullptr) {
  if (sum != nullptr) sum->reset();
  for (std::size_t done = 0; done < into.size();) {
    timer.expires_after(timeout);
    auto outcome =
        co_await (socket.async_read_some(asio::buffer(into.data() + done, into.size() - done), use_nothrow) ||
                  timer.async_wait(use_nothrow));
    if (outcome.index() == 1) co_return errc::idle_timeout;
    const auto [ec, n] = std::get<0>(outcome);
    if (ec) co_return peer_gone(ec, started || done + n > 0);
    if (sum != nullptr) sum->update(into.subspan(done, n));
    done += n;
  }
  co_return std::error_code{};
}

}  // namespace

std::string to_string(const asio::ip::tcp::endpoint& endpoint) {
  // Appended piece by piece: GCC 12's "literal" + std::string&& at -O3 warns -Wrestrict
  // (a false positive, GCC bug 105329).
  const auto address = endpoint.address();
  std::string text = address.is_v6() ? "[" : "";
  text += address.to_string();
  text += address.is_v6() ? "]:" : ":";
  text += std::to_string(endpoint.port());
  return text;
}

Connection::Connection(asio::ip::tcp::socket socket, std::size_t socket_buffer_bytes) : socket_(std::move(socket)) {
  asio::error_code ignored;
  socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
  if (socket_buffer_bytes != 0) {
    const auto bytes = static_cast<int>(std::min<std::size_t>(socket_buffer_bytes, 1U << 30));
    socket_.set_option(asio::socket_base::send_buffer_size(bytes), ignored);
    socket_.set_option(asio::socket_base::receive_buffer_size(bytes), ignored);
  }
  const auto remote = socket_.remote_endpoint(ignored);
  peer_ = ignored ? std::string("unknown TCP peer") : to_string(remote);
}

asio::awaitable<std::error_code> Connection::do_send(const HeaderBytes& header, std::span<const std::byte> payload,
                                                     std::chrono::milliseconds timeout) {
  std::array<asio::const_buffer, 2> gather{asio::buffer(header.data(), header.size()),
                                           asio::buffer(payload.data(), payload.size())};
  asio::steady_timer timer(socket_.get_executor());
  while (gather[0].size() + gather[1].size() > 0) {
    timer.expires_after(timeout);
    auto outcome = co_await (socket_.async_write_some(gather, use_nothrow) || timer.async_wait(use_nothrow));
    if (outcome.index() == 1) co_return errc::idle_timeout;
    const auto [ec, n] = std::get<0>(outcome);
    if (ec) co_return peer_gone(ec, false);
    const std::size_t from_header = std::min(n, gather[0].size());
    gather[0] += from_header;
    gather[1] += n - from_header;
  }
  co_return std::error_code{};
}

asio::awaitable<ReceivedFrame> Connection::do_receive(Buffer& buffer, std::chrono::milliseconds timeout) {
  co_return co_await read_frame(buffer.bytes(), timeout);
}

asio::awaitable<ReceivedFrame> Connection::do_receive_control(std::chrono::milliseconds timeout) {
  co_return co_await read_frame(control_, timeout);
}

asio::awaitable<ReceivedFrame> Connection::read_frame(std::span<std::byte> into, std::chrono::milliseconds timeout) {
  ReceivedFrame frame;
  asio::steady_timer timer(socket_.get_executor());
  const auto header_bytes = into.first<frame_header_size>();
  if ((frame.error = co_await read_exactly(socket_, header_bytes, timer, timeout, false))) co_return frame;
  if ((frame.error = seal().open(header_bytes, frame.header))) co_return frame;
  if (frame.header.length > into.size() - frame_header_size) {
    frame.error = errc::oversized_frame;
    co_return frame;
  }
  const auto payload = into.subspan(frame_header_size, frame.header.length);
  if ((frame.error = co_await read_exactly(socket_, payload, timer, timeout, true, &payload_sum_))) co_return frame;
  frame.payload = payload;
  frame.payload_checksum = payload_sum_.value();
  co_return frame;
}

std::string Connection::link_state() {
  return socket_.is_open() ? tcp::link_state(socket_.native_handle()) : std::string{};
}

// A peek that does not wait: nothing to read is a live idle link; an orderly close (0), bytes
// nobody asked for (a flow's frames are answered, never unasked) or an error are not.
bool Connection::idle_link_alive() noexcept {
  if (!socket_.is_open()) return false;
  std::byte probe{};
  const ssize_t n = ::recv(socket_.native_handle(), &probe, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

void Connection::close() noexcept {
  asio::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace baton::transport::tcp
