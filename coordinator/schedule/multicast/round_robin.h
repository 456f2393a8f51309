// Round Robin (RR), Section 4.4, and its preemptive form RRP (Section 5).
#pragma once

#include "coordinator/schedule/multicast/receiver_first.h"

namespace baton::schedule::multicast {

// Step 1 of RR: "the destination nodes take turn to be the receivers" (Section 6): a
// pointer cycles over the node indices 0, 1, ..., N-1, 0, ..., skipping nodes that need
// nothing more; each pick moves it past the chosen node.
class RoundRobinRule final : public ReceiverRule {
 public:
  NodeId choose(const PartialSchedule& partial) override;
  void committed(const PartialSchedule&, const Transfer&) override {}

 private:
  NodeId next_ = 0;
};

Schedule round_robin(const Problem& problem, Placement placement);

}  // namespace baton::schedule::multicast
