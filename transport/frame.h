// Chunk framing: the fixed 56-byte header that starts every frame on the wire.
//
// Layout (all integers little-endian, offsets in bytes):
//    0 magic u32 "BATN"   4 version u16   6 kind u16   8 job u64   16 step u32
//   20 length u32 (payload bytes that follow)   24 offset u64   32 range_end u64
//   40 checksum u64 (meaning depends on kind)   48 seal u64
// The seal is XXH3-64 of bytes 0..47 on a connection that has not authenticated, and the
// first 8 bytes of HMAC-SHA256(session key, sequence number || bytes 0..47) on one that
// has (frame_seal.h): the header, and through its checksum field the payload, is then
// the authenticated peer's.
//
// A flow is: begin, data*, end from the sender; ack or reject from the receiver.
//   begin   offset = first byte of the range, range_end = one past its last byte,
//           checksum = the release of its step the flow belongs to (FlowSpec::release; 0: none)
//   data    offset = first byte of the chunk, length = chunk bytes, checksum = XXH3-64(payload)
//   end     offset = range_end, checksum = XXH3-64 of the whole range
//   ack     offset = end of the verified bytes, checksum = the receiver's XXH3-64 of the range
//   reject  offset = end of the verified bytes, payload = a one-line reason (UTF-8),
//           checksum = XXH3-64(payload); either side may send it to end the flow
//   hello   the data-plane handshake (authenticate.h): payload = role, node id, nonce
//   proof   the handshake's Finished MAC; both before any flow, checksum = XXH3-64(payload)
// decode_header checks structure only (magic, version, header checksum, kind); the flow
// layer checks lengths against its caps and fields against the flow.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>

namespace baton::transport {

inline constexpr std::uint32_t frame_magic = 0x4E544142;  // "BATN" read as little-endian bytes
inline constexpr std::uint16_t frame_version = 2;         // 2: authenticated seals, hello and proof
inline constexpr std::size_t frame_header_size = 56;
inline constexpr std::size_t frame_sealed_bytes = 48;  // what the seal covers
// Cap on a reject frame's reason text.
inline constexpr std::uint32_t max_reject_reason = 512;

enum class FrameKind : std::uint16_t { begin = 1, data = 2, end = 3, ack = 4, reject = 5, hello = 6, proof = 7 };

const char* to_string(FrameKind kind) noexcept;

struct FrameHeader {
  FrameKind kind = FrameKind::data;
  std::uint64_t job = 0;
  std::uint32_t step = 0;
  std::uint32_t length = 0;
  std::uint64_t offset = 0;
  std::uint64_t range_end = 0;
  std::uint64_t checksum = 0;
};

using HeaderBytes = std::array<std::byte, frame_header_size>;

// Encodes `header` and seals it with XXH3 (a connection that has authenticated reseals it).
HeaderBytes encode_header(const FrameHeader& header) noexcept;

// Checks an XXH3 seal and decodes the header. On error `out` is unspecified.
std::error_code decode_header(std::span<const std::byte, frame_header_size> bytes, FrameHeader& out) noexcept;

// Decodes and checks the structure (magic, version, kind) only: for a seal checked
// elsewhere. On error `out` is unspecified.
std::error_code decode_fields(std::span<const std::byte, frame_header_size> bytes, FrameHeader& out) noexcept;

}  // namespace baton::transport
