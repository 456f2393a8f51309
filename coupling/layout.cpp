#include "coupling/layout.h"

#include "coupling/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace baton::coupling {
namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(Errc::invalid_argument, message); }

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// Where each node's index range starts (and the dimension last), after checking the counts.
std::vector<std::uint64_t> range_starts(const Distribution& d, std::size_t nodes, std::uint64_t n) {
  if (d.block != 0) invalid("layout: give a block size or index ranges (counts), not both");
  if (d.counts.size() != nodes) {
    invalid("layout: " + std::to_string(d.counts.size()) + " index ranges (counts) for " + std::to_string(nodes) +
            " nodes");
  }
  std::vector<std::uint64_t> starts{0};
  for (const std::uint64_t count : d.counts) {
    if (count > n - starts.back()) break;
    starts.push_back(starts.back() + count);
  }
  if (starts.size() != nodes + 1 || starts.back() != n) {
    std::uint64_t sum = 0;
    bool overflow = false;
    for (const std::uint64_t count : d.counts) overflow |= __builtin_add_overflow(sum, count, &sum);
    invalid("layout: the index ranges (counts) add up to " +
            (overflow ? std::string("more than 2^64") : std::to_string(sum)) + ", not the " +
            (d.dim == 0 ? "rows' " : "columns' ") + std::to_string(n));
  }
  return starts;
}

}  // namespace

Layout Layout::make(std::array<std::uint64_t, 2> shape, std::uint64_t element_size, std::vector<std::string> nodes,
                    Distribution distribution) {
  if (shape[0] == 0 || shape[1] == 0) invalid("layout: the shape must not be empty");
  if (element_size == 0) invalid("layout: the element size must be > 0");
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(shape[0], shape[1], &bytes) || __builtin_mul_overflow(bytes, element_size, &bytes)) {
    invalid("layout: " + std::to_string(shape[0]) + " x " + std::to_string(shape[1]) + " elements of " +
            std::to_string(element_size) + " bytes overflow 2^64 bytes");
  }
  if (nodes.empty()) invalid("layout: the group has no node");
  std::set<std::string> seen;
  for (const std::string& node : nodes) {
    if (node.empty()) invalid("layout: a node's name is empty");
    if (!seen.insert(node).second) invalid("layout: node " + node + " is named twice in the group");
  }
  if (distribution.dim != 0 && distribution.dim != 1) {
    invalid("layout: the cut dimension must be 0 (rows) or 1 (columns), not " + std::to_string(distribution.dim));
  }
  std::vector<std::uint64_t> starts;
  if (!distribution.counts.empty()) starts = range_starts(distribution, nodes.size(), shape[distribution.dim]);
  return Layout{.shape = shape,
                .element_size = element_size,
                .nodes = std::move(nodes),
                .distribution = std::move(distribution),
                .starts = std::move(starts)};
}

std::optional<std::size_t> Layout::index_of(const std::string& node) const {
  const auto it = std::find(nodes.begin(), nodes.end(), node);
  if (it == nodes.end()) return std::nullopt;
  return static_cast<std::size_t>(it - nodes.begin());
}

std::uint64_t Layout::count(std::size_t p) const {
  const std::uint64_t n = shape[distribution.dim], P = nodes.size();
  if (!starts.empty()) return starts[p + 1] - starts[p];
  if (distribution.block == 0) {
    const std::uint64_t b = ceil_div(n, P), start = p * b;
    return start >= n ? 0 : std::min(b, n - start);
  }
  // Block-cyclic (ScaLAPACK's numroc): node p holds blocks p, p + P, ...; the last block
  // may be short.
  const std::uint64_t nb = distribution.block, blocks = ceil_div(n, nb);
  if (p >= blocks) return 0;
  std::uint64_t held = (blocks - p + P - 1) / P * nb;
  if ((blocks - 1) % P == p && n % nb != 0) held -= nb - n % nb;
  return held;
}

std::array<std::uint64_t, 2> Layout::local_shape(std::size_t p) const {
  std::array<std::uint64_t, 2> local = shape;
  local[distribution.dim] = count(p);
  return local;
}

std::uint64_t Layout::local_bytes(std::size_t p) const {
  const auto local = local_shape(p);
  return local[0] * local[1] * element_size;
}

std::uint64_t Layout::global_index(std::size_t p, std::uint64_t local) const {
  const std::uint64_t n = shape[distribution.dim], P = nodes.size();
  if (!starts.empty()) return starts[p] + local;
  if (distribution.block == 0) return p * ceil_div(n, P) + local;
  const std::uint64_t nb = distribution.block;
  return ((local / nb) * P + p) * nb + local % nb;
}

std::pair<std::size_t, std::uint64_t> Layout::owner(std::uint64_t global) const {
  const std::uint64_t n = shape[distribution.dim], P = nodes.size();
  if (!starts.empty()) {
    // The last node whose range starts at or before `global` (empty ranges share a start).
    const auto p =
        static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), global) - starts.begin()) - 1;
    return {p, global - starts[p]};
  }
  if (distribution.block == 0) {
    const std::uint64_t b = ceil_div(n, P);
    return {static_cast<std::size_t>(global / b), global % b};
  }
  const std::uint64_t nb = distribution.block, block = global / nb;
  return {static_cast<std::size_t>(block % P), (block / P) * nb + global % nb};
}

namespace {

std::string kind(const Distribution& d) {
  if (d.counts.empty()) return d.block == 0 ? "block" : "block-cyclic (" + std::to_string(d.block) + ")";
  std::string text = "in ranges (";
  for (std::size_t p = 0; p < d.counts.size(); ++p) text += (p == 0 ? "" : ", ") + std::to_string(d.counts[p]);
  return text + ")";
}

}  // namespace

std::string Layout::describe() const {
  std::string text = std::to_string(shape[0]) + " x " + std::to_string(shape[1]) + " of " +
                     std::to_string(element_size) + " bytes, " + (distribution.dim == 0 ? "rows" : "columns") + " " +
                     kind(distribution) + " over ";
  for (std::size_t p = 0; p < nodes.size(); ++p) text += (p == 0 ? "" : ", ") + nodes[p];
  return text;
}

namespace {

// Where global element (i, j) lies in a layout: the node, the byte offset in its part, and
// how many elements from j on stay contiguous there (to the end of the row or of the piece).
struct Spot {
  std::size_t node;
  std::uint64_t offset;
  std::uint64_t run;
};

Spot locate(const Layout& l, std::uint64_t i, std::uint64_t j) {
  const std::uint64_t cols = l.shape[1];
  if (l.distribution.dim == 0) {
    const auto [node, row] = l.owner(i);
    return {node, (row * cols + j) * l.element_size, cols - j};
  }
  const auto [node, col] = l.owner(j);
  if (!l.starts.empty()) return {node, (i * l.count(node) + col) * l.element_size, l.starts[node + 1] - j};
  const std::uint64_t piece = l.distribution.block == 0 ? ceil_div(cols, l.nodes.size()) : l.distribution.block;
  const std::uint64_t run = std::min((j / piece + 1) * piece, cols) - j;
  return {node, (i * l.count(node) + col) * l.element_size, run};
}

}  // namespace

std::vector<Piece> redistribution(const Layout& from, const Layout& to) {
  if (from.shape != to.shape || from.element_size != to.element_size) {
    invalid("handoff: the two layouts describe different arrays: " + from.describe() + " against " + to.describe());
  }
  std::vector<Piece> pieces;
  for (std::uint64_t i = 0; i < from.shape[0]; ++i) {
    for (std::uint64_t j = 0; j < from.shape[1];) {
      const Spot s = locate(from, i, j), d = locate(to, i, j);
      const std::uint64_t run = std::min(s.run, d.run), length = run * from.element_size;
      Piece* last = pieces.empty() ? nullptr : &pieces.back();
      if (last && last->src == s.node && last->dst == d.node && last->src_offset + last->length == s.offset &&
          last->dst_offset + last->length == d.offset) {
        last->length += length;
      } else {
        pieces.push_back({s.node, s.offset, length, d.node, d.offset});
      }
      j += run;
    }
  }
  return pieces;
}

std::vector<PieceRun> piece_runs(const std::vector<Piece>& pieces, const Layout& from, const Layout& to) {
  // Where the piece one row further down would be: src, dst, length and its two offsets.
  using Next = std::tuple<std::size_t, std::size_t, std::uint64_t, std::uint64_t, std::uint64_t>;
  const auto row_bytes = [](const Layout& l, std::size_t node) { return l.local_shape(node)[1] * l.element_size; };
  std::vector<PieceRun> runs;
  std::map<Next, std::size_t> continued_by;  // each run's next row, and the run
  for (const Piece& p : pieces) {
    const auto found = continued_by.find({p.src, p.dst, p.length, p.src_offset, p.dst_offset});
    std::size_t r = runs.size();
    if (found != continued_by.end()) {
      r = found->second;
      continued_by.erase(found);
      runs[r].count += 1;
    } else {
      runs.push_back({.first = p, .src_stride = row_bytes(from, p.src), .dst_stride = row_bytes(to, p.dst)});
    }
    const PieceRun& run = runs[r];
    continued_by[{p.src, p.dst, p.length, p.src_offset + run.src_stride, p.dst_offset + run.dst_stride}] = r;
  }
  return runs;
}

}  // namespace baton::coupling
