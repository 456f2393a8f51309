// The state every scheduler of Sections 4 and 5 builds on: the task lists chosen so far
// with their times, who holds which message (the sender sets A_k), who still needs which
// (the receiver sets B_k, the source sets SR_i), and the available times of the nodes.
//
// The Placement decides where a committed delivery's send goes:
//  - append: at the end of the sender's list, the plain algorithms of Section 4
//    (Avail_i <- Avail_i + S(i, l_k); the receive ends at CompleteTime, Equation 6);
//  - preemptive: into the earliest idle gap that the three rules of Section 5 allow
//    (UpdateSenderState, Figure 13). This one mechanism turns ECF, WR, EAF, RR and RRS
//    into ECFP, WRP, EAFP, RRP and RRSP.
// Receives always go at the end of the receiver's list (UpdateReceiverState, Figure 14).
// A commit never moves a task already placed, so the times stored here are final.
#pragma once

#include "coordinator/schedule/multicast/problem.h"
#include "coordinator/schedule/multicast/schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace baton::schedule::multicast {

enum class Placement { append, preemptive };

class PartialSchedule {
 public:
  // `problem` must be well formed (problem_error empty) and outlive this object.
  PartialSchedule(const Problem& problem, Placement placement);

  const Problem& problem() const { return problem_; }
  Placement placement() const { return placement_; }

  // A_k: the nodes holding m_k, the source first, then in the order they were scheduled
  // to receive it.
  const std::vector<NodeId>& holders(MulticastId k) const { return holders_[k]; }
  // B_k: the destinations of m_k not yet scheduled to receive it, ascending.
  const std::vector<NodeId>& pending_receivers(MulticastId k) const { return pending_receivers_[k]; }
  // SR_i: the multicasts node i still needs, by increasing length, then index (Section 4.3
  // sorts each destination's sources by message length).
  const std::vector<MulticastId>& pending_multicasts(NodeId i) const { return pending_multicasts_[i]; }
  std::size_t remaining_deliveries() const { return remaining_; }
  // Whether node j holds at least one message node i still needs (j ∈ A_k for some
  // k ∈ SR_i). Kept up to date in O(N) per commit.
  bool supplies(NodeId i, NodeId j) const { return supplies_[i * problem_.node_count() + j] > 0; }
  // j's position in A_k (0 for the source), or kNotHolder.
  static constexpr std::uint32_t kNotHolder = UINT32_MAX;
  std::uint32_t holder_position(NodeId j, MulticastId k) const {
    return holder_position_[j * problem_.multicasts.size() + k];
  }

  // When `sender` can start sending m_k: Avail_i (append) or SendAvailable(i, k) of
  // Figure 16 (preemptive). `sender` must hold m_k.
  double send_available(NodeId sender, MulticastId k) const;
  // When `receiver` can start a new receive: Avail_j, or ReceiveAvailable of Figure 15
  // (the same value: the end of its last task).
  double receive_available(NodeId receiver) const;
  // CompleteTime(i, j, k) of Equation 6 with the arrival of Equation 5, for a send that
  // starts at `send_start`.
  double completion_time(double send_start, NodeId sender, NodeId receiver, MulticastId k) const;
  double completion_time(NodeId sender, NodeId receiver, MulticastId k) const {
    return completion_time(send_available(sender, k), sender, receiver, k);
  }
  // Whether send_available depends on the message (only the preemptive placement's does):
  // when it does not, a sender's best message for a receiver is its shortest one.
  bool send_time_depends_on_message() const { return placement_ == Placement::preemptive; }

  // Places the send and the receive of one delivery and updates the sets. The sender must
  // hold m_k and the receiver must still need it. Returns the receive's end.
  double commit(const Transfer& transfer);

  // The finished schedule (call once every delivery is committed).
  Schedule take() &&;

 private:
  // The task after which a preemptive send of m_k may go (rules 1 and 2), or kListHead.
  std::size_t preemption_target(NodeId sender, MulticastId k) const;
  // Node `holder` starts / stops holding one more message that `needy` still needs.
  void add_supply(NodeId needy, NodeId holder);
  void remove_supply(NodeId needy, NodeId holder);

  const Problem& problem_;
  Placement placement_;
  std::vector<TaskList> tasks_;
  std::vector<std::optional<std::size_t>> last_send_;  // index of each node's last send
  std::vector<std::vector<NodeId>> holders_;
  std::vector<std::vector<NodeId>> pending_receivers_;
  std::vector<std::vector<MulticastId>> pending_multicasts_;
  std::size_t remaining_ = 0;
  std::vector<std::uint32_t> supplies_;         // [i * N + j]: messages of SR_i node j holds
  std::vector<std::uint32_t> holder_position_;  // [j * M + k]: position of j in A_k
  std::vector<Transfer> selection_order_;
};

}  // namespace baton::schedule::multicast
