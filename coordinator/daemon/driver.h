// The job driver (docs/runtime.md, "Steps"): queues submitted jobs and runs them one at a
// time through the phases of a job's life (driver_job_life.cpp):
//
//   plan → await agents → distribute plans → run each step (attempts) → record → end on
//   the agents → finish
//
// What is said to the agents, and waited for, is the step executor's (step_executor.h):
// offering plans, releasing a step behind the papers' barrier, retrying it, ending the
// run. The journal holds the job before it starts and every finished step, so a restarted
// coordinator resumes it (start()); a step's record is written while the next step runs
// (trailing_record.h), so a crash loses at most the last step's record, and that step runs
// again on resume. Between jobs it runs calibrations
// (driver_calibration.cpp); while a job runs, it follows drift (driver_drift.cpp).
//
// Threading: everything runs on the io_context's thread (the API reaches it by posting),
// except compiling a job's plan, which runs on a planner thread while the job waits.
// Waiting is on events: an agent's message, a cancel or a submit wakes the waiting phase.
#pragma once

#include "coordinator/calibration/drift.h"
#include "coordinator/calibration/prober.h"
#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/calibrations.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/driver_metrics.h"
#include "coordinator/daemon/driver_options.h"
#include "coordinator/daemon/event_wait.h"
#include "coordinator/daemon/job_plans.h"
#include "coordinator/daemon/job_spec.h"
#include "coordinator/daemon/measured_store.h"
#include "coordinator/daemon/object_queries.h"
#include "coordinator/daemon/plan_cache.h"
#include "coordinator/daemon/request_error.h"
#include "coordinator/daemon/step_executor.h"
#include "coordinator/daemon/tracked_job.h"
#include "coordinator/daemon/trailing_record.h"
#include "coordinator/journal/journal.h"
#include "coordinator/report/calibration_report.h"
#include "coordinator/report/job_report.h"
#include "error/result.h"
#include "log/log.h"

#include <asio/io_context.hpp>
#include <asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace baton::coordinator {

class Driver {
 public:
  using Json = nlohmann::ordered_json;

  Driver(asio::io_context& io, AgentDirectory& agents, journal::Store& journal, Clock& clock, DriverOptions options,
         log::Sink log);
  ~Driver();

  // Learns every job of the journal: the ended ones with their final reports, and the
  // unfinished ones queued again (they resume at their first unfinished step once their
  // agents are back). Then starts the run loop.
  void start();

  // Queues a job the caller parsed from `json` (parse_job_spec, off the io thread) and
  // journals `json`; returns its id. RequestError(bad_request) names the nodes that are not
  // registered, or why an in-place job cannot be staged; for a collective, what its nodes
  // lack (check_collective_nodes). REQUIRES: a collective's message lengths are resolved.
  std::uint64_t submit(JobSpec spec, const std::string& json);
  // Before a job is submitted: asks its nodes about `objects` (spec.objects(), the objects
  // it reads and writes: ObjectQueries); `done` gets their answers once every node answered
  // or the query was given up. Returns the query's id. RequestError(bad_request) as
  // check_collective_nodes for a collective.
  std::uint64_t ask_objects(const JobSpec& spec, const std::vector<std::pair<std::string, std::string>>& objects,
                            ObjectQueries::Done done);
  void give_up_objects(std::uint64_t query);
  const DriverOptions& options() const { return options_; }
  // RequestError(not_found) for an unknown job, RequestError(conflict) when it already ended.
  Json cancel(std::uint64_t id);
  // RequestError(not_found) for an unknown job.
  report::JobReport job_report(std::uint64_t id) const;
  Json job(std::uint64_t id) const;  // job_report as the API's JSON (tests; the API renders it off the io thread)
  Json jobs() const;
  Json agents() const;

  // Queues a calibration of the platform between `request`'s groups (docs/calibration.md)
  // and journals `json`; returns its id. RequestError(bad_request) names unregistered nodes.
  std::uint64_t calibrate(CalibrationRequest request, const std::string& json);
  // Cancels a queued calibration, or ends a running one at once (its probe step aborted on
  // the agents). RequestError(not_found) for an unknown one, (conflict) when it ended.
  Json cancel_calibration(std::uint64_t id);
  // RequestError(not_found) for an unknown calibration.
  report::CalibrationReport calibration_report(std::uint64_t id) const;
  Json calibration(std::uint64_t id) const;  // calibration_report as the API's JSON
  Json calibrations() const;
  // The newest done calibration, or none.
  std::optional<report::CalibrationReport> latest_calibration() const;

  // Called on the io thread whenever a job ends (the API's waiters, job_end_wait.h).
  void on_job_end(std::function<void()> ended) { job_ended_ = std::move(ended); }

  // A message from an agent (the registry's handler).
  void on_message(const std::string& node, const protocol::Envelope& message);

  // What the driver is doing, for logs and STATUS=: "idle", "job 7 step 3/10".
  std::string status() const;

  // Its metrics in Prometheus' text format (docs/metrics.md), gauges read now.
  std::string metrics();

 private:
  // A job that ended under an earlier coordinator, as the journal holds it.
  void remember_ended(const journal::JobRecord& record, JobState state);
  asio::awaitable<void> run_loop();
  // A job's life, phase by phase. A phase lets the job go on, or has ended it itself
  // (finished or aborted, with the state and error that say why).
  enum class AfterPhase { go_on, job_ended };
  asio::awaitable<void> run(TrackedJob& job);
  asio::awaitable<AfterPhase> plan(TrackedJob& job);
  asio::awaitable<AfterPhase> await_agents(TrackedJob& job);
  asio::awaitable<AfterPhase> distribute_plans(TrackedJob& job, JobPlans& plans);
  // Keeps the step's outcome in memory and starts its journal record, which trails the step:
  // it is settled before the next step's record, so the step after next is released only
  // once it is in the journal. A dataflow step's record is settled here (synchronous): it
  // may combine in place, so running it again is not safe.
  asio::awaitable<void> record_step(TrackedJob& job, std::uint32_t step, const StepOutcome& outcome);
  // Aborts the job on every agent (telling them `reason`) and finishes it with `error`.
  void abort(TrackedJob& job, const JobPlans& plans, JobState state, const std::string& error,
             const std::string& reason);
  void finish(TrackedJob& job, JobState state, const std::string& error);

  // Calibration (driver_calibration.cpp). A job without "platform" gets the newest
  // calibration of its nodes; returns the job's JSON to journal (with that platform and
  // calibration in it). RequestError(bad_request) says how to calibrate when there is none.
  std::string resolve_platform(JobSpec& spec, const std::string& json) const;
  asio::awaitable<void> run_calibration(TrackedCalibration& c);
  // Runs one probe step as a one-step run of its own through the step executor; its
  // measured seconds. Throws an error::Error naming the step and why it failed.
  asio::awaitable<double> run_probe(TrackedCalibration& c, const calibration::ProbeStep& step);

  // Drift (driver_drift.cpp). After step `step` is recorded: when the steps drifted from
  // the model, re-plans what remains and gives the agents the new plan; after steps on the
  // model, now and then tries a wider backbone, and judges the trial by its first steps.
  asio::awaitable<void> follow_drift(TrackedJob& job, JobPlans& plans, std::uint32_t step);
  asio::awaitable<void> replan_on_drift(TrackedJob& job, JobPlans& plans, const calibration::Drift& drift,
                                        std::size_t next);
  asio::awaitable<void> try_wider_backbone(TrackedJob& job, JobPlans& plans, std::size_t next);
  asio::awaitable<void> judge_trial(TrackedJob& job, JobPlans& plans, const calibration::StepSample& sample,
                                    std::size_t next);
  // On the planner thread: what remains from step `next` planned on `platform`, or why
  // the planner refused it (the result's detail).
  using RestPlan = error::Result<jobs::CompiledPlan>;
  asio::awaitable<RestPlan> plan_rest(const TrackedJob& job, std::size_t next,
                                      const schedule::kpbs::Platform& platform);
  // The re-plan made the job's: `record` completed with the predictions, journaled,
  // reported, and the new plan given to the agents.
  asio::awaitable<void> adopt_replan(TrackedJob& job, JobPlans& plans, std::size_t next,
                                     const schedule::kpbs::Platform& platform, jobs::CompiledPlan replanned,
                                     report::ReplanLine record);
  // On the planner thread: a resumed job's journaled re-plans applied to its first plan;
  // returns their report entries and the platform of the last, and in `trial_before` the
  // platform before the last when that one started a trial of a wider backbone.
  std::vector<report::ReplanLine> replay_replans(const TrackedJob& job, jobs::CompiledPlan& plan,
                                                 schedule::kpbs::Platform& platform,
                                                 std::optional<schedule::kpbs::Platform>& trial_before);

  // RequestError(bad_request) unless every node of the collective is registered with a rate (and a
  // combine speed for a reduce or allreduce) and no shared data root makes a write unsafe.
  void check_collective_nodes(const JobSpec& spec) const;
  bool alive(const std::string& node) const { return executor_.alive(node); }
  bool all_alive(const TrackedJob& job) const;
  // Each node's storage id, as its agent registered it.
  std::map<std::string, std::string> storages(const std::vector<std::string>& nodes) const;
  void on_job_status(const std::string& node, const protocol::JobStatus& status);

  asio::io_context& io_;
  AgentDirectory& agents_;
  DriverMetrics metrics_;
  MeasuredStore journal_;  // the store given, timed into metrics_
  Clock& clock_;
  DriverOptions options_;
  log::Logger log_;
  std::map<std::uint64_t, std::unique_ptr<TrackedJob>> jobs_;
  std::deque<std::uint64_t> queue_;
  TrackedJob* current_ = nullptr;
  EventWait events_;
  ObjectQueries objects_;
  StepExecutor executor_;
  TrailingRecord records_;  // the running job's step record in flight
  Calibrations calibrations_;
  TrackedCalibration* calibrating_ = nullptr;  // the calibration running, if any
  StepExchange* probe_ = nullptr;              // its probe step running, if any
  bool calibrated_last_ = false;               // the run loop's last run was a calibration
  std::uint64_t probes_ = 0;                   // probe steps run so far (their ids)
  PlanCache plan_cache_;          // the planner thread's: compiled plans for jobs that ask for the same again
  asio::thread_pool planner_{1};  // compiles plans off the io thread; joined first on destruction
  std::function<void()> job_ended_;
};

}  // namespace baton::coordinator
