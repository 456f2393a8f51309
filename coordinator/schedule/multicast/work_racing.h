// Work Racing (WR), Section 4.3, and its preemptive form WRP (Section 5).
#pragma once

#include "coordinator/schedule/multicast/receiver_first.h"

#include <unordered_map>
#include <vector>

namespace baton::schedule::multicast {

// Step 1 of WR: the destination with the least virtual time W (the work it has done
// receiving), the fastest on ties. After P_i receives m_k from P_s as its n-th message
// (Equations 8 and 9):
//   A_r = S(s, l_k) + X(s, i)·l_k               if P_s is the source of m_k,
//   A_r = W(s after receiving m_k) + S + X·l_k   otherwise,
//   W_{i,n} = max{W_{i,n-1}, A_r} + R(i, l_k)    with W_{i,0} = 0.
// Virtual time ignores how busy the sender is: it measures each destination's own pace.
class WorkRacingRule final : public ReceiverRule {
 public:
  explicit WorkRacingRule(const Problem& problem);
  NodeId choose(const PartialSchedule& partial) override;
  void committed(const PartialSchedule& partial, const Transfer& transfer) override;

  double virtual_time(NodeId node) const { return virtual_time_[node]; }

 private:
  FastestReceiverOrder fastest_;
  std::vector<double> virtual_time_;
  std::unordered_map<std::size_t, double> time_at_receipt_;  // key k * N + node
};

Schedule work_racing(const Problem& problem, Placement placement);

}  // namespace baton::schedule::multicast
