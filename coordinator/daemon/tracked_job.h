// Everything the coordinator knows of one job: what was asked, its plan, where it stands,
// the agents' answers of the phase it is in, and how its steps ran. The driver owns these
// (one per job it knows); the views (job_view.h) read them.
#pragma once

#include "coordinator/calibration/drift.h"
#include "coordinator/calibration/widening.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/exchange_tally.h"
#include "coordinator/daemon/job_spec.h"
#include "coordinator/daemon/job_state.h"
#include "coordinator/daemon/node_shares.h"
#include "coordinator/daemon/step_exchange.h"
#include "coordinator/jobs/plan_compiler.h"
#include "coordinator/journal/journal.h"
#include "coordinator/report/job_report.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace baton::coordinator {

// What one node reported for a finished step (its StepReport).
struct NodeTiming {
  double seconds = 0;
  std::uint64_t bytes = 0;
};

// A finished step as it really ran: its (last) release, seconds after the job started,
// the report of every node with a flow in it, and for a dataflow step when each node ran
// each of its tasks (seconds after it received the release).
struct StepTiming {
  double started = 0;
  std::map<std::string, NodeTiming> nodes;
  std::map<std::string, std::vector<protocol::TaskTiming>> tasks;
};

// How a job follows the network it runs on (docs/calibration.md, "Drift").
struct JobDrift {
  bool enabled = false;                       // re-plan when the steps drift from the model
  schedule::kpbs::Platform platform;          // the model the steps from now on were planned on
  double sender_rate = 0, receiver_rate = 0;  // the nodes' own rates (a plan may pace below)
  calibration::DriftDetector detector;        // the steps since then
  std::optional<calibration::Estimate> last;  // what the latest re-plan took the drift for
  calibration::WideningSchedule widening;     // when to try a wider backbone
  // A trial of a wider backbone being judged: the model it left, and its steps so far.
  struct Trial {
    schedule::kpbs::Platform before;
    std::vector<calibration::StepSample> steps;
  };
  std::optional<Trial> trial;
  std::vector<report::ReplanLine> replans;  // the report's entries, as journaled
  // s: what the job's failed trials cost it, from their records' cost_seconds.
  double trial_costs() const {
    double total = 0;
    for (const report::ReplanLine& record : replans) total += record.cost_seconds.value_or(0.0);
    return total;
  }
};

struct TrackedJob {
  std::uint64_t id = 0;
  std::string submitted;
  // The job as submitted; a job of the journal whose request no longer parses keeps none.
  std::optional<JobSpec> spec;
  JobState state = JobState::queued;
  std::string error;
  bool resumed = false;           // left unfinished by a previous coordinator
  bool started_before = false;    // resumed, and it had started: its agents may still hold its plan
  std::uint32_t resume_from = 0;  // steps already done (a resumed job)
  std::optional<jobs::CompiledPlan> plan;
  std::optional<std::uint64_t> plan_reused_from;  // the job its plan was compiled for (plan_cache.h)
  std::uint64_t bytes_total = 0;
  std::uint64_t bytes_done = 0;
  std::uint32_t step = 0;  // the step running (or next)
  Clock::time_point started{};
  std::optional<double> started_unix_seconds;  // the same moment on the system clock (reports)
  double measured_seconds = 0;
  std::vector<journal::StepRecord> steps;  // finished ones

  // What its agents said (the step executor's), and whether the operator cancelled it.
  StepExchange exchange;
  // A job that ended under an earlier coordinator: its final view, as the journal kept it.
  std::optional<report::JobReport> journaled_view;

  JobDrift drift;
  // Its share of its nodes' rates beside the jobs running on them (the driver's, node_shares.h),
  // and the pace its plan from the next step on was made for (its platform's rates times it).
  JobShare share;
  double paced_at = 1;

  // A job that kept its plan ("keep_plan"): the exchanges its agents told of since it
  // ended (in memory only: the journal keeps the job's final report, not its exchanges).
  ExchangeTally exchanges;

  // Per-node timing of the steps this coordinator ran (in memory only: a resumed job's
  // earlier steps have their journaled totals but no per-node timing).
  std::map<std::uint32_t, StepTiming> timing;

  // Every node of the job (JobSpec::nodes).
  std::vector<std::string> nodes() const { return spec ? spec->nodes() : std::vector<std::string>{}; }
};

}  // namespace baton::coordinator
