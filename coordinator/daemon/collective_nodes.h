// What a collective job needs of its nodes' agents (docs/collectives.md, "From the model to
// the nodes"): each registered, with a rate, and for a reduce or all-reduce a measured
// combine speed for the job's dtype and op; and no two nodes sharing a data root where one
// would write a file the other reads or writes. From them, the papers' parameters.
#pragma once

#include "coordinator/daemon/agent_directory.h"
#include "coordinator/jobs/collective_job.h"
#include "coordinator/jobs/collective_model.h"

#include <string>

namespace baton::coordinator {

// "" when the job can be planned on these agents, else one line naming the node and what it
// lacks (never registered, no rate, no combine speed for the job's dtype and op), or the
// algorithm limit the job's nodes exceed (jobs::tree_algorithm_problem).
std::string collective_nodes_problem(const jobs::CollectiveJob& job, const AgentDirectory& agents);

// "" unless two nodes of the job share their objects (the same storage id) and one writes a
// file the other reads or writes; then one line naming both nodes and the file.
std::string shared_storage_conflict(const jobs::CollectiveJob& job, const AgentDirectory& agents);

// REQUIRES: collective_nodes_problem(job, agents) is "". β in seconds.
jobs::CollectiveModel collective_model(const jobs::CollectiveJob& job, const AgentDirectory& agents, double beta);

}  // namespace baton::coordinator
