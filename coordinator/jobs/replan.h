// Re-planning a running job (docs/calibration.md, "Drift"): the steps already done stay as
// they ran, and the traffic they left — to the byte — is planned anew on another platform
// with the job's algorithm. Bytes already moved are never moved again, and the spliced
// plan is checked to move every byte of every transfer exactly once before anyone runs it.
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/jobs/plan_compiler.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/platform.h"
#include "error/refusal.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace baton::jobs {

// What the first `done` steps of a plan leave: for each transfer, the byte ranges no chunk
// of those steps moved, each as a transfer of its own (the same nodes and files, offsets
// moved on), in the order of the job's transfers and, within one, of their offsets.
struct RemainingTraffic {
  std::vector<TransferSpec> transfers;
  std::vector<std::size_t> origin;  // origin[i]: the job's transfer that transfers[i] is part of
};

// Throws error::InvalidInput if `done` is past the plan's steps.
RemainingTraffic remaining_traffic(const CompiledPlan& plan, std::size_t done,
                                   const std::vector<TransferSpec>& transfers);

// The job's plan with its steps from `done` on planned anew: steps [0, done) of `plan` as
// they were, then `algorithm`'s plan of the remaining traffic on `platform`, its chunks
// naming the job's transfers. k, d and β are the new plan's; predicted_seconds adds up
// every step; lower_bound_seconds is the done steps' predicted time plus η of the rest.
// Throws error::InvalidInput when nothing remains, error::Bug when the result
// fails check_moves_every_byte_once.
CompiledPlan replan(const CompiledPlan& plan, std::size_t done, const Clusters& clusters,
                    const std::vector<TransferSpec>& transfers, const schedule::kpbs::Platform& platform,
                    schedule::kpbs::Algorithm algorithm);

// Nothing when the plan's chunks move every byte of every transfer exactly once, each
// between the nodes and at the offsets its transfer names; else the first problem, naming
// the transfer.
std::optional<error::Refusal> check_moves_every_byte_once(const CompiledPlan& plan, const Clusters& clusters,
                                                          const std::vector<TransferSpec>& transfers);

}  // namespace baton::jobs
