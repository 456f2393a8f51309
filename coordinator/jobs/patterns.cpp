#include "coordinator/jobs/patterns.h"

#include "error/error.h"

#include <algorithm>
#include <numeric>

namespace baton::jobs {
namespace {

// The size of one contiguous piece of the layout: ⌈bytes/nodes⌉ for block, b for block-cyclic.
// Block-cyclic over one node is one contiguous piece too: its blocks follow each other in
// the one file, so they need not be walked one by one (and would merge anyway).
std::uint64_t piece(Layout layout, std::uint64_t block, std::uint64_t bytes, std::size_t nodes) {
  if (layout == Layout::block) return bytes / nodes + (bytes % nodes != 0 ? 1 : 0);
  return nodes == 1 ? std::max(block, bytes) : block;
}

void check(const RedistributionPattern& p, std::size_t senders, std::size_t receivers) {
  if (p.bytes == 0) throw error::InvalidInput("pattern: the array is empty");
  if (senders == 0 || receivers == 0) {
    throw error::InvalidInput("pattern: needs at least one source and one destination node");
  }
  if ((p.from == Layout::block_cyclic && p.from_block == 0) || (p.to == Layout::block_cyclic && p.to_block == 0)) {
    throw error::InvalidInput("pattern: block size must be > 0");
  }
}

}  // namespace

std::uint64_t count_transfers(const RedistributionPattern& p, std::size_t senders, std::size_t receivers) {
  check(p, senders, receivers);
  // expand() cuts the array wherever a source or a destination piece ends: at the
  // multiples of s and of d below `bytes`, the common multiples (of lcm(s, d)) once.
  const std::uint64_t s = piece(p.from, p.from_block, p.bytes, senders);
  const std::uint64_t d = piece(p.to, p.to_block, p.bytes, receivers);
  const std::uint64_t last = p.bytes - 1;
  const std::uint64_t s_over_gcd = s / std::gcd(s, d);
  // lcm = s_over_gcd · d, computed only when it is at most `last` (it cannot overflow then).
  const std::uint64_t common = s_over_gcd > last / d ? 0 : last / (s_over_gcd * d);
  return 1 + last / s + last / d - common;
}

std::pair<std::size_t, std::uint64_t> locate(Layout layout, std::uint64_t block, std::uint64_t bytes, std::size_t nodes,
                                             std::uint64_t index) {
  const std::uint64_t size = piece(layout, block, bytes, nodes);
  const std::uint64_t i = index / size;
  if (layout == Layout::block) return {static_cast<std::size_t>(i), index - i * size};
  return {static_cast<std::size_t>(i % nodes), (i / nodes) * size + (index - i * size)};
}

std::vector<TransferSpec> expand(const RedistributionPattern& p, const Clusters& clusters) {
  check(p, clusters.senders.size(), clusters.receivers.size());
  const std::size_t P = clusters.senders.size(), Q = clusters.receivers.size();
  const std::uint64_t src_piece = piece(p.from, p.from_block, p.bytes, P);
  const std::uint64_t dst_piece = piece(p.to, p.to_block, p.bytes, Q);
  std::vector<TransferSpec> out;
  out.reserve(count_transfers(p, P, Q));
  for (std::uint64_t pos = 0; pos < p.bytes;) {
    // The segment ends where either side's contiguous piece ends.
    const std::uint64_t end = std::min({(pos / src_piece + 1) * src_piece, (pos / dst_piece + 1) * dst_piece, p.bytes});
    const auto [src, src_offset] = locate(p.from, p.from_block, p.bytes, P, pos);
    const auto [dst, dst_offset] = locate(p.to, p.to_block, p.bytes, Q, pos);
    const std::uint64_t length = end - pos;
    TransferSpec* last = out.empty() ? nullptr : &out.back();
    if (last && last->src_node == clusters.senders[src] && last->dst_node == clusters.receivers[dst] &&
        last->src_offset + last->length == src_offset && last->dst_offset + last->length == dst_offset) {
      last->length += length;
    } else {
      out.push_back(
          {clusters.senders[src], p.src_file, src_offset, length, clusters.receivers[dst], p.dst_file, dst_offset});
    }
    pos = end;
  }
  return out;
}

}  // namespace baton::jobs
