// The earliest-reach-first lower bound of Section 3.2.
//
// In an idealized model a node may receive and, at the same time, send any number of
// messages in parallel. Then m_k reaches destination P_i no earlier than L[k, i], the
// shortest path from the source to P_i through nodes that may relay m_k (its source and
// destinations, Section 3.1), a hop u -> v costing S(u, l_k) + X(u, v)·l_k + R(v, l_k).
// P_i's receives cannot overlap, so with n_i messages (Equation 4)
//   T_r(i, 1) = L[I(1), i],  T_r(i, k) = max{T_r(i, k-1) + R(i, l_k), L[I(k), i]}
// and the bound is max_i T_r(i, n_i).
//
// Decision: the paper orders P_i's messages by L (earliest reach first). That order is
// optimal only when P_i's messages have the same R(i, l): with different lengths it can
// exceed the optimum (m_a: L = 10, R = 9 and m_b: L = 5, R = 1 give 14 in L order while
// receiving m_a at [1, 10] then m_b at [10, 11] ends at 11), so it would not be a lower
// bound. We order by the earliest start of the receive, L - R(i, l_k) (earliest release
// first, optimal for one machine with release times), which is the paper's order whenever
// the lengths are equal and a true lower bound always.
#pragma once

#include "coordinator/schedule/multicast/problem.h"

#include <vector>

namespace baton::schedule::multicast {

// L[k, i] for every node i: the earliest-reach time of m_k (0 at the source, +infinity
// where no relay path exists, i.e. outside {source} ∪ D_k).
std::vector<double> earliest_reach_times(const Problem& problem, MulticastId k);

// max_i T_r(i, n_i) (Equation 4 with the order above); 0 when nothing is delivered.
double earliest_reach_lower_bound(const Problem& problem);

}  // namespace baton::schedule::multicast
