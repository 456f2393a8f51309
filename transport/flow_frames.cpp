#include "transport/flow_frames.h"

#include <algorithm>
#include <array>

namespace baton::transport::detail {

namespace {

// A frame of `flow` whose payload of `length` bytes starts at `offset`.
FrameHeader flow_header(FrameKind kind, const FlowSpec& flow, std::uint64_t offset, std::size_t length,
                        std::uint64_t checksum) noexcept {
  return {.kind = kind,
          .job = flow.job,
          .step = flow.step,
          .length = static_cast<std::uint32_t>(length),
          .offset = offset,
          .range_end = flow.end(),
          .checksum = checksum};
}

}  // namespace

FrameHeader begin_frame(const FlowSpec& flow) noexcept {
  return flow_header(FrameKind::begin, flow, flow.offset, 0, flow.release);
}

FrameHeader data_frame(const FlowSpec& flow, std::uint64_t offset, std::span<const std::byte> payload) noexcept {
  return flow_header(FrameKind::data, flow, offset, payload.size(), xxh3_64(payload));
}

FrameHeader end_frame(const FlowSpec& flow, std::uint64_t digest) noexcept {
  return flow_header(FrameKind::end, flow, flow.end(), 0, digest);
}

FrameHeader ack_frame(const FlowSpec& flow, std::uint64_t digest) noexcept {
  return flow_header(FrameKind::ack, flow, flow.end(), 0, digest);
}

void RangeDigest::add(std::uint64_t offset, std::uint64_t length, std::uint64_t chunk_checksum) noexcept {
  std::array<std::byte, 24> triple{};
  const std::array<std::uint64_t, 3> fields{offset, length, chunk_checksum};
  for (std::size_t f = 0; f < fields.size(); ++f) {
    for (std::size_t i = 0; i < 8; ++i) triple[f * 8 + i] = static_cast<std::byte>((fields[f] >> (8 * i)) & 0xFF);
  }
  sum_.update(triple);
}

asio::awaitable<void> send_reject(Connection& connection, FlowSpec flow, std::uint64_t verified_end, std::string reason,
                                  std::chrono::milliseconds timeout) {
  const std::string text = reason.substr(0, max_reject_reason);
  const auto payload = std::as_bytes(std::span(text.data(), text.size()));
  const FrameHeader header = flow_header(FrameKind::reject, flow, verified_end, payload.size(), xxh3_64(payload));
  co_await connection.send_frame(encode_header(header), payload, std::min(timeout, std::chrono::milliseconds(1000)));
}

std::string reject_reason(std::span<const std::byte> payload) {
  std::string text;
  text.reserve(std::min<std::size_t>(payload.size(), max_reject_reason));
  for (const std::byte b : payload.first(std::min<std::size_t>(payload.size(), max_reject_reason))) {
    const auto c = static_cast<char>(b);
    text.push_back(c >= 0x20 && c < 0x7F ? c : '?');
  }
  return text;
}

}  // namespace baton::transport::detail
