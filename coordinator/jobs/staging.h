// In-place jobs (docs/runtime.md, "In-place jobs"): a destination file that the same job
// also reads, on the same storage, is written to a staging file beside it and replaces it
// only when the job ends, so no byte is overwritten before it is read. Jobs that read no
// destination are planned as before.
#pragma once

#include "coordinator/jobs/job.h"
#include "protocol/baton.pb.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace baton::jobs {

// A destination file of one node: (node, file).
using NodeFile = std::pair<std::string, std::string>;

// The destinations `transfers` must stage: each (node, file) written by the job whose file
// the job also reads on the same storage, i.e. on a node with the same storage id (the
// node itself, or another agent sharing its data root). `storage_of` maps each node to
// its agent's storage id. Throws std::invalid_argument with the reason when a staged file
// cannot be made safe: it lives in an embedded agent's memory ("memory:" storage), or
// several nodes sharing one data root write the same file.
std::set<NodeFile> staged_destinations(const std::vector<TransferSpec>& transfers,
                                       const std::map<std::string, std::string>& storage_of);

// The staging file of `file` for the job tagged `tag`: ".<name>.baton-<tag>" beside it.
std::string staging_name(const std::string& file, const std::string& tag);

// Points every chunk each plan writes into a staged file at its staging file, and lists
// the staged files in the plans of the nodes that write them.
void stage_plans(std::map<std::string, protocol::Plan>& plans, const std::set<NodeFile>& staged,
                 const std::string& tag);

}  // namespace baton::jobs
