// One probe step of a calibration as the driver runs it: a one-step job of its own whose
// transfers read the agents' pseudo-random source and write their discarding sink
// (agent/probe_storage.h), unpaced, over the nodes of its flows only.
#pragma once

#include "coordinator/calibration/prober.h"
#include "coordinator/jobs/job.h"
#include "coordinator/jobs/plan_compiler.h"

#include <string>
#include <vector>

namespace baton::calibration {

inline constexpr const char* kProbeSource = "probe:random";
inline constexpr const char* kProbeSink = "probe:discard";

struct ProbeJob {
  jobs::Clusters clusters;  // the step's senders and receivers, in the step's order
  std::vector<jobs::TransferSpec> transfers;
  jobs::CompiledPlan plan;  // one step, every flow unpaced
};

// `senders` and `receivers` are the calibration's groups the step's indices point into.
ProbeJob probe_job(const ProbeStep& step, const std::vector<std::string>& senders,
                   const std::vector<std::string>& receivers);

}  // namespace baton::calibration
