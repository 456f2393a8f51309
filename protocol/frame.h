// Length-prefixed frames on a byte stream: a 4-byte big-endian length, then that many
// bytes. The decoder never trusts a length: anything above the cap ends the stream with
// an error instead of an allocation.
#pragma once

#include "error/error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace baton::protocol {

inline constexpr std::size_t kFrameHeaderBytes = 4;
inline constexpr std::uint32_t kDefaultMaxFrame = 16u << 20;  // 16 MiB: a plan of ~100k chunks
// The cap while a peer has not authenticated: a Hello, a Proof or a Refusal fits.
inline constexpr std::uint32_t kHandshakeMaxFrame = 4096;

class FrameError : public error::InvalidInput {
 public:
  using error::InvalidInput::InvalidInput;
};

// Appends one frame holding `payload` to `out`. Throws FrameError above the cap.
void append_frame(std::string& out, std::string_view payload, std::uint32_t max_frame = kDefaultMaxFrame);

// Splits a byte stream into frames, however the bytes arrive.
class FrameDecoder {
 public:
  explicit FrameDecoder(std::uint32_t max_frame = kDefaultMaxFrame) : max_frame_(max_frame) {}

  // Lowers or raises the cap for frames not yet announced (a handshake reads under a
  // small one).
  void set_max_frame(std::uint32_t max_frame);

  // Adds received bytes. Throws FrameError when a header announces more than the cap.
  void feed(std::string_view bytes);

  // The next complete frame's payload, if one has fully arrived.
  std::optional<std::string> next();

  // Bytes received but not yet returned (a partial frame at the end of a stream is a
  // truncated message).
  std::size_t pending() const { return buffer_.size() - start_; }

 private:
  void check_header();

  std::uint32_t max_frame_;
  std::string buffer_;
  std::size_t start_ = 0;
};

}  // namespace baton::protocol
