// A job as the coordinator reports it (docs/runtime.md, "The coordinator's API"): what
// `GET /v1/jobs/ID` answers, the journal keeps of a finished job, batonctl prints and the
// status page draws. One type, one serializer to the API's JSON and one parser back from
// it; the JSON's field names are a contract (extended, never renamed or dropped).
#pragma once

#include "coordinator/json/input.h"
#include "coordinator/schedule/kpbs/platform.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baton::report {

using Json = json::Json;

// One node's part of a step: the model's bytes and time for it, and what its agent reported
// once the step ran.
struct NodeLine {
  std::string node;
  std::uint64_t planned_bytes = 0;
  double planned_seconds = 0;
  std::optional<std::uint64_t> bytes;  // measured: set once the step ran
  std::optional<double> seconds;
};

// One task of a dataflow step (a collective, docs/collectives.md): planned (the plan's
// prediction) against measured (the node's report of it), both in seconds since the job
// started (a measured time is the step's release plus the node's own time for the task).
struct TaskLine {
  std::string node;
  std::uint32_t id = 0;
  std::string kind;                // "send", "receive", "combine"
  std::string peer;                // a send's receiver, a receive's sender; empty for a combine
  std::vector<std::string> folds;  // a combine's inputs: whose data each holds, in fold order
  std::uint64_t bytes = 0;
  double planned_start_seconds = 0;
  double planned_end_seconds = 0;
  std::optional<double> started_seconds;  // measured: set once the node reported the task
  std::optional<double> ended_seconds;
};

// One step: planned (on the model's timeline, from the job's start) against measured (from
// its release, on the job's timeline).
struct StepLine {
  std::uint64_t index = 0;
  std::uint64_t flows = 0;
  std::uint64_t bytes = 0;
  double predicted_seconds = 0;
  double planned_start_seconds = 0;
  std::optional<double> measured_seconds;  // set once the step is done
  std::optional<std::uint32_t> attempts;
  std::optional<double> started_seconds;  // its last release, seconds after the job started
  // The nodes with a flow in the step, in the report's order; absent in reports of
  // coordinators that predate per-node timing.
  std::optional<std::vector<NodeLine>> nodes;
  std::vector<TaskLine> tasks;  // a dataflow step's ("tasks", absent otherwise)
};

// The platform a redistribution was first planned on and where it came from: the job's
// request ("declared") or a calibration of its nodes (docs/calibration.md).
struct PlatformLine {
  std::string source;                // "declared" or "calibration"
  std::string calibration;           // the calibration's id; empty when declared
  schedule::kpbs::Platform figures;  // "sender_rate", ..., "step_startup" (json/platform.h)
  bool replan_on_drift = false;
};

// The model's figures before or after a re-plan.
struct ModelLine {
  int k = 0;
  double d = 0;  // bytes/s of one flow
  double D = 0;  // bytes/s of the backbone
  double beta = 0;
};

// What a re-plan answered: drift taken for the backbone, the nodes or the step start-up
// (calibration::Cause), the start of a trial of a wider backbone, or the end of one that
// failed. Its "cause" in the report: "backbone", "nodes", "step start-up", "wider backbone
// trial", "wider backbone trial failed".
// A re-plan for the job's share of its nodes (docs/runtime.md, "Jobs that share nodes") is
// "node share".
enum class ReplanCause { backbone, nodes, startup, trial, trial_failed, share };
std::string_view name(ReplanCause cause);
// Throws json::InputError naming `path` for a cause it does not know.
ReplanCause parse_replan_cause(const std::string& text, const std::string& path);

// One re-plan on drift (docs/calibration.md, "Drift"): when, why, the model before and after,
// and the rest's predicted time on each; or why it was not re-planned ("error").
struct ReplanLine {
  std::uint64_t at_step = 0;  // the first step of the new plan
  std::string when;           // UTC
  double elapsed_seconds = 0;
  std::string why;
  ReplanCause cause = ReplanCause::backbone;
  ModelLine old_model;
  std::optional<std::string> error;  // set when the job kept its plan
  std::optional<ModelLine> new_model;
  std::optional<std::uint64_t> steps_before;  // of the rest, in the old plan and the new
  std::optional<std::uint64_t> steps_after;
  std::optional<double> predicted_remaining_seconds_before;  // the old plan on the old model
  std::optional<double> predicted_remaining_seconds_kept;    // the old plan on the new model
  std::optional<double> predicted_remaining_seconds_after;   // the new plan on the new model
  std::optional<double> cost_seconds;  // a failed trial's: its steps' time beyond the plan before's model
  std::optional<double> share;         // a "node share" re-plan's: the pace the rest is planned for, in (0, 1]
};

// A redistribution's rates, as its report says them beside T*.
inline constexpr const char* kRedistributionRates =
    "each node's rate as the job's platform gives it (sender_rates, receiver_rates; otherwise sender_rate and "
    "receiver_rate) and the backbone's: an agent declares its rate as TCP goodput, the bytes a second one "
    "connection carries over its link";

// One algorithm "auto" predicted for a job.
struct AlgorithmCandidate {
  std::string algorithm;
  double predicted_seconds = 0;
};

// The plan against what happened, once the job has been planned.
struct PlanReport {
  std::string kind = "redistribution";  // the job's kind (absent in older reports)
  std::string algorithm;
  int k = 0;
  double flow_rate = 0;  // bytes/s of every flow (d)
  std::vector<StepLine> steps;
  double predicted_seconds = 0;               // a collective's: the plan's own prediction
  std::optional<double> lower_bound_seconds;  // none where no bound is computed (reduce, allreduce)
  // The paper model's makespan of the schedule ("model_seconds"; a redistribution's is its
  // predicted time); none for an algorithm no paper models (ring) and in older reports.
  std::optional<double> model_seconds;
  // The bound from the links alone ("bandwidth_bound_seconds"): a collective's
  // (docs/collectives.md), a redistribution's T* (docs/redistribution.md); none in older
  // reports.
  std::optional<double> bandwidth_bound_seconds;
  // What rates a redistribution's bound is of ("bandwidth_bound_rates": kRedistributionRates).
  std::optional<std::string> bandwidth_bound_rates;
  // A job planned "auto": every algorithm it predicted, fastest first
  // ("algorithm_candidates"); empty when the job named its algorithm.
  std::vector<AlgorithmCandidate> candidates;
  // A redistribution whose plan was compiled for an earlier job of the same transfers,
  // platform and algorithm ("plan_reused_from": that job's id; docs/embedding.md).
  std::optional<std::string> plan_reused_from;
  double measured_steps_seconds = 0;  // Σ of the steps' measured times
  double measured_seconds = 0;        // the job's, start to end
  // A redistribution's platform and re-plans (issue 18); no platform for a collective and in
  // older reports.
  std::optional<PlatformLine> platform;
  std::vector<ReplanLine> replans;
};

// The exchanges of a job that kept its plan ("exchanges"; docs/embedding.md, "Persistent
// handoffs"), as its agents told them afterwards.
struct ExchangesLine {
  std::uint64_t done = 0;              // every node reported it ok
  std::uint64_t failed = 0;            // a node reported it not ok
  std::optional<double> last_seconds;  // the last one done, its slowest node's time
  std::string last_error;              // the last failure, naming the node; empty before one
};

struct JobReport {
  std::string id;
  std::string kind = "redistribution";  // absent in older reports
  std::string state;
  std::string error;
  std::string submitted;
  std::string algorithm;
  std::vector<std::string> senders;
  std::vector<std::string> receivers;
  std::uint64_t bytes = 0;
  std::uint64_t bytes_done = 0;       // of the steps that ended
  std::uint64_t step_bytes_done = 0;  // of the step running, so far (the agents' StepProgress)
  std::uint64_t step = 0;             // the step running (or next), from 0
  std::uint64_t steps = 0;            // how many the plan has; 0 before it is planned
  double elapsed_seconds = 0;
  std::optional<PlanReport> report;  // once planned
  // When it started, in seconds since the UNIX epoch (the system clock): jobs that run at
  // once are compared on it. Absent before it starts and in older reports.
  std::optional<double> started_unix_seconds;
  // A running job's share of each of its nodes' rates (docs/runtime.md, "Jobs that share
  // nodes"), node → (0, 1]; empty for a job not running and in older reports.
  std::map<std::string, double> node_shares;
  // A job with "keep_plan": its exchanges since it ended; none for any other job.
  std::optional<ExchangesLine> exchanges;
};

// "47 %": a share in whole percents.
std::string percent_text(double share);
// "s0 75 %, r0 75 %": a job's node_shares.
std::string node_shares_text(const std::map<std::string, double>& shares);

// `GET /v1/jobs/ID`'s answer.
Json to_json(const JobReport& job);
// One row of `GET /v1/jobs`.
Json summary_json(const JobReport& job);
// The inverse of to_json, for an answer batonctl received or a report the journal kept.
// Throws json::InputError naming the field that is missing or of the wrong type; members
// it does not know are ignored (a newer coordinator's extensions).
JobReport parse_job_report(const Json& job);
// One re-plan as the driver records and journals it (the shape of the report's "replans"
// entries), and back; `path` names it in errors.
ReplanLine parse_replan(const Json& replan, const std::string& path);
Json replan_json(const ReplanLine& replan);

}  // namespace baton::report
