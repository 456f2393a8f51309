// Fastest-Edge-First (FEF), Section 4.1, extended to multiple multicast.
#pragma once

#include "coordinator/schedule/multicast/problem.h"
#include "coordinator/schedule/multicast/schedule.h"

namespace baton::schedule::multicast {

// Repeatedly picks the (i, j, k) with P_i ∈ A_k, P_j ∈ B_k of least Weight(i, j, k) =
// S(i, l_k) + X(i, j)·l_k + R(j, l_k) (Equation 7) and appends its send and receive.
// Candidates live in one heap filled as senders join A_k: O(N³ log N) for all-to-all.
// Ties: least weight, then lowest receiver, sender and multicast index (this order gives
// the paper's Figure 4(a) sequence). FEF has no preemptive variant in the paper.
Schedule fastest_edge_first(const Problem& problem);

}  // namespace baton::schedule::multicast
