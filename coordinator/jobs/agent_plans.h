// Splits a compiled plan into the per-agent Plans the coordinator sends before step 0
// (docs/runtime.md, "Control sessions" 4 and "The data plane").
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/jobs/plan_compiler.h"
#include "error/error.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace baton::jobs {

// Who the job is, as the agents see it.
struct AgentJob {
  std::string id;            // Plan.job
  std::uint64_t number = 0;  // Plan.job_number: the job in transport frames
};

// A node's plan does not fit in one control frame (protocol::kDefaultMaxFrame): sent, it
// would be refused by the frame layer and the agent would never answer. The message names
// the node, the plan's size and the limit; the job fails with it.
class PlanTooLarge : public error::InvalidInput {
 public:
  using error::InvalidInput::InvalidInput;
};

// The largest Plan that fits in a control frame once wrapped in its Envelope and sealed.
std::size_t max_agent_plan_bytes();

// The most all the nodes' plans of one job may hold together, serialized (held in memory
// they take a few times more). docs/runtime.md, "Limits", says why this much.
inline constexpr std::size_t kMaxTotalPlanBytes = std::size_t{512} << 20;

// One Plan per node of both clusters (keyed by node id), each with every step of the
// plan and only that node's flows in it. A receiver's incoming chunks of a step are laid
// end to end in sender order, then chunk order; that position is the chunk's
// stream_offset in both the sender's and the receiver's copy. `addresses` maps node id
// to data address; throws error::InvalidInput naming a node of the clusters without
// one, or if a receiver's stream in a step overflows 2^64. Throws PlanTooLarge for a
// node's plan over max_agent_plan_bytes() or all of them over kMaxTotalPlanBytes (before
// building anything when the steps alone, which every node's plan lists, are too many).
std::map<std::string, protocol::Plan> build_agent_plans(const CompiledPlan& plan, const Clusters& clusters,
                                                        const std::vector<TransferSpec>& transfers,
                                                        const std::map<std::string, std::string>& addresses,
                                                        const AgentJob& job);

// A dataflow job's plans (CompiledPlan::agent_plans) ready to send: each with the job's id
// and number, and every send's peer_address. Throws error::InvalidInput naming a node
// without a data address, PlanTooLarge as build_agent_plans.
std::map<std::string, protocol::Plan> address_plans(const std::map<std::string, protocol::Plan>& plans,
                                                    const std::map<std::string, std::string>& addresses,
                                                    const AgentJob& job);

}  // namespace baton::jobs
