#include "coordinator/daemon/collective_nodes.h"

#include "coordinator/jobs/collective_compiler.h"

namespace baton::coordinator {

std::string collective_nodes_problem(const jobs::CollectiveJob& job, const AgentDirectory& agents) {
  std::string unknown;
  for (const std::string& node : job.nodes) {
    if (!agents.find(node)) unknown += (unknown.empty() ? "" : ", ") + node;
  }
  if (!unknown.empty()) return "unknown nodes (no agent ever registered as): " + unknown;
  for (const std::string& node : job.nodes) {
    const AgentInfo info = *agents.find(node);
    if (!(info.rate > 0)) {
      return "node " + node + " registered no rate (its agent's `rate` is 0): a " + std::string(jobs::name(job.kind)) +
             " is planned on every node's rate";
    }
    if (jobs::combines(job.kind) && !info.combine_speeds.contains({job.data.dtype, job.op})) {
      return "node " + node + " reported no combine speed for " + std::string(jobs::name(job.data.dtype)) + " " +
             std::string(jobs::name(job.op)) + " (an agent that predates collectives?)";
    }
  }
  return jobs::tree_algorithm_problem(job, collective_model(job, agents, 0));
}

std::string shared_storage_conflict(const jobs::CollectiveJob& job, const AgentDirectory& agents) {
  const std::vector<jobs::FileUse> uses = jobs::file_uses(job);
  for (const jobs::FileUse& a : uses) {
    if (!a.writes) continue;
    for (const jobs::FileUse& b : uses) {
      if (b.node == a.node || b.file != a.file) continue;
      const auto sa = agents.find(a.node), sb = agents.find(b.node);
      if (!sa || !sb || sa->storage_id.empty() || sa->storage_id != sb->storage_id) continue;
      return "nodes " + a.node + " and " + b.node + " share their data root (" + sa->storage_id + "): " + a.node +
             " would write " + a.file + ", which " + b.node + (b.writes ? " writes too" : " reads");
    }
  }
  return "";
}

jobs::CollectiveModel collective_model(const jobs::CollectiveJob& job, const AgentDirectory& agents, double beta) {
  jobs::CollectiveModel model{.beta = beta, .nodes = {}};
  for (const std::string& node : job.nodes) {
    const AgentInfo info = *agents.find(node);
    const auto speed = info.combine_speeds.find({job.data.dtype, job.op});
    model.nodes[node] = {info.rate, speed == info.combine_speeds.end() ? 0 : speed->second};
  }
  return model;
}

}  // namespace baton::coordinator
