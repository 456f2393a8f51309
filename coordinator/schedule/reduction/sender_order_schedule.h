// The complete schedule of a sender order: EP (Fig. 2) for the start times, then Lemma 1
// for the receivers.
#pragma once

#include "coordinator/schedule/reduction/problem.h"
#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <span>

namespace baton::schedule::reduction {

// `order` must hold every node but the destination exactly once (error::InvalidInput
// otherwise).
Schedule schedule_sender_order(const Problem& problem, std::span<const std::size_t> order);

}  // namespace baton::schedule::reduction
