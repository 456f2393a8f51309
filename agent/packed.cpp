#include "agent/packed.h"

#include "agent/byte_ranges.h"
#include "error/error.h"

#include <algorithm>

namespace baton::agent {
namespace {

void require_tiling(std::uint64_t offset, std::uint64_t length, const std::vector<PackPiece>& pieces,
                    std::size_t targets) {
  if (const auto why = check_pack(offset, length, pieces)) throw error::InvalidInput(why->reason);
  if (targets != pieces.size()) throw error::InvalidInput("a packed flow needs one source or sink per piece");
}

// Moves `bytes`, the stream from `next` on, piece by piece: `move(piece, part)` reads or
// writes each part at `next`, and the part is hashed into its piece's sum. Advances `next`
// and `piece` past what it moved; stops at the first error.
template <class Bytes, class Move>
std::error_code through_pieces(const std::vector<PackPiece>& pieces, PieceSums& sums, std::uint64_t& next,
                               std::size_t& piece, Bytes bytes, Move move) {
  while (!bytes.empty()) {
    const PackPiece& p = pieces[piece];
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), p.stream + p.length - next));
    const Bytes part = bytes.first(n);
    if (const std::error_code error = move(piece, part)) return error;
    sums.add(piece, p.length, next - p.stream, part);
    next += n;
    if (next == p.stream + p.length) ++piece;
    bytes = bytes.subspan(n);
  }
  return {};
}

}  // namespace

void PieceSums::add(std::size_t i, std::uint64_t length, std::uint64_t done, std::span<const std::byte> part) noexcept {
  if (done == 0 && part.size() == length) {
    values_[i] = transport::xxh3_64(part);
    return;
  }
  if (!partial_) partial_.emplace();
  if (done == 0) partial_->reset();
  partial_->update(part);
  if (done + part.size() == length) values_[i] = partial_->value();
}

std::vector<std::pair<std::size_t, std::size_t>> pack_runs(
    const google::protobuf::RepeatedPtrField<protocol::Chunk>& chunks, std::uint64_t limit) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  const auto n = static_cast<std::size_t>(chunks.size());
  for (std::size_t first = 0; first < n;) {
    std::size_t last = first + 1;
    std::uint64_t bytes = chunks[static_cast<int>(first)].length();
    if (bytes > 0) {
      while (last < n) {
        const protocol::Chunk& previous = chunks[static_cast<int>(last - 1)];
        const protocol::Chunk& next = chunks[static_cast<int>(last)];
        if (next.length() == 0 || next.stream_offset() != previous.stream_offset() + previous.length() ||
            next.length() > limit - std::min(limit, bytes))
          break;
        bytes += next.length();
        ++last;
      }
    }
    runs.emplace_back(first, last);
    first = last;
  }
  return runs;
}

std::optional<error::Refusal> check_pack(std::uint64_t offset, std::uint64_t length,
                                         const std::vector<PackPiece>& pieces) {
  if (pieces.empty()) return "a packed flow " + range_text(offset, length) + " has no pieces";
  std::uint64_t at = offset;
  const std::uint64_t end = offset + length;
  if (end < offset)
    return "a packed flow's range " + std::to_string(offset) + " + " + std::to_string(length) + " overflows";
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const PackPiece& p = pieces[i];
    // Named only when refused: a flow may have thousands of pieces.
    const auto which = [&] { return "piece " + std::to_string(i) + " " + range_text(p.stream, p.length); };
    if (p.length == 0) return which() + " of packed flow " + range_text(offset, length) + " is empty";
    if (p.stream + p.length < p.stream) return which() + " overflows 2^64";
    if (p.stream < at) return which() + " overlaps the bytes before it in packed flow " + range_text(offset, length);
    if (p.stream > at)
      return which() + " leaves a gap at " + range_text(at, p.stream - at) + " in packed flow " +
             range_text(offset, length);
    if (p.length > end - at) return which() + " runs past the end of packed flow " + range_text(offset, length);
    at += p.length;
  }
  if (at != end)
    return "the pieces of packed flow " + range_text(offset, length) + " add up to " + std::to_string(at - offset) +
           " bytes, not " + std::to_string(length);
  return std::nullopt;
}

GatherSource::GatherSource(std::uint64_t offset, std::uint64_t length, std::vector<PackPiece> pieces,
                           std::vector<const transport::Source*> sources)
    : offset_(offset), length_(length), pieces_(std::move(pieces)), sources_(std::move(sources)), sums_(pieces_.size()),
      next_(offset) {
  require_tiling(offset_, length_, pieces_, sources_.size());
}

std::optional<std::span<const std::byte>> GatherSource::view(std::uint64_t offset, std::size_t length) const {
  if (offset != next_ || piece_ >= pieces_.size()) return std::nullopt;
  const PackPiece& p = pieces_[piece_];
  if (length > p.stream + p.length - offset) return std::nullopt;  // spans pieces: read() gathers it
  const auto bytes = sources_[piece_]->view(offset, length);
  if (!bytes) return std::nullopt;
  sums_.add(piece_, p.length, offset - p.stream, *bytes);
  next_ += length;
  if (next_ == p.stream + p.length) ++piece_;
  return bytes;
}

std::error_code GatherSource::read(std::uint64_t offset, std::span<std::byte> into) const {
  if (offset != next_ || into.size() > offset_ + length_ - offset)
    return std::make_error_code(std::errc::invalid_argument);
  return through_pieces(pieces_, sums_, next_, piece_, into,
                        [&](std::size_t i, std::span<std::byte> part) { return sources_[i]->read(next_, part); });
}

ScatterSink::ScatterSink(std::uint64_t offset, std::uint64_t length, std::vector<PackPiece> pieces,
                         std::vector<transport::Sink*> sinks)
    : offset_(offset), length_(length), pieces_(std::move(pieces)), sinks_(std::move(sinks)), sums_(pieces_.size()),
      next_(offset) {
  require_tiling(offset_, length_, pieces_, sinks_.size());
}

std::error_code ScatterSink::write(std::uint64_t offset, std::span<const std::byte> bytes) {
  if (offset != next_ || bytes.size() > offset_ + length_ - offset)
    return std::make_error_code(std::errc::invalid_argument);
  return through_pieces(pieces_, sums_, next_, piece_, bytes,
                        [&](std::size_t i, std::span<const std::byte> part) { return sinks_[i]->write(next_, part); });
}

}  // namespace baton::agent
