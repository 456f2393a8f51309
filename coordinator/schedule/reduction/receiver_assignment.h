// Receivers for an earliest-possible schedule (the SNF paper, Lemma 1).
//
// Each EP transfer used two free processors, freed by up to two earlier transfers: its
// predecessors. These links form a binary tree rooted at the transfer that ends last.
// Top-down: the last transfer goes to the destination; a transfer s -> r hands s and r to
// its two predecessors as their receivers. Both predecessors end before s starts, so no
// two overlapping transfers share a processor (Lemma 1).
//
// The paper leaves open which predecessor gets s and which r ("we can assign s and r to
// either"). We give the sender s to the first-listed predecessor (the slower one,
// earliest_possible.h), r to the other; a lone predecessor sends to s.
#pragma once

#include "coordinator/schedule/reduction/earliest_possible.h"
#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <span>

namespace baton::schedule::reduction {

// `slots` is a complete EP schedule (n - 1 senders, as earliest_possible() returns).
Schedule assign_receivers(std::span<const EpSlot> slots, std::size_t destination);

}  // namespace baton::schedule::reduction
