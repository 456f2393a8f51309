// The plan compiler of redistributions (docs/runtime.md): sums a job's transfers into the
// traffic matrix, schedules it, and cuts every step's amounts into byte ranges of the job's
// files — preemption becomes splitting a range across steps. CompiledPlan is also what the
// collectives' compiler (coordinator/collectives/collective_compiler.h) produces.
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/jobs/job_kind.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/platform.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
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
  double rate = 0;  // bytes/s to pace at; 0: the plan's flow_rate
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

// One task of a dataflow step as the plan predicts it (collectives; the report shows it).
struct PlannedTask {
  std::string node;
  std::uint32_t id = 0;
  std::string kind;                // "send", "receive", "combine"
  std::string peer;                // a send's receiver, a receive's sender
  std::vector<std::string> folds;  // a combine's inputs: whose data each holds, in fold order
  std::uint64_t bytes = 0;
  double start = 0;  // seconds after the step's release
  double end = 0;
};

// What the agents spend on each chunk of a step beyond its bytes / d, which the papers'
// model leaves out: each chunk is a transport flow of its own (begin, data, end, the
// receiver's acknowledgement, digests on both ends). 109 µs measured on a loaded loopback,
// over 250 µs seen by the probe of issue 27 (docs/runtime.md, "Steps").
inline constexpr double agent_chunk_seconds = 250e-6;

struct StepPlan {
  std::vector<Flow> flows;
  double predicted_seconds = 0;  // β + longest flow / d (all-at-once: fluid sharing, plan_compiler.cpp)
  // The busiest node's chunks (sent or received) × agent_chunk_seconds: not the model's,
  // but the step's deadline allows for it (a step of 120 k chunks of 4 KiB takes tens of
  // seconds whatever its bytes).
  double chunk_seconds = 0;
  std::uint64_t bytes = 0;  // Σ of the flows' bytes (a dataflow step: of its sends)
  // The nodes with a flow in the step, senders first, in cluster order (a dataflow step:
  // the nodes with a task, in the job's order).
  std::vector<PlannedNode> nodes;
  std::vector<PlannedTask> tasks;  // a dataflow step's

  // Its flows: a dataflow step's sends.
  std::size_t flow_count() const;
  // What the step's deadline is proportional to: the model's time and the chunks' own.
  double expected_seconds() const { return predicted_seconds + chunk_seconds; }
};

struct CompiledPlan {
  JobKind kind = JobKind::redistribution;
  std::string algorithm;
  // The flows of a step share the nodes' links instead of each running at d: the
  // all-at-once baseline, which the agents run unpaced and the model predicts as fluid.
  bool shared_links = false;
  int k = 0;
  double flow_rate = 0;     // d, bytes/s: the pace of every flow
  double step_startup = 0;  // β, s
  std::vector<StepPlan> steps;
  double predicted_seconds = 0;  // Σ over the steps: the model's time (a collective: the plan's, collectives.md)
  std::optional<double> lower_bound_seconds;  // η; a multicast's earliest-reach bound; none for the others
  // The paper model's makespan of the schedule (a redistribution: predicted_seconds); none
  // for an algorithm no paper models (ring).
  std::optional<double> model_seconds;
  // A collective's bound from its links alone (bandwidth_bound.h); none for a redistribution.
  std::optional<double> bandwidth_bound_seconds;
  // A collective planned "auto": every algorithm it predicted, fastest first (the first is
  // `algorithm`); empty when the job named its algorithm.
  std::vector<std::pair<std::string, double>> candidates;
  // A dataflow job (reduce, allreduce, multicast): each node's plan, checked, without the
  // job's ids and the peers' data addresses (filled in when sent, JobPlans).
  std::map<std::string, protocol::Plan> agent_plans;
  // A buffered multicast: its nodes (as both clusters) and one transfer per delivery, which
  // the steps' flows cut (a redistribution's are its job's).
  Clusters clusters;
  std::vector<TransferSpec> transfers;
};

// Throws error::InvalidInput for a bad job (see check_transfers) and error::Bug
// if the schedule fails validation.
CompiledPlan compile_plan(const Clusters& clusters, const std::vector<TransferSpec>& transfers,
                          const schedule::kpbs::Platform& platform, schedule::kpbs::Algorithm algorithm);

}  // namespace baton::jobs
