#include "coordinator/schedule/multicast/receiver_first.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace baton::schedule::multicast {

Schedule schedule_receivers_first(const Problem& problem, Placement placement, ReceiverRule& rule) {
  PartialSchedule partial(problem, placement);
  while (partial.remaining_deliveries() > 0) {
    const NodeId receiver = rule.choose(partial);
    const Transfer transfer = earliest_completing_delivery(partial, receiver);
    partial.commit(transfer);
    rule.committed(partial, transfer);
  }
  return std::move(partial).take();
}

namespace {

// The best delivery found so far, compared by (completion time, position of the message
// in SR_i, position of the sender in A_k): the tie rule of earliest_completing_delivery.
class BestDelivery {
 public:
  BestDelivery(const PartialSchedule& partial, NodeId receiver) : partial_(partial), receiver_(receiver) {}

  void consider(NodeId sender, MulticastId k, std::size_t message_rank) {
    const double time = partial_.completion_time(sender, receiver_, k);
    const std::tuple key{time, message_rank, partial_.holder_position(sender, k)};
    if (!found_ || key < best_) {
      found_ = true;
      best_ = key;
      transfer_ = Transfer{sender, receiver_, k};
    }
  }
  const Transfer& transfer() const { return transfer_; }

 private:
  const PartialSchedule& partial_;
  NodeId receiver_;
  bool found_ = false;
  std::tuple<double, std::size_t, std::uint32_t> best_{0.0, 0, 0};
  Transfer transfer_;
};

// Every (k, sender) pair: needed when a send's start depends on the message.
Transfer scan_every_pair(const PartialSchedule& partial, NodeId receiver) {
  BestDelivery best(partial, receiver);
  const std::vector<MulticastId>& needed = partial.pending_multicasts(receiver);
  for (std::size_t rank = 0; rank < needed.size(); ++rank) {
    for (NodeId sender : partial.holders(needed[rank])) best.consider(sender, needed[rank], rank);
  }
  return best.transfer();
}

// Section 4.3's marking: each supplier is evaluated once, at the first message of SR_i it
// holds. Per message the scan walks A_k or the still-unmarked suppliers, whichever is
// shorter, so an iteration costs about N log N instead of Σ_{k ∈ SR_i} |A_k|.
Transfer scan_with_marking(const PartialSchedule& partial, NodeId receiver) {
  const std::size_t n = partial.problem().node_count();
  BestDelivery best(partial, receiver);
  std::vector<NodeId> unmarked;  // may hold nodes marked since it was last compacted
  for (NodeId j = 0; j < n; ++j) {
    if (partial.supplies(receiver, j)) unmarked.push_back(j);
  }
  std::size_t left = unmarked.size();
  std::vector<bool> marked(n, false);
  const std::vector<MulticastId>& needed = partial.pending_multicasts(receiver);
  for (std::size_t rank = 0; rank < needed.size() && left > 0; ++rank) {
    const MulticastId k = needed[rank];
    const auto evaluate = [&](NodeId sender) {
      marked[sender] = true;
      --left;
      best.consider(sender, k, rank);
    };
    if (partial.holders(k).size() <= left) {
      for (NodeId sender : partial.holders(k)) {
        if (!marked[sender]) evaluate(sender);
      }
      continue;
    }
    std::size_t kept = 0;
    for (NodeId sender : unmarked) {
      if (marked[sender]) continue;
      if (partial.holder_position(sender, k) != PartialSchedule::kNotHolder) {
        evaluate(sender);
      } else {
        unmarked[kept++] = sender;
      }
    }
    unmarked.resize(kept);
  }
  return best.transfer();
}

}  // namespace

Transfer earliest_completing_delivery(const PartialSchedule& partial, NodeId receiver) {
  return partial.send_time_depends_on_message() ? scan_every_pair(partial, receiver)
                                                : scan_with_marking(partial, receiver);
}

FastestReceiverOrder::FastestReceiverOrder(const Problem& problem) : rank_(problem.node_count()) {
  double mean_length = 0;
  for (const Multicast& m : problem.multicasts) mean_length += static_cast<double>(m.bytes);
  if (!problem.multicasts.empty()) mean_length /= static_cast<double>(problem.multicasts.size());
  std::vector<NodeId> order(problem.node_count());
  std::iota(order.begin(), order.end(), NodeId{0});
  const auto receive_time = [&](NodeId i) {
    return problem.nodes[i].recv_fixed + problem.nodes[i].recv_per_byte * mean_length;
  };
  std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) { return receive_time(a) < receive_time(b); });
  for (std::size_t r = 0; r < order.size(); ++r) rank_[order[r]] = r;
}

}  // namespace baton::schedule::multicast
