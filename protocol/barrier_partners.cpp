#include "protocol/barrier_partners.h"

namespace baton::protocol {

BarrierPartners barrier_partners(std::size_t rank, std::size_t members, std::size_t fan_out) {
  BarrierPartners partners;
  if (rank > 0) partners.parent = (rank - 1) / fan_out;
  for (std::size_t child = rank * fan_out + 1; child <= rank * fan_out + fan_out && child < members; ++child)
    partners.children.push_back(child);
  return partners;
}

std::size_t barrier_hops(std::size_t members, std::size_t fan_out) {
  std::size_t depth = 0;  // of the deepest rank, members - 1
  for (std::size_t rank = members == 0 ? 0 : members - 1; rank > 0; rank = (rank - 1) / fan_out) ++depth;
  return 2 * depth;
}

}  // namespace baton::protocol
