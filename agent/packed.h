// Packed flows (docs/runtime.md, "Packed flows"): a flow's chunks whose stream ranges
// follow one another travel as one transport flow, up to one frame's payload, instead of
// one flow (begin, data, end, ack: a round trip) per chunk. The sender gathers the
// pieces from their sources, the receiver scatters them into their destinations; both
// hash each piece on its own, so the step's report still has one digest per chunk.
//
// Nothing about a pack crosses the network but the flow's range: the receiver knows the
// pieces from its plan and refuses a range that does not start and end on its chunks'
// bounds (agent/step_runner.cpp, resolve()).
#pragma once

#include "error/refusal.h"
#include "protocol/baton.pb.h"
#include "transport/checksum.h"
#include "transport/source.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace baton::agent {

// One chunk's share of a packed flow: stream bytes [stream, stream + length).
struct PackPiece {
  std::uint64_t stream = 0;
  std::uint64_t length = 0;
};

// The runs [first, last) of `chunks` that travel together: consecutive non-empty chunks
// whose stream ranges touch, at most `limit` bytes in all (a chunk longer than that, or an
// empty one, travels alone).
std::vector<std::pair<std::size_t, std::size_t>> pack_runs(
    const google::protobuf::RepeatedPtrField<protocol::Chunk>& chunks, std::uint64_t limit);

// Why `pieces` cannot make up the flow range [offset, offset + length): not in order,
// overlapping, leaving a gap, empty, past the range's end or short of it. nullopt when
// they tile it exactly.
std::optional<error::Refusal> check_pack(std::uint64_t offset, std::uint64_t length,
                                         const std::vector<PackPiece>& pieces);

// XXH3-64 of each piece of a packed flow, fed in stream order. A piece handed in one part
// (a short byte range inside one frame: most of them) is hashed at once; one that spans
// frames goes through the one streaming state, which is reset for the next such piece.
// The value is the same either way (XXH3's streaming and one-shot forms agree).
class PieceSums {
 public:
  explicit PieceSums(std::size_t pieces) : values_(pieces) {}
  // Adds `part`, the next bytes of piece `i` (of `length` bytes, `done` of them given
  // before); `i` never goes back.
  void add(std::size_t i, std::uint64_t length, std::uint64_t done, std::span<const std::byte> part) noexcept;
  // Piece `i`'s value once all of its bytes were added (0 before).
  std::uint64_t value(std::size_t i) const { return values_[i]; }

 private:
  std::vector<std::uint64_t> values_;
  std::optional<transport::RangeChecksum> partial_;  // made at the first piece that spans parts
};

// Reads a packed flow from each piece's source (whose offsets are stream offsets, e.g. a
// ShiftedSource), hashing each piece as it is handed out. The transport reads a flow once,
// in order; a read out of order is refused.
class GatherSource final : public transport::Source {
 public:
  // Throws error::InvalidInput (check_pack's reason) unless the pieces tile the range,
  // and if the number of sources differs from the pieces'.
  GatherSource(std::uint64_t offset, std::uint64_t length, std::vector<PackPiece> pieces,
               std::vector<const transport::Source*> sources);
  std::uint64_t size() const override { return offset_ + length_; }
  std::optional<std::span<const std::byte>> view(std::uint64_t offset, std::size_t length) const override;
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override;
  // XXH3-64 of piece `i`'s bytes, once all of them were handed out.
  std::uint64_t checksum(std::size_t i) const { return sums_.value(i); }

 private:
  std::uint64_t offset_, length_;
  std::vector<PackPiece> pieces_;
  std::vector<const transport::Source*> sources_;
  mutable PieceSums sums_;
  mutable std::uint64_t next_;  // the next stream offset to hand out
  mutable std::size_t piece_ = 0;
};

// Writes a packed flow into each piece's sink (whose offsets are stream offsets, e.g. a
// ShiftedSink), hashing each piece. Writes come in order (the transport writes verified
// frames one after another); one out of order, or outside the range, is refused.
class ScatterSink final : public transport::Sink {
 public:
  // Throws error::InvalidInput as GatherSource does.
  ScatterSink(std::uint64_t offset, std::uint64_t length, std::vector<PackPiece> pieces,
              std::vector<transport::Sink*> sinks);
  std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override;
  std::uint64_t checksum(std::size_t i) const { return sums_.value(i); }
  // Stream bytes written so far, from the range's start.
  std::uint64_t written() const { return next_ - offset_; }

 private:
  std::uint64_t offset_, length_;
  std::vector<PackPiece> pieces_;
  std::vector<transport::Sink*> sinks_;
  PieceSums sums_;
  std::uint64_t next_;
  std::size_t piece_ = 0;
};

}  // namespace baton::agent
