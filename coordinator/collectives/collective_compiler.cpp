#include "coordinator/collectives/collective_compiler.h"

#include "coordinator/collectives/bandwidth_bound.h"
#include "coordinator/collectives/collective_compilers.h"
#include "coordinator/collectives/compiled_dataflow_check.h"
#include "coordinator/collectives/dataflow_timing.h"
#include "coordinator/collectives/lockstep_check.h"
#include "error/error.h"

#include <algorithm>

namespace baton::collectives {
namespace {

void require_sound(const std::vector<std::string>& errors, const CollectiveJob& job) {
  if (errors.empty()) return;
  std::string all;
  for (const std::string& e : errors) all += (all.empty() ? "" : "; ") + e;
  throw error::Bug("plan compiler: the " + std::string(name(job.algorithm)) + " plan of this " +
                   std::string(name(job.kind)) + " fails its check: " + all);
}

// The one step of a dataflow job as the driver and the report see it.
jobs::StepPlan dataflow_step(const DataflowPlan& plan, const CollectiveJob& job, double predicted) {
  jobs::StepPlan step;
  step.predicted_seconds = predicted;
  for (const std::string& node : job.nodes) {
    const auto tasks = plan.find(node);
    if (tasks == plan.end()) continue;
    jobs::PlannedNode planned{node, 0, 0};
    for (const DataflowTask& t : tasks->second) {
      planned.bytes += t.bytes();
      planned.seconds = std::max(planned.seconds, t.planned_end);
      if (t.kind == TaskKind::send) step.bytes += t.bytes();
      step.tasks.push_back(
          {node, t.id, std::string(name(t.kind)), t.peer, t.folds, t.bytes(), t.planned_start, t.planned_end});
    }
    step.nodes.push_back(std::move(planned));
  }
  return step;
}

// Whether "auto" considers `algorithm` for `job`. Decision: not bnb, whose search may take
// seconds of the planner's time (its budget, docs/reduction.md) to optimise the paper's
// model, which the event simulation that judges here does not share; not an algorithm
// past its limits on these nodes (dp), nor a ring with fewer elements than nodes.
bool auto_considers(const CollectiveJob& job, const CollectiveModel& model) {
  switch (job.algorithm) {
    case Algorithm::automatic:
    case Algorithm::bnb: return false;
    case Algorithm::ring:
      if (job.data.count < job.nodes.size()) return false;
      break;
    default: break;
  }
  return !tree_algorithm_problem(job, model).has_value();
}

// "auto" (docs/collectives.md, "auto"): every applicable algorithm compiled and predicted by
// the same event simulation; the fastest runs, the others are listed beside it.
jobs::CompiledPlan compile_fastest(const CollectiveJob& job, const CollectiveModel& model) {
  std::optional<jobs::CompiledPlan> best;
  std::vector<std::pair<std::string, double>> candidates;
  for (const Algorithm algorithm : algorithms(job.kind)) {
    CollectiveJob one = job;
    one.algorithm = algorithm;
    if (!auto_considers(one, model)) continue;
    jobs::CompiledPlan plan = compile_collective(one, model);
    candidates.emplace_back(name(algorithm), plan.predicted_seconds);
    if (!best || plan.predicted_seconds < best->predicted_seconds) best = std::move(plan);
  }
  if (!best) throw error::InvalidInput("auto: no algorithm of " + std::string(name(job.kind)) + " applies to this job");
  std::ranges::stable_sort(candidates, [](const auto& a, const auto& b) { return a.second < b.second; });
  best->candidates = std::move(candidates);
  return *std::move(best);
}

// A dataflow job's named algorithm: Baton's own have a compiler each; the papers'
// schedulers and the baselines beside them have one per kind.
DataflowSchedule compile_dataflow(const CollectiveJob& job, const CollectiveModel& model) {
  switch (job.algorithm) {
    case Algorithm::pipelined_tree: return compile_pipelined_tree(job, model);
    case Algorithm::rate_rsag: return compile_rate_rsag(job, model);
    case Algorithm::ring: return compile_ring(job);
    default: return job.kind == jobs::JobKind::multicast ? compile_multicast(job, model) : compile_tree(job, model);
  }
}

jobs::CompiledPlan compile_named(const CollectiveJob& job, const CollectiveModel& model) {
  if (job.kind == jobs::JobKind::buffered_multicast) {
    jobs::CompiledPlan plan = compile_buffered_multicast(job, model);
    require_sound(check_buffered_plan(job, model, plan), job);
    return plan;
  }
  DataflowSchedule schedule = compile_dataflow(job, model);
  const double predicted = predict(schedule.plan, model, schedule.sends_at_once);
  jobs::CompiledPlan out;
  out.kind = job.kind;
  out.algorithm = name(job.algorithm);
  out.k = static_cast<int>(schedule.sends_at_once);
  out.step_startup = model.beta;
  out.predicted_seconds = predicted;
  out.model_seconds = schedule.model_seconds;
  out.lower_bound_seconds = schedule.lower_bound_seconds;
  out.agent_plans = to_agent_plans(schedule.plan, job, model, schedule.sends_at_once, predicted);
  require_sound(check_dataflow_plans(job, out.agent_plans), job);
  out.steps.push_back(dataflow_step(schedule.plan, job, predicted));
  return out;
}

}  // namespace

jobs::CompiledPlan compile_collective(const CollectiveJob& job, const CollectiveModel& model) {
  jobs::CompiledPlan plan =
      job.algorithm == Algorithm::automatic ? compile_fastest(job, model) : compile_named(job, model);
  plan.bandwidth_bound_seconds = bandwidth_bound(job, model);
  return plan;
}

}  // namespace baton::collectives
