// Procedure Ordered-Coloring (Section 3.1, Theorem 3.3): at most d·⌈d/l⌉ + l − 1 rounds,
// which is d²/l + l − 1 when l divides d (round_bound() in problem.h; the theorem's printed
// "+ l + 1" is a typo of its own sum).
#pragma once

#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/schedule.h"

namespace baton::schedule::buffered_multicast {

// Like Procedure Coloring, except that each processor's incoming edges get their values in
// ascending order of their label (the index of the bundle they come from), and group j is
// sent d rounds after group j − 1: color (i, j) goes in round (j − 1)·d + i. Because of the
// order, the edges of group j + 1 into a processor arrive at least d ≥ l rounds after the
// last edge of group j, when its buffer has drained (the proof of Theorem 3.3).
//
// Linear time: the sort by label is one stable counting sort of all edges over the labels
// 1..d (the paper's radix sort), O(E + d); the other steps are O(n + m + E).
// Ties between equal labels at a processor keep input order (the paper does not say; any
// order keeps the proof). Throws error::InvalidInput for a malformed problem (check()).
Schedule ordered_coloring(const Problem& problem);

}  // namespace baton::schedule::buffered_multicast
