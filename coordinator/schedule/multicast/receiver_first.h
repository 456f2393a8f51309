// The receiver-first schedulers of Sections 4.3-4.4 (WR, EAF, RR, RRS) and, with the
// preemptive placement, WRP, EAFP, RRP and RRSP. Each iteration first picks a receiver P_i
// by the algorithm's rule, then the message P_k ∈ SR_i and the sender P_j ∈ A_k whose
// send (send, j, i, k) completes earliest, and commits it.
#pragma once

#include "coordinator/schedule/multicast/partial_schedule.h"
#include "coordinator/schedule/multicast/problem.h"
#include "coordinator/schedule/multicast/schedule.h"

#include <vector>

namespace baton::schedule::multicast {

// Step 1 of a receiver-first algorithm: which destination receives next.
class ReceiverRule {
 public:
  virtual ~ReceiverRule() = default;
  // A node whose SR_i is not empty.
  virtual NodeId choose(const PartialSchedule& partial) = 0;
  // Called after each delivery is committed.
  virtual void committed(const PartialSchedule& partial, const Transfer& transfer) = 0;
};

// Runs a receiver-first algorithm to the end.
Schedule schedule_receivers_first(const Problem& problem, Placement placement, ReceiverRule& rule);

// Step 2: the (k, j) with P_k ∈ SR_i, P_j ∈ A_k of least CompleteTime(j, i, k). Ties go to
// the shorter message (SR_i is sorted by length, then index), then to the sender that
// joined A_k first: the order that gives the paper's Figure 4 and 5 sequences.
// Section 4.3's marking: when send times do not depend on the message (append
// placement), a sender's shortest message is its best (S, X·l and R grow with l), so each
// sender is evaluated once, at the first message of SR_i it holds. This is exact. With the
// preemptive placement a longer message received earlier can leave an earlier gap, so
// every pair is evaluated.
Transfer earliest_completing_delivery(const PartialSchedule& partial, NodeId receiver);

// "If there are multiple possibilities, choose the fastest one" (Section 4.3, Step 1).
// Decision: the fastest receiver is the one with the least R(i, l) for l the mean message
// length of the problem, then the lowest index. rank(i) < rank(j) means i is faster.
class FastestReceiverOrder {
 public:
  explicit FastestReceiverOrder(const Problem& problem);
  std::size_t rank(NodeId node) const { return rank_[node]; }

 private:
  std::vector<std::size_t> rank_;
};

}  // namespace baton::schedule::multicast
