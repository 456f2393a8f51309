// GGP, Generic Graph Peeling (kpbs paper, Section 6.1, Fig. 5): an 8/3-approximation of
// KPBS (Theorem 2) in O(√n (m + n)²) (Proposition 3).
#pragma once

#include "coordinator/schedule/kpbs/peeling.h"
#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

namespace baton::schedule::kpbs {

Schedule ggp(const Problem& problem, const PeelOptions& options = {});

}  // namespace baton::schedule::kpbs
