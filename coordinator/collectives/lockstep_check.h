// An independent check of a buffered multicast's compiled steps before they are sent,
// knowing only the job, the nodes' rates and the plan: every destination receives its
// message exactly once, whole, from the message's source; in every step a node sends at
// most one message and receives at most `buffers` (the paper's rules), and the flows of a
// node together stay within its rate.
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/collectives/collective_model.h"
#include "coordinator/jobs/plan_compiler.h"

#include <string>
#include <vector>

namespace baton::collectives {

// Empty when the plan is sound, else what is wrong (at most 20 lines).
std::vector<std::string> check_buffered_plan(const CollectiveJob& job, const CollectiveModel& model,
                                             const jobs::CompiledPlan& plan);

}  // namespace baton::collectives
