#include "protocol/channel.h"

#include "transport/async.h"

#include <asio/read.hpp>
#include <asio/write.hpp>

namespace baton::protocol {
namespace {

using transport::use_nothrow;

std::string endpoint_text(const asio::ip::tcp::socket& socket) {
  std::error_code ec;
  const auto endpoint = socket.remote_endpoint(ec);
  if (ec) return "unconnected";
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

}  // namespace

Channel::Channel(asio::ip::tcp::socket socket, std::uint32_t max_frame)
    : socket_(std::move(socket)), decoder_(max_frame), max_frame_(max_frame), peer_(endpoint_text(socket_)),
      receive_deadline_(socket_), send_deadline_(socket_) {
  std::error_code ignored;
  socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
}

void Channel::protect(std::string_view send_key, std::string_view receive_key) {
  send_mac_.emplace(send_key);
  receive_mac_.emplace(receive_key);
  decoder_.set_max_frame(max_frame_);
}

asio::awaitable<void> Channel::send(Envelope envelope, std::chrono::milliseconds timeout) {
  std::string payload = encode(std::move(envelope));
  if (send_mac_) payload.append(security::view(send_mac_->next(payload)));
  std::string frame;
  append_frame(frame, payload, max_frame_);
  outgoing_.push_back(std::move(frame));
  if (writing_) co_return;  // the active writer sends it
  writing_ = true;
  while (!outgoing_.empty()) {
    const std::string next = std::move(outgoing_.front());
    outgoing_.pop_front();
    const OperationDeadline::Running running = send_deadline_.start(timeout);
    const auto [ec, n] = co_await asio::async_write(socket_, asio::buffer(next), use_nothrow);
    if (ec) {
      const std::string failure =
          running.expired() ? "sending to " + peer_ + " timed out after " + std::to_string(timeout.count()) + " ms"
                            : "sending to " + peer_ + ": " + ec.message();
      writing_ = false;
      outgoing_.clear();
      close();
      throw ChannelError(failure);
    }
  }
  writing_ = false;
  if (finishing_) close();
}

asio::awaitable<Envelope> Channel::receive(std::chrono::milliseconds timeout) {
  const OperationDeadline::Running running = receive_deadline_.start(timeout);
  for (;;) {
    if (auto payload = decoder_.next()) co_return open(*payload);
    // A deadline that passed as a read completed cancelled nothing: it ends the wait here.
    if (running.expired()) {
      close();
      throw ChannelError(peer_ + " said nothing for " + std::to_string(timeout.count()) + " ms");
    }
    const auto [ec, n] = co_await socket_.async_read_some(asio::buffer(read_buffer_), use_nothrow);
    if (ec) {
      close();
      if (running.expired()) throw ChannelError(peer_ + " said nothing for " + std::to_string(timeout.count()) + " ms");
      const std::string partial = decoder_.pending() > 0 ? " in the middle of a message" : "";
      throw ChannelError(peer_ + " closed the connection" + partial + " (" + ec.message() + ")");
    }
    decoder_.feed(std::string_view(read_buffer_.data(), n));  // throws FrameError above the cap
  }
}

Envelope Channel::open(std::string_view payload) {
  if (!receive_mac_) return decode(payload);
  if (payload.size() < security::kMacBytes) {
    close();
    throw ChannelError(peer_ + " sent a message too short to carry its seal");
  }
  const std::string_view body = payload.substr(0, payload.size() - security::kMacBytes);
  const std::string_view seal = payload.substr(body.size());
  if (!security::equal_in_constant_time(seal, security::view(receive_mac_->next(body)))) {
    close();
    throw ChannelError(peer_ +
                       " sent a message whose seal does not match this session's key (forged, replayed or altered)");
  }
  return decode(body);
}

asio::awaitable<void> Channel::refuse(std::string reason) {
  Envelope envelope;
  envelope.mutable_refusal()->set_reason(std::move(reason));
  try {
    co_await send(std::move(envelope), std::chrono::milliseconds(1000));
  } catch (const ChannelError&) {
    // The peer is already gone: nobody left to tell.
  }
  close();
}

void Channel::finish() noexcept {
  if (writing_) finishing_ = true;
  else close();
}

void Channel::close() noexcept {
  std::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace baton::protocol
