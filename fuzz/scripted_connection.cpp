#include "fuzz/scripted_connection.h"

#include <algorithm>
#include <cstring>

#include "transport/checksum.h"
#include "transport/errors.h"

namespace baton::fuzz {

using transport::errc;
using transport::frame_header_size;
using transport::frame_sealed_bytes;

asio::awaitable<std::error_code> ScriptedConnection::do_send(const transport::HeaderBytes& header,
                                                             std::span<const std::byte> payload,
                                                             std::chrono::milliseconds) {
  SentFrame frame;
  // What the code under test sends must itself decode (unsealed until protect()).
  if (!is_protected() && transport::decode_header(header, frame.header)) std::abort();
  if (is_protected() && transport::decode_fields(header, frame.header)) std::abort();
  if (frame.header.length != payload.size()) std::abort();
  frame.payload.assign(reinterpret_cast<const char*>(payload.data()), payload.size());
  sent_.push_back(std::move(frame));
  co_return std::error_code{};
}

asio::awaitable<transport::ReceivedFrame> ScriptedConnection::do_receive(transport::Buffer& into,
                                                                         std::chrono::milliseconds) {
  co_return next_frame(into.bytes());
}

asio::awaitable<transport::ReceivedFrame> ScriptedConnection::do_receive_control(std::chrono::milliseconds) {
  co_return next_frame(control_);
}

transport::ReceivedFrame ScriptedConnection::next_frame(std::span<std::byte> into) {
  transport::ReceivedFrame frame;
  if (rest_.empty()) {
    frame.error = errc::peer_closed;
    return frame;
  }
  if (rest_.size() < 1 + frame_sealed_bytes) {
    frame.error = errc::truncated_frame;
    return frame;
  }
  const auto fixups = static_cast<std::uint8_t>(rest_[0]);
  transport::HeaderBytes header{};
  std::memcpy(header.data(), rest_.data() + 1, frame_sealed_bytes);
  rest_ = rest_.subspan(1 + frame_sealed_bytes);
  // The peer's seal: XXH3 until the handshake protects the connection (a wrong seal is
  // transport_frame_fuzz's to try; here every header reaches the flow layer).
  const std::uint64_t xxh3_seal = transport::xxh3_64(std::span<const std::byte>(header).first(frame_sealed_bytes));
  for (std::size_t i = 0; i < frame_header_size - frame_sealed_bytes; ++i) {
    header[frame_sealed_bytes + i] = static_cast<std::byte>((xxh3_seal >> (8 * i)) & 0xFF);
  }
  if ((frame.error = seal().open(header, frame.header))) return frame;
  if (frame.header.length > into.size() - frame_header_size) {
    frame.error = errc::oversized_frame;
    return frame;
  }
  if (rest_.size() < frame.header.length) {
    rest_ = {};
    frame.error = errc::truncated_frame;
    return frame;
  }
  const auto payload = into.subspan(frame_header_size, frame.header.length);
  std::copy_n(rest_.begin(), payload.size(), payload.begin());
  rest_ = rest_.subspan(payload.size());
  if (fixups & 1) frame.header.checksum = transport::xxh3_64(payload);
  if (fix_) fix_(fixups, frame.header, payload);
  frame.payload = payload;
  return frame;
}

}  // namespace baton::fuzz
