#include "coordinator/schedule/reduction/port_conflicts.h"

#include <algorithm>
#include <vector>

namespace baton::schedule::reduction {

std::optional<error::Refusal> find_port_conflict(std::size_t node_count, std::span<const Transfer> transfers,
                                                 double tolerance) {
  std::vector<std::vector<std::size_t>> involving(node_count);
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    involving[transfers[i].src].push_back(i);
    involving[transfers[i].dst].push_back(i);
  }
  for (std::size_t node = 0; node < node_count; ++node) {
    std::vector<std::size_t>& mine = involving[node];
    std::sort(mine.begin(), mine.end(),
              [&](std::size_t a, std::size_t b) { return transfers[a].start < transfers[b].start; });
    for (std::size_t k = 1; k < mine.size(); ++k) {
      const Transfer& before = transfers[mine[k - 1]];
      const Transfer& after = transfers[mine[k]];
      if (after.start < before.end - tolerance) {
        return "node " + std::to_string(node) + " is in two overlapping transfers (#" + std::to_string(mine[k - 1]) +
               " and #" + std::to_string(mine[k]) + ")";
      }
    }
  }
  return std::nullopt;
}

}  // namespace baton::schedule::reduction
