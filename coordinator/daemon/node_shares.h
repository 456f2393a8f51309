// How running jobs that share nodes share each node's rate (docs/runtime.md, "Jobs that
// share nodes"): on every node, each job gets the node's declared rate, send side and
// receive side alike, in proportion to its weight among the jobs running there. A job is
// planned and paced at its smallest share over its nodes (its pace): a step's flows end
// together at the barrier, so a flow faster than the job's slowest node would only wait.
#pragma once

#include "coordinator/schedule/kpbs/platform.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace baton::coordinator {

struct SharingJob {
  std::uint64_t id = 0;
  double weight = 1;  // > 0
  std::vector<std::string> nodes;
};

struct JobShare {
  std::map<std::string, double> nodes;  // node → the job's share of its rate, in (0, 1]
  double pace = 1;                      // the smallest of them: what the job's rates are scaled by
};

// Each job's share of each of its nodes (a node listed twice counts once).
std::map<std::uint64_t, JobShare> node_shares(const std::vector<SharingJob>& running);

// `platform` with every node's rate, send side and receive side, times `factor` (the
// backbone's as it was: every running job shares it, as jobs on disjoint nodes do).
schedule::kpbs::Platform scaled_rates(schedule::kpbs::Platform platform, double factor);

}  // namespace baton::coordinator
