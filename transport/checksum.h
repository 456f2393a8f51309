// XXH3-64 checksums of chunk payloads, frame headers and whole ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace baton::transport {

// XXH3-64 of `bytes` (seed 0).
std::uint64_t xxh3_64(std::span<const std::byte> bytes) noexcept;

// Streaming XXH3-64 over a whole range, fed chunk by chunk in order. Gives the same
// value as xxh3_64 over the concatenation. Move-only; not thread-safe.
class RangeChecksum {
 public:
  RangeChecksum();
  ~RangeChecksum();
  RangeChecksum(RangeChecksum&&) noexcept;
  RangeChecksum& operator=(RangeChecksum&&) noexcept;

  void update(std::span<const std::byte> bytes) noexcept;
  std::uint64_t value() const noexcept;
  // Starts over, as if just constructed.
  void reset() noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace baton::transport
