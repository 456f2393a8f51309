// Earliest-possible (EP) scheduling of a sender order (the SNF paper,
// Section 3, Fig. 2).
//
// EP starts the senders in the given order, each as soon as two processors are free (one
// to send, one to receive). At time 0 all n processors are free; a transfer takes two and
// gives back one when it ends (the receiver, which now holds the sender's data; the
// sender is done). EP only counts free processors; which processor receives is decided
// afterwards from the predecessor tree (Lemma 1, receiver_assignment.h).
//
// The class form lets a search extend a prefix one sender at a time and copy the state to
// branch (sequence_search.h); earliest_possible() runs a whole order.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace baton::schedule::reduction {

// One sender's transmission window.
struct EpSlot {
  std::size_t sender = 0;
  double start = 0;
  double end = 0;  // start + t(sender)
  // The slots (positions in the order) whose ends freed the two processors this transfer
  // uses: the paper's "predecessors" (Lemma 1). nullopt = a processor free since time 0.
  // Completed predecessors come first, the slower one (larger t) first.
  std::array<std::optional<std::size_t>, 2> predecessors;
};

class EarliestPossible {
 public:
  // `times` (t(p) for every node) must outlive this object; node_count = n >= 1.
  EarliestPossible(std::span<const double> times, std::size_t node_count);

  // Starts `sender` as the next processor of the order (the body of Fig. 2's outer loop):
  // time advances over completions until two processors are free. At most n - 1 senders.
  const EpSlot& add(std::size_t sender);

  const std::vector<EpSlot>& slots() const { return slots_; }
  // The latest end among the senders added so far (0 before any): the cost of the prefix.
  double latest_end() const { return latest_end_; }

 private:
  // A free processor. Which one is not known yet; what matters is where it came from.
  struct FreeToken {
    std::size_t slot = 0;         // the transfer whose end freed it (its receiver)
    double predecessor_time = 0;  // t of that transfer's sender
    double freed_at = 0;
  };
  struct Completion {
    double end = 0;
    std::size_t slot = 0;
  };

  // Heap orders (std heaps keep the "largest" element on top).
  static bool picked_after(const FreeToken& a, const FreeToken& b);
  static bool ends_after(const Completion& a, const Completion& b);

  // Fig. 2: "find the set of processors that has the smallest completion time in Active",
  // move them to Complete and free their receivers.
  void complete_next();
  std::optional<std::size_t> take_free_processor();

  std::span<const double> times_;
  std::size_t node_count_ = 0;
  double time_ = 0;
  std::size_t free_since_start_ = 0;  // processors free since time 0 (no predecessor)
  std::vector<FreeToken> freed_;      // heap: slowest predecessor first, then earliest
  std::vector<Completion> active_;    // heap: earliest end first
  std::vector<EpSlot> slots_;
  double latest_end_ = 0;
};

// EP over a whole order (n - 1 distinct senders, the destination excluded).
std::vector<EpSlot> earliest_possible(std::span<const double> times, std::span<const std::size_t> order);

}  // namespace baton::schedule::reduction
