#include "transport/frame.h"

#include "transport/checksum.h"
#include "transport/errors.h"

namespace baton::transport {
namespace {

template <class T>
void put(HeaderBytes& out, std::size_t at, T value) noexcept {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out[at + i] = static_cast<std::byte>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xFF);
  }
}

template <class T>
T get(std::span<const std::byte, frame_header_size> in, std::size_t at) noexcept {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    value |= static_cast<std::uint64_t>(in[at + i]) << (8 * i);
  }
  return static_cast<T>(value);
}

}  // namespace

const char* to_string(FrameKind kind) noexcept {
  switch (kind) {
    case FrameKind::begin: return "begin";
    case FrameKind::data: return "data";
    case FrameKind::end: return "end";
    case FrameKind::ack: return "ack";
    case FrameKind::reject: return "reject";
    case FrameKind::hello: return "hello";
    case FrameKind::proof: return "proof";
  }
  return "unknown";
}

HeaderBytes encode_header(const FrameHeader& header) noexcept {
  HeaderBytes out{};
  put<std::uint32_t>(out, 0, frame_magic);
  put<std::uint16_t>(out, 4, frame_version);
  put<std::uint16_t>(out, 6, static_cast<std::uint16_t>(header.kind));
  put<std::uint64_t>(out, 8, header.job);
  put<std::uint32_t>(out, 16, header.step);
  put<std::uint32_t>(out, 20, header.length);
  put<std::uint64_t>(out, 24, header.offset);
  put<std::uint64_t>(out, 32, header.range_end);
  put<std::uint64_t>(out, 40, header.checksum);
  put<std::uint64_t>(out, 48, xxh3_64(std::span<const std::byte>(out).first(frame_sealed_bytes)));
  return out;
}

std::error_code decode_header(std::span<const std::byte, frame_header_size> bytes, FrameHeader& out) noexcept {
  if (get<std::uint32_t>(bytes, 0) != frame_magic) return errc::bad_magic;
  if (get<std::uint16_t>(bytes, 4) != frame_version) return errc::unsupported_version;
  if (get<std::uint64_t>(bytes, frame_sealed_bytes) != xxh3_64(bytes.first(frame_sealed_bytes))) {
    return errc::header_checksum_mismatch;
  }
  return decode_fields(bytes, out);
}

std::error_code decode_fields(std::span<const std::byte, frame_header_size> bytes, FrameHeader& out) noexcept {
  if (get<std::uint32_t>(bytes, 0) != frame_magic) return errc::bad_magic;
  if (get<std::uint16_t>(bytes, 4) != frame_version) return errc::unsupported_version;
  const auto kind = get<std::uint16_t>(bytes, 6);
  if (kind < static_cast<std::uint16_t>(FrameKind::begin) || kind > static_cast<std::uint16_t>(FrameKind::proof)) {
    return errc::unexpected_frame;
  }
  out.kind = static_cast<FrameKind>(kind);
  out.job = get<std::uint64_t>(bytes, 8);
  out.step = get<std::uint32_t>(bytes, 16);
  out.length = get<std::uint32_t>(bytes, 20);
  out.offset = get<std::uint64_t>(bytes, 24);
  out.range_end = get<std::uint64_t>(bytes, 32);
  out.checksum = get<std::uint64_t>(bytes, 40);
  return {};
}

}  // namespace baton::transport
