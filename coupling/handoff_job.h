// The job a handoff submits (docs/embedding.md, "How a handoff maps to the job API"): a
// redistribution from the `from` group to the `to` group whose transfers move the array's
// byte ranges between the regions named `name` on each node (as "transfer_runs"), on the
// platform below.
#pragma once

#include "coupling/layout.h"

#include <string>

namespace baton::coupling {

struct HandoffPlatform {
  double rate = 1e9;           // bytes/s of one node, sending or receiving
  double backbone_rate = 0;    // bytes/s of the whole network; 0: rate × min(P, Q) (no shared bottleneck)
  double step_startup = 1e-3;  // β, seconds
  std::string algorithm;       // empty: the coordinator's default
};

// The job's JSON as POST /v1/jobs reads it. Throws Error(invalid_argument) when the
// layouts describe different arrays.
std::string handoff_job(const std::string& name, const Layout& from, const Layout& to, const HandoffPlatform& platform);

}  // namespace baton::coupling
