#include "coordinator/daemon/job_view.h"

#include <algorithm>

namespace baton::coordinator {
namespace {

using Json = nlohmann::ordered_json;

std::string algorithm_of(const TrackedJob& job) {
  return job.spec ? std::string(schedule::kpbs::name(job.spec->algorithm)) : "";
}

// The platform the job was first planned on, and where it came from: the job's request
// ("declared") or a calibration of its nodes (docs/calibration.md).
Json platform_json(const TrackedJob& job) {
  const schedule::kpbs::Platform& p = job.spec->platform;
  Json out{{"source", job.spec->calibration.empty() ? "declared" : "calibration"}};
  if (!job.spec->calibration.empty()) out["calibration"] = job.spec->calibration;
  out["sender_rate"] = p.sender_rate;
  out["receiver_rate"] = p.receiver_rate;
  out["backbone_rate"] = p.backbone_rate;
  out["step_startup"] = p.step_startup;
  out["replan_on_drift"] = job.drift.enabled;
  return out;
}

Json step_json(const TrackedJob& job, std::size_t index, double planned_start) {
  const jobs::StepPlan& planned = job.plan->steps[index];
  Json step{{"index", index},
            {"flows", planned.flows.size()},
            {"bytes", planned.bytes},
            {"predicted_seconds", planned.predicted_seconds},
            {"planned_start_seconds", planned_start}};
  const auto done = std::ranges::find_if(job.steps, [&](const journal::StepRecord& r) { return r.step == index; });
  if (done != job.steps.end()) {
    step["measured_seconds"] = done->measured;
    step["attempts"] = done->attempts;
  }
  const auto timing = job.timing.find(static_cast<std::uint32_t>(index));
  if (timing != job.timing.end()) step["started_seconds"] = timing->second.started;
  Json per_node = Json::object();
  for (const jobs::PlannedNode& expected : planned.nodes) {
    Json entry{{"planned_bytes", expected.bytes}, {"planned_seconds", expected.seconds}};
    if (timing != job.timing.end()) {
      const NodeTiming& real = timing->second.nodes.at(expected.node);
      entry["bytes"] = real.bytes;
      entry["seconds"] = real.seconds;
    }
    per_node[expected.node] = std::move(entry);
  }
  step["nodes"] = std::move(per_node);
  return step;
}

}  // namespace

Json job_json(const TrackedJob& job, Clock::time_point now) {
  if (job.journaled_view) return *job.journaled_view;
  Json out{{"id", std::to_string(job.id)},
           {"state", name(job.state)},
           {"error", job.error},
           {"submitted", job.submitted},
           {"algorithm", algorithm_of(job)},
           {"senders", job.spec ? job.spec->clusters.senders : std::vector<std::string>{}},
           {"receivers", job.spec ? job.spec->clusters.receivers : std::vector<std::string>{}},
           {"bytes", job.bytes_total},
           {"bytes_done", job.bytes_done},
           {"step", job.step},
           {"steps", job.plan ? job.plan->steps.size() : 0}};
  const double elapsed = job.started == Clock::time_point{} ? 0
                         : ended(job.state)                 ? job.measured_seconds
                                                            : std::chrono::duration<double>(now - job.started).count();
  out["elapsed_seconds"] = elapsed;
  if (!job.plan) return out;
  Json steps = Json::array();
  double planned_start = 0;  // Σ predicted of the steps before
  for (std::size_t s = 0; s < job.plan->steps.size(); ++s) {
    steps.push_back(step_json(job, s, planned_start));
    planned_start += job.plan->steps[s].predicted_seconds;
  }
  double measured = 0;
  for (const journal::StepRecord& r : job.steps) measured += r.measured;
  out["report"] = Json{{"algorithm", job.plan->algorithm},
                       {"k", job.plan->k},
                       {"flow_rate", job.plan->flow_rate},
                       {"steps", std::move(steps)},
                       {"predicted_seconds", job.plan->predicted_seconds},
                       {"lower_bound_seconds", job.plan->lower_bound_seconds},
                       {"measured_steps_seconds", measured},
                       {"measured_seconds", elapsed},
                       {"platform", platform_json(job)},
                       {"replans", job.drift.replans}};
  return out;
}

Json job_summary_json(const TrackedJob& job) {
  if (job.journaled_view) {
    Json out;
    for (const char* key : {"id", "state", "algorithm", "steps", "step", "bytes", "bytes_done", "submitted"}) {
      out[key] = job.journaled_view->value(key, Json());
    }
    return out;
  }
  return Json{{"id", std::to_string(job.id)},
              {"state", name(job.state)},
              {"algorithm", algorithm_of(job)},
              {"steps", job.plan ? job.plan->steps.size() : 0},
              {"step", job.step},
              {"bytes", job.bytes_total},
              {"bytes_done", job.bytes_done},
              {"submitted", job.submitted}};
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
