// Compiled redistribution plans kept for jobs that ask for the same again: a coupled code
// hands the same layouts over every time step (docs/embedding.md, "What is reused"), and the
// same clusters, transfers, platform and algorithm always compile to the same plan, so the
// planner's work is done once. A few plans of bounded size are kept, the least recently used
// going first.
//
// Threading: the driver's planner thread only.
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/jobs/plan_compiler.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/platform.h"

#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <vector>

namespace baton::coordinator {

// Everything a redistribution's plan is compiled from.
struct PlanInputs {
  jobs::Clusters clusters;
  std::vector<jobs::TransferSpec> transfers;
  schedule::kpbs::Platform platform;
  schedule::kpbs::Algorithm algorithm = schedule::kpbs::kDefaultAlgorithm;
  bool operator==(const PlanInputs& other) const;
};

class PlanCache {
 public:
  // Plans kept, and the largest job kept: a job of 65 536 byte ranges (a 64 MiB handoff of
  // the coupled example has 34 752) holds a few MB of plan; larger ones are planned anew.
  static constexpr std::size_t kPlans = 4;
  static constexpr std::size_t kMaxTransfers = 65'536;

  struct Hit {
    jobs::CompiledPlan plan;
    std::uint64_t job = 0;  // the job it was compiled for
  };
  // The plan kept for `inputs`, and which job it was compiled for; nothing if none is.
  std::optional<Hit> find(const PlanInputs& inputs);
  // Keeps `plan`, compiled for job `job` from `inputs`, unless the job is too large.
  void keep(PlanInputs inputs, std::uint64_t job, const jobs::CompiledPlan& plan);

 private:
  struct Entry {
    PlanInputs inputs;
    std::uint64_t job = 0;
    jobs::CompiledPlan plan;
  };
  std::list<Entry> entries_;  // most recently used first
};

}  // namespace baton::coordinator
