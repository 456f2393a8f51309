// A chunk travels at its stream offset (docs/runtime.md, "The data plane") but is read at
// its source offset and written at its destination offset: these adapters move the
// offsets between the two, and refuse anything outside the chunk.
#pragma once

#include "transport/source.h"

#include <cstdint>

namespace baton::agent {

class ShiftedSource final : public transport::Source {
 public:
  // Stream bytes [stream, stream + length) are `source` bytes [offset, offset + length).
  // Each byte handed out is added to `*moved`, if given (a step's progress).
  ShiftedSource(const transport::Source& source, std::uint64_t stream, std::uint64_t offset, std::uint64_t length,
                std::uint64_t* moved = nullptr)
      : source_(source), stream_(stream), offset_(offset), length_(length), moved_(moved) {}
  std::uint64_t size() const override { return stream_ + length_; }
  std::optional<std::span<const std::byte>> view(std::uint64_t offset, std::size_t length) const override;
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override;

 private:
  bool inside(std::uint64_t offset, std::uint64_t length) const noexcept;

  const transport::Source& source_;
  std::uint64_t stream_, offset_, length_;
  std::uint64_t* moved_;
};

class ShiftedSink final : public transport::Sink {
 public:
  // Stream bytes [stream, stream + length) go to `sink` at [offset, offset + length).
  // Each byte written is added to `*moved`, if given (a step's progress).
  ShiftedSink(transport::Sink& sink, std::uint64_t stream, std::uint64_t offset, std::uint64_t length,
              std::uint64_t* moved = nullptr)
      : sink_(sink), stream_(stream), offset_(offset), length_(length), moved_(moved) {}
  std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override;

 private:
  transport::Sink& sink_;
  std::uint64_t stream_, offset_, length_;
  std::uint64_t* moved_;
};

}  // namespace baton::agent
