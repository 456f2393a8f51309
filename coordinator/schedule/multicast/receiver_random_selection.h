// Receiver Random Selection (RRS), Section 4.4, and its preemptive form RRSP (Section 5).
#pragma once

#include "coordinator/schedule/multicast/receiver_first.h"

#include <cstdint>
#include <random>
#include <vector>

namespace baton::schedule::multicast {

// Step 1 of RRS: "selects the receiver randomly" (Section 6): uniformly among the
// destinations still missing a message. The generator is std::mt19937_64 seeded with
// `seed`, and a pick is engine() % count, so a seed gives the same schedule everywhere.
class RandomReceiverRule final : public ReceiverRule {
 public:
  RandomReceiverRule(const Problem& problem, std::uint64_t seed);
  NodeId choose(const PartialSchedule& partial) override;
  void committed(const PartialSchedule& partial, const Transfer& transfer) override;

 private:
  std::mt19937_64 engine_;
  std::vector<NodeId> active_;         // nodes with SR_i not empty
  std::vector<std::size_t> position_;  // index of each active node in active_
};

Schedule receiver_random_selection(const Problem& problem, Placement placement, std::uint64_t seed);

}  // namespace baton::schedule::multicast
