#include "coordinator/schedule/reduction/receiver_assignment.h"

#include "error/error.h"

#include <vector>

namespace baton::schedule::reduction {

Schedule assign_receivers(std::span<const EpSlot> slots, std::size_t destination) {
  Schedule schedule;
  if (slots.empty()) return schedule;
  constexpr std::size_t unassigned = static_cast<std::size_t>(-1);
  std::vector<std::size_t> receiver(slots.size(), unassigned);
  // The last slot starts last, after every other transfer has ended (EP frees exactly
  // the processors it needs), so it is the root of the predecessor tree.
  receiver.back() = destination;
  for (std::size_t i = slots.size(); i-- > 0;) {
    if (receiver[i] == unassigned) {
      throw error::Bug("assign_receivers: a transfer is nobody's predecessor");
    }
    const std::array<std::size_t, 2> heirs{slots[i].sender, receiver[i]};
    for (std::size_t k = 0; k < 2; ++k) {
      const std::optional<std::size_t> predecessor = slots[i].predecessors[k];
      if (!predecessor) continue;
      if (*predecessor >= i || receiver[*predecessor] != unassigned) {
        throw error::Bug("assign_receivers: predecessors do not form a tree");
      }
      receiver[*predecessor] = heirs[k];
    }
  }
  schedule.transfers.reserve(slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    schedule.transfers.push_back({slots[i].sender, receiver[i], slots[i].start, slots[i].end});
  }
  return schedule;
}

}  // namespace baton::schedule::reduction
