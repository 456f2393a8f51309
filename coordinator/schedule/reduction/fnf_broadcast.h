// Fastest-node-first broadcast (Banikazemi et al.; Liu 2002, a 2-approximation from any
// source; Khuller and Kim 2004, 1.5 from the fastest node), the second half of the
// all-reduction of the SNF paper, Theorem 3.
//
// Uninformed nodes are served fastest first (ties: lower index). Each is sent to by the
// informed node that can finish the transfer earliest: ready time + its t (ties: lower
// index). A node is ready when it has received and after each of its sends.
#pragma once

#include "coordinator/schedule/reduction/schedule.h"

#include <cstddef>
#include <span>

namespace baton::schedule::reduction {

// The root holds the message at `start`; every other node receives it once.
Schedule fnf_broadcast(std::span<const double> times, std::size_t root, double start);

}  // namespace baton::schedule::reduction
