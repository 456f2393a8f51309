#include "coordinator/daemon/job_view.h"

#include <algorithm>

namespace baton::coordinator {
namespace {

using Json = nlohmann::ordered_json;

std::string algorithm_of(const TrackedJob& job) { return job.spec ? job.spec->algorithm_name() : ""; }

report::StepLine step_line(const TrackedJob& job, std::size_t index, double planned_start) {
  const jobs::StepPlan& planned = job.plan->steps[index];
  report::StepLine step;
  step.index = index;
  step.flows = planned.flows.size();
  step.bytes = planned.bytes;
  step.predicted_seconds = planned.predicted_seconds;
  step.planned_start_seconds = planned_start;
  const auto done = std::ranges::find_if(job.steps, [&](const journal::StepRecord& r) { return r.step == index; });
  if (done != job.steps.end()) {
    step.measured_seconds = done->measured;
    step.attempts = done->attempts;
  }
  const auto timing = job.timing.find(static_cast<std::uint32_t>(index));
  if (timing != job.timing.end()) step.started_seconds = timing->second.started;
  step.nodes.emplace();
  for (const jobs::PlannedNode& expected : planned.nodes) {
    report::NodeLine line{.node = expected.node,
                          .planned_bytes = expected.bytes,
                          .planned_seconds = expected.seconds,
                          .bytes = std::nullopt,
                          .seconds = std::nullopt};
    if (timing != job.timing.end()) {
      const NodeTiming& real = timing->second.nodes.at(expected.node);
      line.bytes = real.bytes;
      line.seconds = real.seconds;
    }
    step.nodes->push_back(std::move(line));
  }
  return step;
}

// Everything but the plan's report: what the job list shows.
report::JobReport job_header(const TrackedJob& job) {
  return {.id = std::to_string(job.id),
          .state = std::string(name(job.state)),
          .error = job.error,
          .submitted = job.submitted,
          .algorithm = algorithm_of(job),
          .senders = job.spec ? job.spec->clusters.senders : std::vector<std::string>{},
          .receivers = job.spec ? job.spec->clusters.receivers : std::vector<std::string>{},
          .bytes = job.bytes_total,
          .bytes_done = job.bytes_done,
          .step = job.step,
          .steps = job.plan ? job.plan->steps.size() : 0,
          .elapsed_seconds = 0,
          .report = std::nullopt};
}

}  // namespace

report::JobReport job_report(const TrackedJob& job, Clock::time_point now) {
  if (job.journaled_view) return *job.journaled_view;
  report::JobReport out = job_header(job);
  out.elapsed_seconds = job.started == Clock::time_point{} ? 0
                        : ended(job.state)                 ? job.measured_seconds
                                                           : std::chrono::duration<double>(now - job.started).count();
  if (!job.plan) return out;
  report::PlanReport plan;
  plan.algorithm = job.plan->algorithm;
  plan.k = job.plan->k;
  plan.flow_rate = job.plan->flow_rate;
  plan.predicted_seconds = job.plan->predicted_seconds;
  plan.lower_bound_seconds = job.plan->lower_bound_seconds;
  plan.measured_seconds = out.elapsed_seconds;
  double planned_start = 0;  // Σ predicted of the steps before
  for (std::size_t s = 0; s < job.plan->steps.size(); ++s) {
    plan.steps.push_back(step_line(job, s, planned_start));
    planned_start += job.plan->steps[s].predicted_seconds;
  }
  for (const journal::StepRecord& r : job.steps) plan.measured_steps_seconds += r.measured;
  out.report = std::move(plan);
  return out;
}

Json job_summary_json(const TrackedJob& job) {
  return report::summary_json(job.journaled_view ? *job.journaled_view : job_header(job));
}

Json agents_json(const std::vector<AgentInfo>& agents, const TrackedJob* current,
                 std::chrono::steady_clock::time_point now) {
  const std::vector<std::string> busy = current ? current->nodes() : std::vector<std::string>{};
  Json list = Json::array();
  for (const AgentInfo& a : agents) {
    const bool in_job = std::ranges::find(busy, a.node) != busy.end();
    list.push_back(Json{{"node", a.node},
                        {"alive", a.alive},
                        {"addresses", a.addresses},
                        {"transports", a.transports},
                        {"rate", a.rate},
                        {"last_heartbeat_age", std::chrono::duration<double>(now - a.last_heard).count()},
                        {"job", in_job ? std::to_string(current->id) : ""}});
  }
  return Json{{"agents", std::move(list)}};
}

}  // namespace baton::coordinator
