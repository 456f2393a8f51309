// The job a handoff submits (docs/embedding.md, "How a handoff maps to the job API"): a
// redistribution from the `from` group to the `to` group whose transfers move the array's
// byte ranges between the regions named `name` on each node (as "transfer_runs"), on the
// platform below and each node's rate as its agent declared it.
#pragma once

#include "coupling/layout.h"

#include <map>
#include <string>

namespace baton::coupling {

struct HandoffPlatform {
  double rate = 1e9;  // bytes/s of this node, sending or receiving (its agent declares it)
  // bytes/s of the whole network; 0: no shared bottleneck (the larger of the smaller group's
  // summed rates and min(P, Q) flows of the fastest pair; rate × min(P, Q) on one rate)
  double backbone_rate = 0;
  double step_startup = 1e-3;  // β, seconds
  std::string algorithm;       // empty: the coordinator's default
};

// The job's JSON as POST /v1/jobs reads it. `declared`: each node's rate as its agent
// declared it (GET /v1/agents); when it names every node of both groups, the job's platform
// gives each node its own ("sender_rates", "receiver_rates"), else every node is at
// platform.rate. `keep_plan`: the agents keep the job's plan for exchanges (a persistent
// handoff's; "keep_plan" in the JSON). Throws Error(invalid_argument) when the layouts
// describe different arrays.
std::string handoff_job(const std::string& name, const Layout& from, const Layout& to, const HandoffPlatform& platform,
                        const std::map<std::string, double>& declared = {}, bool keep_plan = false);

}  // namespace baton::coupling
