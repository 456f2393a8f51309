// A redistribution job as the coordinator receives it: byte ranges of files on source
// nodes to copy into files on destination nodes (docs/runtime.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace baton::jobs {

// Copy `length` bytes from src_file at src_offset on node src_node into dst_file at
// dst_offset on node dst_node. Files are paths relative to each agent's data root.
struct TransferSpec {
  std::string src_node;
  std::string src_file;
  std::uint64_t src_offset = 0;
  std::uint64_t length = 0;
  std::string dst_node;
  std::string dst_file;
  std::uint64_t dst_offset = 0;
};

// The two clusters of the KPBS model: every transfer goes from a sender to a receiver.
// The order of the nodes fixes their row and column in the traffic matrix.
struct Clusters {
  std::vector<std::string> senders;
  std::vector<std::string> receivers;
};

// Throws error::InvalidInput naming the first transfer that is empty, overflows 2^64,
// names a node outside its cluster, or sends to itself; and if the destination ranges
// of two transfers overlap (the result would depend on the order of writes).
void check_transfers(const Clusters& clusters, const std::vector<TransferSpec>& transfers);

}  // namespace baton::jobs
