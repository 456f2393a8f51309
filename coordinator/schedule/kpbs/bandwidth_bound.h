// What the links allow a redistribution, whatever its schedule (docs/redistribution.md,
// "Nodes of their own rates"): every sender pushes its bytes through its own link, every
// receiver takes its bytes through its own, and all the bytes cross the backbone:
//   T* = max(max_i out_i / s_i, max_j in_j / r_j, total / D).
// No schedule finishes sooner, start-ups left out. It is the collectives' bound
// (coordinator/collectives/bandwidth_bound.h) for a redistribution.
#pragma once

#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/problem.h"

namespace baton::schedule::kpbs {

// T* of moving `bytes` (senders x receivers) on `rates` (one rate per sender and receiver).
double bandwidth_bound(const Matrix& bytes, const NodeRates& rates);

}  // namespace baton::schedule::kpbs
