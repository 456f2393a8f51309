// A distributed 2-D array as each side of a coupling holds it (docs/embedding.md, "Coupled
// codes"): the global shape, the size of one element, the ordered nodes of the group, and
// which dimension is cut over them, in blocks or block-cyclically. Every node keeps its
// part as one row-major array (local rows × local columns): numpy's C order, C's
// `double a[rows][cols]`. A vector is an array of one column.
//
//   Layout rows = Layout::make({1000, 800}, 8, {"ocean-0", "ocean-1"}, {.dim = 0});            // block rows
//   Layout cols = Layout::make({1000, 800}, 8, {"atm-0", "atm-1", "atm-2"}, {.dim = 1, .block = 16});  // cyclic
//   Layout uneven = Layout::make({1000, 800}, 8, {"a", "b"}, {.dim = 0, .counts = {300, 700}});     // ranges
//
// A layout is the same on every process that builds it, so any of them can compute every
// node's part: handoff() needs no exchange of descriptions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baton::coupling {

struct Distribution {
  int dim = 0;  // 0: rows are cut over the nodes; 1: columns are
  std::uint64_t block =
      0;  // 0: block (node p holds the p-th of P pieces of ⌈n/P⌉); else block-cyclic blocks of this many
  // Index ranges instead: node p holds the next counts[p] indices after node p-1's (an
  // uneven decomposition); one count per node, summing to the dimension. Empty: `block`.
  std::vector<std::uint64_t> counts{};

  bool operator==(const Distribution&) const = default;
};

struct Layout {
  std::array<std::uint64_t, 2> shape{};  // global rows, columns
  std::uint64_t element_size = 0;        // bytes of one element
  std::vector<std::string> nodes;        // the group, in order: node p holds part p
  Distribution distribution;
  std::vector<std::uint64_t> starts;  // with counts: where node p's range starts, then the dimension

  // Checks every field; throws coupling::Error (invalid_argument) naming the first wrong one.
  static Layout make(std::array<std::uint64_t, 2> shape, std::uint64_t element_size, std::vector<std::string> nodes,
                     Distribution distribution);

  // The position of `node` in the group, or none.
  std::optional<std::size_t> index_of(const std::string& node) const;
  // Node p's part: how many indices of the cut dimension it holds, its local shape, bytes.
  std::uint64_t count(std::size_t p) const;
  std::array<std::uint64_t, 2> local_shape(std::size_t p) const;
  std::uint64_t local_bytes(std::size_t p) const;
  // The global index of node p's `local`-th index along the cut dimension.
  std::uint64_t global_index(std::size_t p, std::uint64_t local) const;
  // Who holds global index `global` of the cut dimension, and where in its part.
  std::pair<std::size_t, std::uint64_t> owner(std::uint64_t global) const;
  // One line: "1000 x 800 of 8 bytes, columns block-cyclic (16) over atm-0, atm-1, atm-2".
  std::string describe() const;

  bool operator==(const Layout&) const = default;
};

// One contiguous byte range from a node's part in one layout into a node's part in another.
struct Piece {
  std::size_t src = 0;  // index in the source layout's nodes
  std::uint64_t src_offset = 0;
  std::uint64_t length = 0;
  std::size_t dst = 0;  // index in the destination layout's nodes
  std::uint64_t dst_offset = 0;
};

// Every byte range that moves the array from `from` to `to`, contiguous runs between the
// same two nodes merged. Throws coupling::Error (invalid_argument) when the two describe
// different arrays (shape or element size).
std::vector<Piece> redistribution(const Layout& from, const Layout& to);

// `count` pieces of first.length bytes between the same two nodes, the i-th (from 0) at
// first.src_offset + i * src_stride and first.dst_offset + i * dst_stride: the rows of a
// column block, as the job's "transfer_runs" (docs/runtime.md) carries them.
struct PieceRun {
  Piece first;
  std::uint64_t src_stride = 0, dst_stride = 0, count = 1;
};

// `pieces` (redistribution(from, to)) as runs, every piece in exactly one, in the order of
// their first pieces: a piece extends the run whose last piece is one row above it in both
// parts (same two nodes, same length), so the rows of a column block become one run.
std::vector<PieceRun> piece_runs(const std::vector<Piece>& pieces, const Layout& from, const Layout& to);

}  // namespace baton::coupling
