// The plans a running job's agents hold (docs/runtime.md, "Control sessions" 4): one per
// node, built from the compiled plan and the nodes' data addresses, with an in-place job's
// destinations staged (coordinator/jobs/staging.h); built again when an agent comes back
// listening elsewhere.
#pragma once

#include "coordinator/daemon/tracked_job.h"
#include "protocol/baton.pb.h"

#include <map>
#include <string>
#include <vector>

namespace baton::coordinator {

class JobPlans {
 public:
  using NodeMap = std::map<std::string, std::string>;

  // REQUIRES: job.spec and job.plan; `storages` and `addresses` name every node of the job.
  // Throws what build_agent_plans and staged_destinations throw.
  JobPlans(const TrackedJob& job, NodeMap storages, NodeMap addresses);

  // Builds the plans again when `addresses` differ from the ones they name; true if so.
  bool follow(NodeMap addresses);
  // Builds the plans again from the job's plan, which changed (a re-plan on drift).
  void rebuild() { build(); }

  const std::map<std::string, protocol::Plan>& by_node() const { return plans_; }
  // Every node with a plan (both clusters, each once).
  std::vector<std::string> nodes() const;

 private:
  void build();

  const TrackedJob& job_;
  NodeMap storages_;
  NodeMap addresses_;
  std::string staging_tag_;
  std::map<std::string, protocol::Plan> plans_;
};

}  // namespace baton::coordinator
