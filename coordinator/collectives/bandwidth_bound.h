// What the links allow a collective (docs/collectives.md, "What the links allow"): a lower
// bound on any schedule's time from the bytes each node must move through its own link at
// its rate, whatever the algorithm, with β and the combines left out. The report gives it
// beside the measured time, so that a user sees how far a run is from the links' limit.
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/collectives/collective_model.h"

namespace baton::collectives {

// reduce: every node but the root sends M and the root receives at least M: M / r_min.
// allreduce: that, and 2 (N − 1) M bytes cross the links of total rate Σ r (every node
// sends its data less what it keeps and receives the result less what it made):
//   max(M / r_min, 2 (N − 1) M / Σ r).
// multicast, buffered-multicast: each node receives every message it is a destination of
// and sends every message it is the source of, at least once: max over the nodes of
// max(received, sent) / r_p.
// REQUIRES: the job's message lengths are resolved and every node has a rate > 0.
double bandwidth_bound(const CollectiveJob& job, const CollectiveModel& model);

}  // namespace baton::collectives
