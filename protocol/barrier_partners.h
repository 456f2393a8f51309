// Who a self-paced job's member exchanges barrier votes with (docs/runtime.md, "Self-paced
// steps"). The coordinator and the agents both need it: the coordinator lists in each plan
// only that member and its partners, and the agent checks the list is exactly those.
//
// The members, in rank order, form a tree of fan-out barrier_fan_out: rank r's parent is
// (r - 1) / fan_out. 2 (n - 1) messages a barrier, 2 ceil(log_fan_out n) hops deep (a
// dissemination barrier sends n ceil(log2 n), which on a machine shared by many agents costs
// more than it saves).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace baton::protocol {

inline constexpr std::size_t barrier_fan_out = 4;

struct BarrierPartners {
  std::optional<std::size_t> parent;  // none for the root (rank 0)
  std::vector<std::size_t> children;  // in rank order
};

// Rank `rank`'s partners among `members` (rank < members).
BarrierPartners barrier_partners(std::size_t rank, std::size_t members, std::size_t fan_out = barrier_fan_out);

// Messages on the longest path of one barrier: up to the root and down again.
std::size_t barrier_hops(std::size_t members, std::size_t fan_out = barrier_fan_out);

}  // namespace baton::protocol
