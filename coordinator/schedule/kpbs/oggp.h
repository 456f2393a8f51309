// OGGP, Optimized GGP (kpbs paper, Section 6.3): GGP whose every peeling step takes the
// perfect matching with the heaviest lightest edge (Fig. 9, Proposition 4), so steps are
// as long and as few as that choice allows. Inherits GGP's 8/3 ratio.
#pragma once

#include "coordinator/schedule/kpbs/peeling.h"
#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

namespace baton::schedule::kpbs {

// Decision: Fig. 9 line 2.4 says "a maximal matching in G'"; the loop stops when that
// matching is perfect, which only a maximum matching detects, so it is a maximum one.
Schedule oggp(const Problem& problem, const PeelOptions& options = {});

}  // namespace baton::schedule::kpbs
