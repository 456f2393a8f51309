#include "transport/connection.h"

#include "transport/errors.h"

namespace baton::transport {

asio::awaitable<std::error_code> Connection::send_frame(const HeaderBytes& header, std::span<const std::byte> payload,
                                                        std::chrono::milliseconds timeout) {
  if (failure_) co_return failure_;
  HeaderBytes sealed = header;  // lives in this frame until the send completes
  try {
    seal_.seal(sealed);
  } catch (const std::exception&) {  // OpenSSL failed, or the sequence ran out
    fail(errc::frame_authentication_failed);
    co_return failure_;
  }
  const std::error_code error = co_await do_send(sealed, payload, timeout);
  if (error) fail(error);
  co_return error;
}

asio::awaitable<ReceivedFrame> Connection::receive_frame(Buffer& into, std::chrono::milliseconds timeout) {
  if (failure_)
    co_return ReceivedFrame{.error = failure_, .header = {}, .payload = {}, .payload_checksum = std::nullopt};
  if (into.bytes().size() < frame_header_size) {
    co_return ReceivedFrame{
        .error = make_error_code(errc::oversized_frame), .header = {}, .payload = {}, .payload_checksum = std::nullopt};
  }
  ReceivedFrame frame = co_await do_receive(into, timeout);
  if (frame.error) fail(frame.error);
  co_return frame;
}

asio::awaitable<ReceivedFrame> Connection::receive_control(std::chrono::milliseconds timeout) {
  if (failure_)
    co_return ReceivedFrame{.error = failure_, .header = {}, .payload = {}, .payload_checksum = std::nullopt};
  ReceivedFrame frame = co_await do_receive_control(timeout);
  if (frame.error) fail(frame.error);
  co_return frame;
}

void Connection::fail(std::error_code error) noexcept {
  if (failure_) return;
  failure_ = error;
  if (error == errc::idle_timeout) {
    try {
      stall_diagnosis_ = link_state();
    } catch (...) {  // fail() must not throw; the diagnosis is a courtesy
    }
  }
  close();
}

}  // namespace baton::transport
