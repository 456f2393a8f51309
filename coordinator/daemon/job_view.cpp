#include "coordinator/daemon/job_view.h"

#include <algorithm>

namespace baton::coordinator {
namespace {

using Json = nlohmann::ordered_json;

std::string algorithm_of(const TrackedJob& job) { return job.spec ? job.spec->algorithm_name() : ""; }

// The platform the job was first planned on, and where it came from: the job's request
// ("declared") or a calibration of its nodes (docs/calibration.md).
report::PlatformLine platform_line(const TrackedJob& job) {
  return {.source = job.spec->calibration.empty() ? "declared" : "calibration",
          .calibration = job.spec->calibration,
          .figures = job.spec->platform,
          .replan_on_drift = job.drift.enabled};
}

void add_once(std::vector<std::string>& list, const std::string& node) {
  if (std::ranges::find(list, node) == list.end()) list.push_back(node);
}

// Who sends and who receives: a redistribution's clusters; a collective's sources and
// destinations (reduce: every node but the root, and the root; allreduce: every node twice).
std::pair<std::vector<std::string>, std::vector<std::string>> roles(const JobSpec& spec) {
  const collectives::CollectiveJob& c = spec.collective;
  switch (spec.kind) {
    case jobs::JobKind::redistribution: return {spec.clusters.senders, spec.clusters.receivers};
    case jobs::JobKind::allreduce: return {c.nodes, c.nodes};
    case jobs::JobKind::reduce: {
      std::vector<std::string> senders;
      for (const std::string& n : c.nodes) {
        if (n != c.root) senders.push_back(n);
      }
      return {senders, {c.root}};
    }
    case jobs::JobKind::multicast:
    case jobs::JobKind::buffered_multicast: {
      std::vector<std::string> sources, destinations;
      for (const collectives::Message& m : c.messages) {
        add_once(sources, m.source);
        for (const std::string& d : m.destinations) add_once(destinations, d);
      }
      return {sources, destinations};
    }
  }
  return {};
}

// The step running: the bytes its nodes reported moving so far (StepProgress) as a share of
// what they move in all (each byte counts at its sender and at its receiver on both sides).
std::uint64_t running_step_bytes(const TrackedJob& job) {
  if (job.state != JobState::running || !job.plan || job.step >= job.plan->steps.size()) return 0;
  const jobs::StepPlan& step = job.plan->steps[job.step];
  double planned = 0, moved = 0;
  for (const jobs::PlannedNode& n : step.nodes) planned += static_cast<double>(n.bytes);
  for (const auto& [node, progress] : job.exchange.progress) moved += static_cast<double>(progress.bytes);
  if (!(planned > 0)) return 0;
  return static_cast<std::uint64_t>(static_cast<double>(step.bytes) * std::min(1.0, moved / planned));
}

// A dataflow step's tasks, planned on the job's timeline from the step's planned start, and
// measured from its release plus each node's own times, for the tasks it reported: in its
// step report once the step is done, in its progress while the step runs.
std::vector<report::TaskLine> task_lines(const TrackedJob& job, std::uint32_t index, double planned_start) {
  const jobs::StepPlan& planned = job.plan->steps[index];
  const auto timing = job.timing.find(index);
  const bool running =
      job.state == JobState::running && job.step == index && job.exchange.released != Clock::time_point{};
  std::vector<report::TaskLine> out;
  for (const jobs::PlannedTask& t : planned.tasks) {
    report::TaskLine line;
    line.node = t.node;
    line.id = t.id;
    line.kind = t.kind;
    line.peer = t.peer;
    line.folds = t.folds;
    line.bytes = t.bytes;
    line.planned_start_seconds = planned_start + t.start;
    line.planned_end_seconds = planned_start + t.end;
    const std::vector<protocol::TaskTiming>* measured = nullptr;
    double released = 0;
    if (timing != job.timing.end() && timing->second.tasks.contains(t.node)) {
      measured = &timing->second.tasks.at(t.node);
      released = timing->second.started;
    } else if (running && job.exchange.progress.contains(t.node)) {
      measured = &job.exchange.progress.at(t.node).tasks;
      released = seconds_between(job.started, job.exchange.released);
    }
    if (measured != nullptr) {
      const auto found = std::ranges::find_if(*measured, [&](const protocol::TaskTiming& m) { return m.id() == t.id; });
      if (found != measured->end()) {
        line.started_seconds = released + found->start();
        line.ended_seconds = released + found->end();
      }
    }
    out.push_back(std::move(line));
  }
  return out;
}

report::StepLine step_line(const TrackedJob& job, std::size_t index, double planned_start) {
  const jobs::StepPlan& planned = job.plan->steps[index];
  report::StepLine step;
  step.index = index;
  step.flows = planned.flow_count();
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
    // From the node's report of the step, or of its self-paced range once that ended (none
    // for a step a resumed job's predecessor ran; docs/runtime.md, "Self-paced steps").
    const auto real = timing == job.timing.end() ? std::map<std::string, NodeTiming>::const_iterator{}
                                                 : timing->second.nodes.find(expected.node);
    if (timing != job.timing.end() && real != timing->second.nodes.end()) {
      line.bytes = real->second.bytes;
      line.seconds = real->second.seconds;
    }
    step.nodes->push_back(std::move(line));
  }
  step.tasks = task_lines(job, static_cast<std::uint32_t>(index), planned_start);
  return step;
}

std::optional<report::ExchangesLine> exchanges_of(const TrackedJob& job) {
  if (!job.spec || !job.spec->keep_plan) return std::nullopt;
  return report::ExchangesLine{.done = job.exchanges.done(),
                               .failed = job.exchanges.failed(),
                               .last_seconds = job.exchanges.last_seconds(),
                               .last_error = job.exchanges.last_error()};
}

// Everything but the plan's report: what the job list shows.
report::JobReport job_header(const TrackedJob& job) {
  auto [senders, receivers] = job.spec ? roles(*job.spec) : decltype(roles(*job.spec)){};
  return {.id = std::to_string(job.id),
          .kind = std::string(jobs::name(job.spec ? job.spec->kind : jobs::JobKind::redistribution)),
          .state = std::string(name(job.state)),
          .error = job.error,
          .submitted = job.submitted,
          .algorithm = algorithm_of(job),
          .senders = std::move(senders),
          .receivers = std::move(receivers),
          .bytes = job.bytes_total,
          .bytes_done = job.bytes_done,
          .step_bytes_done = running_step_bytes(job),
          .step = job.step,
          .steps = job.plan ? job.plan->steps.size() : 0,
          .elapsed_seconds = 0,
          .report = std::nullopt,
          .started_unix_seconds = job.started_unix_seconds,
          .node_shares = job.state == JobState::running ? job.share.nodes : std::map<std::string, double>{},
          .exchanges = exchanges_of(job)};
}

}  // namespace

std::uint64_t bytes_done_now(const TrackedJob& job) { return job.bytes_done + running_step_bytes(job); }

report::JobReport job_progress(const TrackedJob& job, Clock::time_point now) {
  if (job.journaled_view) {
    report::JobReport out = *job.journaled_view;
    out.report.reset();
    return out;
  }
  report::JobReport out = job_header(job);
  out.elapsed_seconds = job.started == Clock::time_point{} ? 0
                        : ended(job.state)                 ? job.measured_seconds
                                                           : seconds_between(job.started, now);
  return out;
}

report::JobReport job_report(const TrackedJob& job, Clock::time_point now) {
  if (job.journaled_view) return *job.journaled_view;
  report::JobReport out = job_progress(job, now);
  if (!job.plan) return out;
  report::PlanReport plan;
  plan.kind = std::string(jobs::name(job.plan->kind));
  plan.algorithm = job.plan->algorithm;
  plan.k = job.plan->k;
  plan.flow_rate = job.plan->flow_rate;
  plan.predicted_seconds = job.plan->predicted_seconds;
  plan.lower_bound_seconds = job.plan->lower_bound_seconds;
  plan.model_seconds = job.plan->model_seconds;
  plan.bandwidth_bound_seconds = job.plan->bandwidth_bound_seconds;
  if (job.plan_reused_from) plan.plan_reused_from = std::to_string(*job.plan_reused_from);
  for (const auto& [algorithm, predicted] : job.plan->candidates) plan.candidates.push_back({algorithm, predicted});
  plan.measured_seconds = out.elapsed_seconds;
  double planned_start = 0;  // Σ predicted of the steps before
  for (std::size_t s = 0; s < job.plan->steps.size(); ++s) {
    plan.steps.push_back(step_line(job, s, planned_start));
    planned_start += job.plan->steps[s].predicted_seconds;
  }
  for (const journal::StepRecord& r : job.steps) plan.measured_steps_seconds += r.measured;
  if (job.spec->kind == jobs::JobKind::redistribution) {
    if (plan.bandwidth_bound_seconds) plan.bandwidth_bound_rates = report::kRedistributionRates;
    plan.platform = platform_line(job);
    plan.replans = job.drift.replans;
  }
  out.report = std::move(plan);
  return out;
}

Json job_summary_json(const TrackedJob& job) {
  return report::summary_json(job.journaled_view ? *job.journaled_view : job_header(job));
}

Json agents_json(const std::vector<AgentInfo>& agents, const std::map<std::string, std::vector<NodeRun>>& runs_by_node,
                 std::chrono::steady_clock::time_point now) {
  Json list = Json::array();
  for (const AgentInfo& a : agents) {
    const auto found = runs_by_node.find(a.node);
    const std::vector<NodeRun> none;
    const std::vector<NodeRun>& runs = found == runs_by_node.end() ? none : found->second;
    Json jobs = Json::array();
    for (const NodeRun& run : runs) {
      Json entry{{"id", run.job}};
      if (run.share) entry["share"] = *run.share;
      jobs.push_back(std::move(entry));
    }
    list.push_back(Json{{"node", a.node},
                        {"alive", a.alive},
                        {"addresses", a.addresses},
                        {"transports", a.transports},
                        {"rate", a.rate},
                        {"last_heartbeat_age", std::chrono::duration<double>(now - a.last_heard).count()},
                        {"job", runs.empty() ? "" : runs.front().job},
                        {"jobs", std::move(jobs)}});
  }
  return Json{{"agents", std::move(list)}};
}

}  // namespace baton::coordinator
