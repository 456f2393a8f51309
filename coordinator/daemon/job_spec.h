// A job as submitted to the coordinator's API (docs/runtime.md, "A job"): the two
// clusters, the platform, the algorithm, and transfers or a pattern that expands to them.
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/schedule/redistribution/algorithms.h"
#include "coordinator/schedule/redistribution/platform.h"

#include <string>
#include <vector>

namespace baton::coordinator {

struct JobSpec {
  Clusters clusters;
  std::vector<TransferSpec> transfers;
  schedule::kpbs::Platform platform;
  schedule::kpbs::Algorithm algorithm = schedule::kpbs::kDefaultAlgorithm;
};

// Parses and checks a job's JSON. Throws cli::InputError (one line naming the field) for
// bad input, including transfers that fail check_transfers.
JobSpec parse_job_spec(const std::string& json);

}  // namespace baton::coordinator
