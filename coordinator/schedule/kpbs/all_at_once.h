// The unscheduled baseline: every transfer starts at once and the transport layer sorts
// out the congestion (the kpbs paper's "brute-force TCP" approach, Section 8.3). One step,
// ignoring k and the 1-port rule: printed for comparison, not a valid KPBS schedule.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"
#include "coordinator/schedule/kpbs/schedule.h"

namespace baton::schedule::kpbs {

Schedule all_at_once(const Problem& problem);

}  // namespace baton::schedule::kpbs
