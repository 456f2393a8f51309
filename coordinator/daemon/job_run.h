// One job's run (docs/runtime.md, "Steps"), from the moment the driver takes it off the
// queue to its end, phase by phase:
//
//   plan → await agents → distribute plans → run each step (attempts) → record → follow
//   drift → end on the agents → finish
//
// Each phase that fails finishes the job with why. What is said to the agents, and waited
// for, is the step executor's (step_executor.h); drift is the DriftFollower's. A step's
// record is written while the next step runs (trailing_record.h), so a crash loses at most
// the last step's record, and that step runs again on resume.
//
// What a run keeps is the job's (TrackedJob) or its own (the record in flight, the
// follower); what it shares with every other run is a JobServices.
//
// Threading: the io thread's, except compiling the plan, which runs on the planner's
// executor while the job waits.
#pragma once

#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/drift_follower.h"
#include "coordinator/daemon/driver_metrics.h"
#include "coordinator/daemon/driver_options.h"
#include "coordinator/daemon/event_wait.h"
#include "coordinator/daemon/job_plans.h"
#include "coordinator/daemon/job_state.h"
#include "coordinator/daemon/plan_cache.h"
#include "coordinator/daemon/step_executor.h"
#include "coordinator/daemon/tracked_job.h"
#include "coordinator/daemon/trailing_record.h"
#include "coordinator/journal/journal.h"
#include "log/log.h"

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace baton::coordinator {

// What a job's run uses of the coordinator: the parts every job shares.
struct JobServices {
  asio::any_io_executor io;       // the thread the run lives on
  asio::any_io_executor planner;  // the thread plans are compiled on
  AgentDirectory& agents;
  journal::Store& journal;
  StepExecutor& executor;
  EventWait& events;
  PlanCache& plan_cache;  // the planner thread's
  Clock& clock;
  const DriverOptions& options;
  DriverMetrics& metrics;
  log::Logger& log;
  // Ends a job (its final state and report journaled, the API's waiters told).
  std::function<void(TrackedJob& job, JobState state, const std::string& error)> finish;
};

class JobRun {
 public:
  // `job` and what `services` names outlive the run; destroying it waits for a step record
  // in flight to be written or to fail. REQUIRES: the step executor has `job`'s exchange
  // attached.
  JobRun(TrackedJob& job, const JobServices& services);

  // The job's life to its end: it is finished whatever happens (an exception fails it),
  // and its last step record is no longer in flight.
  asio::awaitable<void> run();
  const TrackedJob& job() const { return job_; }

 private:
  // The phases in order. A phase lets the job go on, or has ended it itself (finished or
  // aborted, with the state and error that say why).
  enum class AfterPhase { go_on, job_ended };
  asio::awaitable<void> run_phases();
  asio::awaitable<AfterPhase> plan();
  asio::awaitable<AfterPhase> await_agents();
  asio::awaitable<AfterPhase> distribute_plans(JobPlans& plans);
  // Keeps the step's outcome in memory and starts its journal record, which trails the step:
  // it is settled before the next step's record, so the step after next is released only
  // once it is in the journal. A dataflow step's record is settled here (synchronous): it
  // may combine in place, so running it again is not safe.
  asio::awaitable<void> record_step(std::uint32_t step, const StepOutcome& outcome);
  // Step `step` on the per-step path (after `spent` attempts of a range that stopped at it,
  // which failed for `spent_failures`): recorded and followed for drift, or the job ended.
  asio::awaitable<AfterPhase> run_one_step(JobPlans& plans, std::uint32_t step, int spent,
                                           std::optional<error::Refusal> spent_failures);
  // Steps `first` to the last self-paced (docs/runtime.md, "Self-paced steps"), each
  // recorded as it passes: ok, or where it stopped (the job ended when cancelled).
  asio::awaitable<RangeOutcome> run_range(JobPlans& plans, std::uint32_t first);
  asio::awaitable<void> record_passed(std::uint32_t step, Clock::time_point started, double seconds);
  // Each node's timings of the range's steps before `passed_before` (the steps every node
  // passed), from the nodes' reports of the range's end.
  void record_range_timings(std::uint32_t passed_before);
  // Aborts the job on every agent (telling them `reason`) and finishes it with `error`.
  void abort(const JobPlans& plans, JobState state, const std::string& error, const std::string& reason);

  TrackedJob& job_;
  asio::any_io_executor io_;
  asio::any_io_executor planner_;
  AgentDirectory& agents_;
  journal::Store& journal_;
  StepExecutor& executor_;
  EventWait& events_;
  PlanCache& plan_cache_;
  Clock& clock_;
  const DriverOptions& options_;
  DriverMetrics& metrics_;
  log::Logger& log_;
  std::function<void(TrackedJob&, JobState, const std::string&)> finish_;
  TrailingRecord records_;  // the job's step record in flight
  DriftFollower drift_;
};

}  // namespace baton::coordinator
