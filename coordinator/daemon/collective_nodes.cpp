#include "coordinator/daemon/collective_nodes.h"

#include "coordinator/collectives/collective_compiler.h"

#include <map>

namespace baton::coordinator {

std::optional<error::Refusal> collective_nodes_problem(const collectives::CollectiveJob& job,
                                                       const AgentDirectory& agents) {
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
      return "node " + node + " reported no combine speed for " + std::string(collectives::name(job.data.dtype)) + " " +
             std::string(collectives::name(job.op)) + " (an agent that predates collectives?)";
    }
  }
  return collectives::tree_algorithm_problem(job, collective_model(job, agents, 0));
}

std::optional<error::Refusal> shared_storage_conflict(const collectives::CollectiveJob& job,
                                                      const AgentDirectory& agents,
                                                      const jobs::LearntIdentities& learnt) {
  std::map<std::string, std::string> storage_of;
  for (const std::string& node : job.nodes) {
    if (const auto info = agents.find(node)) storage_of[node] = info->storage_id;
  }
  return collectives::aliased_files(job, jobs::FileIdentities(learnt, std::move(storage_of)));
}

collectives::CollectiveModel collective_model(const collectives::CollectiveJob& job, const AgentDirectory& agents,
                                              double beta) {
  collectives::CollectiveModel model{.beta = beta, .nodes = {}};
  for (const std::string& node : job.nodes) {
    const AgentInfo info = *agents.find(node);
    const auto speed = info.combine_speeds.find({job.data.dtype, job.op});
    model.nodes[node] = {info.rate, speed == info.combine_speeds.end() ? 0 : speed->second};
  }
  return model;
}

}  // namespace baton::coordinator
