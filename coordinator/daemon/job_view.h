// What the coordinator shows of its jobs and agents (docs/runtime.md, "The API"): a job's
// typed report (coordinator/report/job_report.h, serialized by the API), the job list's
// rows, and the agents' JSON. The field names are a contract (batonctl, the status page and
// scripts read them).
#pragma once

#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/tracked_job.h"
#include "coordinator/report/job_report.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baton::coordinator {

// The job with its report: per step, planned against measured, per node too.
report::JobReport job_report(const TrackedJob& job, Clock::time_point now);
// The same without the plan's report: the job's state and progress only.
report::JobReport job_progress(const TrackedJob& job, Clock::time_point now);
// The job's bytes done now: its finished steps', and the share of the running step its
// nodes reported moving so far (StepProgress).
std::uint64_t bytes_done_now(const TrackedJob& job);
// One line of the job list.
nlohmann::ordered_json job_summary_json(const TrackedJob& job);
// A run a node is in (a job's, or a calibration's probe step) and, for a running job, its
// share of the node's rate (docs/runtime.md, "Jobs that share nodes").
struct NodeRun {
  std::string job;
  std::optional<double> share;
};
// The agents, each with the runs it is in (`runs_by_node`: the runs the step executor has
// attached): "jobs", each with its "share" where it has one, and "job", the first ("" for
// a node in none; the field older clients read).
nlohmann::ordered_json agents_json(const std::vector<AgentInfo>& agents,
                                   const std::map<std::string, std::vector<NodeRun>>& runs_by_node,
                                   std::chrono::steady_clock::time_point now);

}  // namespace baton::coordinator
