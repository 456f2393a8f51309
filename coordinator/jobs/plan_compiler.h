// The plan compiler (docs/runtime.md): sums a job's transfers into the traffic matrix,
// schedules it, and cuts every step's amounts into byte ranges of the job's files —
// preemption becomes splitting a range across steps.
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/schedule/redistribution/algorithms.h"
#include "coordinator/schedule/redistribution/platform.h"

#include <cstdint>
#include <string>
#include <vector>

namespace baton::coordinator {

// A piece of one transfer of the job, moved in one step.
struct Chunk {
  std::size_t transfer = 0;  // index in the job's transfers
  std::uint64_t src_offset = 0;
  std::uint64_t dst_offset = 0;
  std::uint64_t length = 0;
};

// Everything one sender sends one receiver in one step, in order.
struct Flow {
  std::size_t sender = 0;    // index in Clusters::senders
  std::size_t receiver = 0;  // index in Clusters::receivers
  std::uint64_t bytes = 0;
  std::vector<Chunk> chunks;
};

struct StepPlan {
  std::vector<Flow> flows;
  double predicted_seconds = 0;  // β + longest flow / d (all-at-once: fluid sharing, plan_compiler.cpp)
};

struct CompiledPlan {
  std::string algorithm;
  int k = 0;
  double flow_rate = 0;            // d, bytes/s: the pace of every flow
  double step_startup = 0;         // β, s
  std::vector<StepPlan> steps;
  double predicted_seconds = 0;    // Σ over the steps: the model's time
  double lower_bound_seconds = 0;  // η
};

// Throws std::invalid_argument for a bad job (see check_transfers) and std::logic_error
// if the schedule fails validation.
CompiledPlan compile_plan(const Clusters& clusters, const std::vector<TransferSpec>& transfers,
                          const schedule::kpbs::Platform& platform, schedule::kpbs::Algorithm algorithm);

}  // namespace baton::coordinator
