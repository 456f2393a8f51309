#include "coordinator/schedule/multicast/partial_schedule.h"

#include "coordinator/schedule/multicast/preemptive_slot.h"

#include <algorithm>

namespace baton::schedule::multicast {
namespace {

void erase_value(std::vector<std::size_t>& values, std::size_t value) {
  values.erase(std::find(values.begin(), values.end(), value));
}

}  // namespace

PartialSchedule::PartialSchedule(const Problem& problem, Placement placement)
    : problem_(problem), placement_(placement), tasks_(problem.node_count()), last_send_(problem.node_count()),
      holders_(problem.multicasts.size()), pending_receivers_(problem.multicasts.size()),
      pending_multicasts_(problem.node_count()), supplies_(problem.node_count() * problem.node_count(), 0),
      holder_position_(problem.node_count() * problem.multicasts.size(), kNotHolder) {
  for (MulticastId k = 0; k < problem.multicasts.size(); ++k) {
    const Multicast& m = problem.multicasts[k];
    holders_[k].push_back(m.source);
    holder_position_[m.source * problem.multicasts.size() + k] = 0;
    pending_receivers_[k] = m.destinations;
    std::sort(pending_receivers_[k].begin(), pending_receivers_[k].end());
    for (NodeId d : m.destinations) {
      pending_multicasts_[d].push_back(k);
      add_supply(d, m.source);
    }
    remaining_ += m.destinations.size();
  }
  for (auto& sources : pending_multicasts_) {
    std::stable_sort(sources.begin(), sources.end(), [&](MulticastId a, MulticastId b) {
      return problem.multicasts[a].bytes < problem.multicasts[b].bytes;
    });
  }
}

double PartialSchedule::receive_available(NodeId receiver) const {
  return tasks_[receiver].empty() ? 0.0 : tasks_[receiver].back().end;
}

std::size_t PartialSchedule::preemption_target(NodeId sender, MulticastId k) const {
  const TaskList& list = tasks_[sender];
  const std::size_t last_send = last_send_[sender] ? *last_send_[sender] : kListHead;
  if (sender != problem_.multicasts[k].source) {
    // Rule 2: the receive of m_k, if it comes after the last send (else rule 1 decides).
    for (std::size_t t = last_send == kListHead ? 0 : last_send + 1; t < list.size(); ++t) {
      if (list[t].op == Op::recv && list[t].multicast == k) return t;
    }
  }
  return last_send;
}

double PartialSchedule::send_available(NodeId sender, MulticastId k) const {
  if (placement_ == Placement::append) return receive_available(sender);
  return preemptive_send_slot(tasks_[sender], preemption_target(sender, k), send_overhead(problem_, sender, k)).start;
}

double PartialSchedule::completion_time(double send_start, NodeId sender, NodeId receiver, MulticastId k) const {
  // Equation 5: ArrivalTime = Avail_i + S(i, l_k) + X(i, j)·l_k.
  const double arrival = send_start + send_overhead(problem_, sender, k) + link_time(problem_, sender, receiver, k);
  // Equation 6: CompleteTime = max(ArrivalTime, Avail_j) + R(j, l_k).
  return std::max(arrival, receive_available(receiver)) + recv_overhead(problem_, receiver, k);
}

double PartialSchedule::commit(const Transfer& transfer) {
  const auto [sender, receiver, k] = transfer;
  const double send_cost = send_overhead(problem_, sender, k);
  TaskList& sends = tasks_[sender];
  SendSlot slot{sends.size(), receive_available(sender)};
  if (placement_ == Placement::preemptive) {
    slot = preemptive_send_slot(sends, preemption_target(sender, k), send_cost);
  }
  // UpdateSenderState (Figure 13), or a plain append when slot.position == size.
  const double send_end = slot.start + send_cost;
  sends.insert(sends.begin() + static_cast<std::ptrdiff_t>(slot.position),
               Task{Op::send, receiver, k, slot.start, send_end});
  last_send_[sender] = slot.position;

  // UpdateReceiverState (Figure 14): append the receive with its completion time.
  const double arrival = send_end + link_time(problem_, sender, receiver, k);
  const double start = std::max(arrival, receive_available(receiver));
  const double end = start + recv_overhead(problem_, receiver, k);
  tasks_[receiver].push_back(Task{Op::recv, sender, k, start, end});

  // m_k leaves SR_receiver; the receiver joins A_k and now supplies B_k.
  for (NodeId holder : holders_[k]) remove_supply(receiver, holder);
  holder_position_[receiver * problem_.multicasts.size() + k] = static_cast<std::uint32_t>(holders_[k].size());
  holders_[k].push_back(receiver);
  erase_value(pending_receivers_[k], receiver);
  erase_value(pending_multicasts_[receiver], k);
  for (NodeId needy : pending_receivers_[k]) add_supply(needy, receiver);
  --remaining_;
  selection_order_.push_back(transfer);
  return end;
}

void PartialSchedule::add_supply(NodeId needy, NodeId holder) { ++supplies_[needy * problem_.node_count() + holder]; }

void PartialSchedule::remove_supply(NodeId needy, NodeId holder) {
  --supplies_[needy * problem_.node_count() + holder];
}

Schedule PartialSchedule::take() && { return Schedule{std::move(tasks_), std::move(selection_order_)}; }

}  // namespace baton::schedule::multicast
