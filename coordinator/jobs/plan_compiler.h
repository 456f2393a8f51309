// The plan compiler (docs/runtime.md): sums a job's transfers into the traffic matrix,
// schedules it, and cuts every step's amounts into byte ranges of the job's files —
// preemption becomes splitting a range across steps.
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/platform.h"

#include <cstdint>
#include <string>
#include <vector>

namespace baton::jobs {

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

// What the model expects of one node in one step: the bytes of its flows and its time.
// A scheduled step's flows each run at d, so a node takes β + its longest flow / d; an
// all-at-once step's flows share the node's link, so it takes β + all its bytes / d (its
// part of the fluid prediction; the backbone may slow it more).
struct PlannedNode {
  std::string node;
  std::uint64_t bytes = 0;
  double seconds = 0;
};

struct StepPlan {
  std::vector<Flow> flows;
  double predicted_seconds = 0;  // β + longest flow / d (all-at-once: fluid sharing, plan_compiler.cpp)
  std::uint64_t bytes = 0;       // Σ of the flows' bytes
  // The nodes with a flow in the step, senders first, in cluster order.
  std::vector<PlannedNode> nodes;
};

struct CompiledPlan {
  std::string algorithm;
  // The flows of a step share the nodes' links instead of each running at d: the
  // all-at-once baseline, which the agents run unpaced and the model predicts as fluid.
  bool shared_links = false;
  int k = 0;
  double flow_rate = 0;     // d, bytes/s: the pace of every flow
  double step_startup = 0;  // β, s
  std::vector<StepPlan> steps;
  double predicted_seconds = 0;    // Σ over the steps: the model's time
  double lower_bound_seconds = 0;  // η
};

// Throws std::invalid_argument for a bad job (see check_transfers) and std::logic_error
// if the schedule fails validation.
CompiledPlan compile_plan(const Clusters& clusters, const std::vector<TransferSpec>& transfers,
                          const schedule::kpbs::Platform& platform, schedule::kpbs::Algorithm algorithm);

}  // namespace baton::jobs
