// Earliest-Completion-First (ECF), Section 4.2, and its preemptive form ECFP (Section 5).
#pragma once

#include "coordinator/schedule/multicast/partial_schedule.h"
#include "coordinator/schedule/multicast/problem.h"
#include "coordinator/schedule/multicast/schedule.h"

namespace baton::schedule::multicast {

// Repeatedly picks, over all multicasts, the (i, j, k) with P_i ∈ A_k, P_j ∈ B_k whose
// receive completes earliest (CompleteTime, Equation 6, with the placement's available
// times) and commits it. Every iteration evaluates every candidate: O(N² · Σ_k |A_k||B_k|)
// overall, N⁵ for all-to-all. Ties: earliest completion, then lowest receiver, sender and
// multicast index (this order gives the paper's Figure 4(b) and 5(a) sequences).
Schedule earliest_completion_first(const Problem& problem, Placement placement);

}  // namespace baton::schedule::multicast
