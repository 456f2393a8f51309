// In-place jobs (docs/runtime.md, "In-place jobs"): a destination file that the same job
// also reads, under any name or on any node sharing its storage, is written to a staging
// file beside it and replaces it only when the job ends, so no byte is overwritten before
// it is read. Jobs that read no destination are planned as before.
#pragma once

#include "coordinator/jobs/file_identities.h"
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

// The destinations `transfers` must stage: each (node, file) written by the job that is
// one file (files.key) with a file the job reads: on the node itself under this or another
// name, or on another agent sharing its data root. Throws error::InvalidInput with the
// reason, naming the nodes and names, when the job cannot be made safe: a staged file lives
// in an embedded agent's memory ("memory:" storage); one staged file is written under two
// names or by two nodes (each staging file would be completed with the file's old bytes
// and the last rename would win); or two transfers write the same bytes of one file under
// two names or from two nodes sharing it (which lands last would decide).
std::set<NodeFile> staged_destinations(const std::vector<TransferSpec>& transfers, const FileIdentities& files);

// The staging file of `file` for the job tagged `tag`: ".<name>.baton-<tag>" beside it.
std::string staging_name(const std::string& file, const std::string& tag);

// Points every chunk each plan writes into a staged file at its staging file, and lists
// the staged files in the plans of the nodes that write them.
void stage_plans(std::map<std::string, protocol::Plan>& plans, const std::set<NodeFile>& staged,
                 const std::string& tag);

}  // namespace baton::jobs
