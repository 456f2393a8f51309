// Earliest Available First (EAF), Section 4.4, and its preemptive form EAFP (Section 5).
#pragma once

#include "coordinator/schedule/multicast/receiver_first.h"

namespace baton::schedule::multicast {

// Step 1 of EAF: "selects the destination with the minimum available time as the
// receiver" (Section 6): the least receive-available time (Avail_j, Figure 15) among the
// destinations still missing a message. Decision: ties go to the fastest receiver, as in
// WR (the paper gives no tie rule for EAF; this one reproduces its Figure 4(d)).
class EarliestAvailableRule final : public ReceiverRule {
 public:
  explicit EarliestAvailableRule(const Problem& problem) : fastest_(problem) {}
  NodeId choose(const PartialSchedule& partial) override;
  void committed(const PartialSchedule&, const Transfer&) override {}

 private:
  FastestReceiverOrder fastest_;
};

Schedule earliest_available_first(const Problem& problem, Placement placement);

}  // namespace baton::schedule::multicast
