// Array redistribution patterns that expand to transfers: an array of `bytes` bytes held
// block-wise by P source nodes is redistributed block-cyclically over Q destination nodes,
// or the reverse. Each node holds its part of the array contiguously in one file.
#pragma once

#include "coordinator/jobs/job.h"

#include <cstdint>
#include <string>

namespace baton::jobs {

enum class Layout {
  block,         // node p holds the p-th of P contiguous pieces of ⌈bytes/P⌉ bytes
  block_cyclic,  // block i of `block_size` bytes lives on node i mod P, after its earlier blocks
};

struct RedistributionPattern {
  std::uint64_t bytes = 0;  // size of the array
  Layout from = Layout::block;
  std::uint64_t from_block = 0;  // block size when `from` is block_cyclic
  Layout to = Layout::block_cyclic;
  std::uint64_t to_block = 0;  // block size when `to` is block_cyclic
  std::string src_file = "array.bin";
  std::string dst_file = "array.bin";
};

// Every transfer that moves the array from the layout over clusters.senders to the layout
// over clusters.receivers; contiguous pieces between the same two nodes are merged.
// Throws error::InvalidInput for an empty array, no nodes, or a zero block size.
std::vector<TransferSpec> expand(const RedistributionPattern& pattern, const Clusters& clusters);

// How many transfers expand() returns, from the sizes alone (nothing is materialised, so a
// job can be refused before it costs memory or time): exact when the nodes of each
// cluster are distinct, an upper bound otherwise (pieces of a node named twice may merge).
// Every piece boundary changes the source or the destination node, so nothing else merges.
// Throws like expand().
std::uint64_t count_transfers(const RedistributionPattern& pattern, std::size_t senders, std::size_t receivers);

// Where global byte `index` lives in a layout over `nodes` nodes: (node, offset in its file).
std::pair<std::size_t, std::uint64_t> locate(Layout layout, std::uint64_t block, std::uint64_t bytes, std::size_t nodes,
                                             std::uint64_t index);

}  // namespace baton::jobs
