// Internal to the flow protocol: building its frames and the whole-range digest.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "transport/async.h"
#include "transport/checksum.h"
#include "transport/connection.h"
#include "transport/flow.h"
#include "transport/frame.h"

namespace baton::transport::detail {

FrameHeader begin_frame(const FlowSpec& flow) noexcept;
FrameHeader data_frame(const FlowSpec& flow, std::uint64_t offset, std::span<const std::byte> payload) noexcept;
FrameHeader end_frame(const FlowSpec& flow, std::uint64_t digest) noexcept;
FrameHeader ack_frame(const FlowSpec& flow, std::uint64_t digest) noexcept;

// The whole-range checksum: XXH3-64 over the (offset, length, chunk XXH3-64) triples of
// every chunk in order. Decision: hashing the chunk hashes instead of the bytes again
// saves a second pass over every byte on both sides (the bytes are already covered by the
// chunk checksums), while still catching a lost, repeated or reordered chunk.
class RangeDigest {
 public:
  void add(std::uint64_t offset, std::uint64_t length, std::uint64_t chunk_checksum) noexcept;
  std::uint64_t value() const noexcept { return sum_.value(); }

 private:
  RangeChecksum sum_;
};

// Best effort: tells the peer why the flow ends (the connection may already be gone).
asio::awaitable<void> send_reject(Connection& connection, FlowSpec flow, std::uint64_t verified_end, std::string reason,
                                  std::chrono::milliseconds timeout);

// A reject frame's reason as printable text (anything else becomes '?').
std::string reject_reason(std::span<const std::byte> payload);

}  // namespace baton::transport::detail
