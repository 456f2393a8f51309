// What a collective job needs of its nodes' agents (docs/collectives.md, "From the model to
// the nodes"): each registered, with a rate, and for a reduce or all-reduce a measured
// combine speed for the job's dtype and op; and no file written that the job also reads or
// writes under another name or on another node. From them, the papers' parameters.
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/collectives/collective_model.h"
#include "coordinator/daemon/agent_directory.h"
#include "error/refusal.h"

#include <optional>
#include <string>

namespace baton::coordinator {

// Nothing when the job can be planned on these agents, else one line naming the node and what it
// lacks (never registered, no rate, no combine speed for the job's dtype and op), or the
// algorithm limit the job's nodes exceed (collectives::tree_algorithm_problem).
std::optional<error::Refusal> collective_nodes_problem(const collectives::CollectiveJob& job,
                                                       const AgentDirectory& agents);

// Nothing unless the job writes a file that it also reads or writes under another name or on
// another node: by the identities its agents answered (`learnt`), else by the storage ids
// they registered and the names (collectives::aliased_files); then one line naming both nodes
// and both names.
std::optional<error::Refusal> shared_storage_conflict(const collectives::CollectiveJob& job,
                                                      const AgentDirectory& agents,
                                                      const jobs::LearntIdentities& learnt = {});

// REQUIRES: collective_nodes_problem(job, agents) finds nothing. β in seconds.
collectives::CollectiveModel collective_model(const collectives::CollectiveJob& job, const AgentDirectory& agents,
                                              double beta);

}  // namespace baton::coordinator
