// Splits a compiled plan into the per-agent Plans the coordinator sends before step 0
// (docs/runtime.md, "Control sessions" 4 and "The data plane").
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/jobs/plan_compiler.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace baton::coordinator {

// Who the job is, as the agents see it.
struct AgentJob {
  std::string id;                 // Plan.job
  std::uint64_t number = 0;       // Plan.job_number: the job in transport frames
  bool unpaced = false;           // all-at-once baseline: every flow's rate is 0
};

// One Plan per node of both clusters (keyed by node id), each with every step of the
// plan and only that node's flows in it. A receiver's incoming chunks of a step are laid
// end to end in sender order, then chunk order; that position is the chunk's
// stream_offset in both the sender's and the receiver's copy. `addresses` maps node id
// to data address; throws std::invalid_argument naming a node of the clusters without
// one, or if a receiver's stream in a step overflows 2^64.
std::map<std::string, protocol::Plan> build_agent_plans(const CompiledPlan& plan, const Clusters& clusters,
                                                        const std::vector<TransferSpec>& transfers,
                                                        const std::map<std::string, std::string>& addresses,
                                                        const AgentJob& job);

}  // namespace baton::coordinator
