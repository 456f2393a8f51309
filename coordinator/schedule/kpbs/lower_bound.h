// The lower bound η of Proposition 1 (kpbs paper, Section 5).
#pragma once

#include "coordinator/schedule/kpbs/problem.h"

namespace baton::schedule::kpbs {

struct LowerBound {
  double eta_d = 0;  // useful transmission time: max(W(G), P(G)/k)
  long eta_s = 0;    // number of steps: max(Δ(G), ⌈m(G)/k⌉)
  double eta = 0;    // η_d + β·η_s
};

// Decision: η_d uses P(G)/k as Proposition 1 prints it, not ⌈P(G)/k⌉ as the short paper
// (Section 1.3) does. With rational weights the ceiling is not a lower bound: two disjoint
// edges of time 0.5 with k = 2 and β = 1 are sent in one step of cost 1.5, below
// max(0.5, ⌈0.5⌉) + 1 = 2. (tests/schedule/kpbs/lower_bound_test.cpp checks it.)
LowerBound lower_bound(const Problem& problem);

}  // namespace baton::schedule::kpbs
