#include "coordinator/schedule/reduction/earliest_possible.h"

#include "error/error.h"

#include <algorithm>
#include <tuple>

namespace baton::schedule::reduction {

// A free processor is handed out slowest predecessor first (Corollary 1 wants every
// sender's predecessors to be at least as slow as the sender, so a sender gets the best
// the pool holds), then freed earliest, then lowest slot: deterministic.
bool EarliestPossible::picked_after(const FreeToken& a, const FreeToken& b) {
  return std::tie(a.predecessor_time, b.freed_at, b.slot) < std::tie(b.predecessor_time, a.freed_at, a.slot);
}

bool EarliestPossible::ends_after(const Completion& a, const Completion& b) {
  return std::tie(a.end, a.slot) > std::tie(b.end, b.slot);
}

EarliestPossible::EarliestPossible(std::span<const double> times, std::size_t node_count)
    : times_(times), node_count_(node_count), free_since_start_(node_count) {
  if (node_count == 0 || node_count > times.size()) {
    throw error::InvalidInput("earliest_possible: node count out of range");
  }
  slots_.reserve(node_count - 1);
}

void EarliestPossible::complete_next() {
  if (active_.empty()) throw error::Bug("earliest_possible: no transfer to wait for");
  time_ = active_.front().end;
  while (!active_.empty() && active_.front().end == time_) {
    std::pop_heap(active_.begin(), active_.end(), ends_after);
    const Completion done = active_.back();
    active_.pop_back();
    freed_.push_back({done.slot, times_[slots_[done.slot].sender], done.end});
    std::push_heap(freed_.begin(), freed_.end(), picked_after);
  }
}

std::optional<std::size_t> EarliestPossible::take_free_processor() {
  // A processor free since time 0 has no predecessor: the slowest possible one.
  if (free_since_start_ > 0) {
    --free_since_start_;
    return std::nullopt;
  }
  std::pop_heap(freed_.begin(), freed_.end(), picked_after);
  const std::size_t slot = freed_.back().slot;
  freed_.pop_back();
  return slot;
}

const EpSlot& EarliestPossible::add(std::size_t sender) {
  if (slots_.size() + 1 >= node_count_) {
    throw error::Bug("earliest_possible: more than n - 1 senders");
  }
  if (sender >= times_.size()) throw error::InvalidInput("earliest_possible: no such node");
  // Fig. 2, "while (free >= 2)": a transfer needs a free sender and a free receiver.
  while (free_since_start_ + freed_.size() < 2) complete_next();
  EpSlot slot{.sender = sender, .start = time_, .end = time_ + times_[sender], .predecessors = {}};
  const std::optional<std::size_t> first = take_free_processor();
  const std::optional<std::size_t> second = take_free_processor();
  slot.predecessors = first ? std::array{first, second} : std::array{second, first};
  slots_.push_back(slot);
  active_.push_back({slot.end, slots_.size() - 1});
  std::push_heap(active_.begin(), active_.end(), ends_after);
  latest_end_ = std::max(latest_end_, slot.end);
  return slots_.back();
}

std::vector<EpSlot> earliest_possible(std::span<const double> times, std::span<const std::size_t> order) {
  EarliestPossible ep(times, order.size() + 1);
  for (std::size_t sender : order) ep.add(sender);
  return ep.slots();
}

}  // namespace baton::schedule::reduction
