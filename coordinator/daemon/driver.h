// The job driver (docs/runtime.md, "Steps" and "Jobs at once"): queues submitted jobs and
// runs those whose nodes are disjoint at the same time, each as a JobRun (job_run.h) through
// the phases of a job's life:
//
//   plan → await agents → distribute plans → run each step (attempts) → record → end on
//   the agents → finish
//
// What is said to the agents, and waited for, is the step executor's (step_executor.h):
// offering plans, releasing a step behind the papers' barrier, retrying it, ending the
// run. The journal holds the job before it starts and every finished step, so a restarted
// coordinator resumes every unfinished one (start()). Which waiting jobs start is
// start_order.h's rule: free nodes, a free slot (max_running_jobs), priority, then
// submission order. A calibration owns the nodes it probes: once it is queued no job starts
// until it has run, and it runs when no job does (calibrator.h); while a job runs, the job's
// run follows drift (drift_follower.h).
//
// What the driver keeps is the cluster's: every job it knows, the queue, the runs, the
// agents' messages, the calibrator, the plan cache and the planner thread; what one job's
// run keeps is the job's (TrackedJob) or the run's own.
//
// Threading: everything runs on the io_context's thread (the API reaches it by posting),
// except compiling a job's plan, which runs on a planner thread while the job waits.
// Waiting is on events: an agent's message, a cancel or a submit wakes the waiting phase.
#pragma once

#include "coordinator/daemon/agent_directory.h"
#include "coordinator/daemon/calibrator.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/driver_metrics.h"
#include "coordinator/daemon/driver_options.h"
#include "coordinator/daemon/event_wait.h"
#include "coordinator/daemon/job_run.h"
#include "coordinator/daemon/job_spec.h"
#include "coordinator/daemon/measured_store.h"
#include "coordinator/daemon/object_queries.h"
#include "coordinator/daemon/plan_cache.h"
#include "coordinator/daemon/request_error.h"
#include "coordinator/daemon/step_executor.h"
#include "coordinator/daemon/tracked_job.h"
#include "coordinator/journal/journal.h"
#include "coordinator/report/job_report.h"
#include "log/log.h"

#include <asio/io_context.hpp>
#include <asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

  // A job's submission is three calls, so that its journal record is written off the io
  // thread (the API's HTTP thread), where a slow commit (an fsync, etcd's round trip, a
  // large job's JSON) would hold the heartbeats' echoes and so every agent's session:
  //
  //   admit (io thread) → journal_job (any thread) → enqueue (io thread)
  //
  // admit checks a job the caller parsed from `json` (parse_job_spec, off the io thread)
  // and returns the JSON to journal (`json`, its platform resolved from a calibration when
  // it names none). RequestError(bad_request) names the nodes that are not registered, or
  // why an in-place job cannot be staged; for a collective, what its nodes lack
  // (check_collective_nodes); RequestError(too_many) when the queue is full (submissions
  // admitted at once may each pass that check before any is queued: the queue can exceed
  // max_queued_jobs by as many as the API has threads). REQUIRES: a collective's message
  // lengths are resolved.
  std::string admit(JobSpec& spec, const std::string& json);
  // Writes an admitted job's record (the journal's calls are thread-safe); its id and
  // submission time are the record's. Throws what the store throws.
  journal::JobRecord journal_job(const std::string& journaled, const jobs::LearntIdentities& identities);
  // Queues the journaled job; returns its id.
  std::uint64_t enqueue(const journal::JobRecord& record, JobSpec spec);
  // The three above on the caller's thread (tests, which run the io_context themselves).
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
  // The job's state and progress, without its plan's report (GET /v1/jobs/{id}?view=progress):
  // what a watcher polls, in time independent of the job's nodes and steps.
  report::JobReport job_progress(std::uint64_t id) const;
  Json job(std::uint64_t id) const;  // job_report as the API's JSON (tests; the API renders it off the io thread)
  Json jobs() const;
  Json agents() const;

  // Calibrations: queued, cancelled and reported through it (the API's), run between jobs.
  Calibrator& calibrator() { return calibrator_; }

  // Called on the io thread whenever a job ends (the API's waiters, job_end_wait.h).
  void on_job_end(std::function<void()> ended) { job_ended_ = std::move(ended); }

  // A message from an agent (the registry's handler).
  void on_message(const std::string& node, const protocol::Envelope& message);
  // An agent's session ended (the registry's): what waits on the node looks again.
  void on_agent_dead();

  // What the driver is doing, for logs and STATUS=: "idle, 0 job(s) queued",
  // "job 7 step 3/10, job 9 step 1/2, 2 queued".
  std::string status() const;

  // Its metrics in Prometheus' text format (docs/metrics.md), gauges read now.
  std::string metrics();

 private:
  // A job that ended under an earlier coordinator, as the journal holds it.
  void remember_ended(const journal::JobRecord& record, JobState state);
  // Starts the queue's jobs as their nodes come free, and between two jobs at most one
  // calibration.
  asio::awaitable<void> run_loop();
  // A calibration is queued and its turn has come: no job starts until it has run.
  bool calibration_due();
  // Takes job `id` off the queue and runs it beside the others.
  void start_job(std::uint64_t id);
  asio::awaitable<void> run_job(JobRun& run);
  // Gives each running job its share of each of its nodes (node_shares.h); each takes it
  // at its next step.
  void share_nodes();
  // Ends a job: its final state and report journaled, counted, the API's waiters told.
  void finish(TrackedJob& job, JobState state, const std::string& error);
  // RequestError(bad_request) unless every node of the collective is registered with a rate (and a
  // combine speed for a reduce or allreduce) and no shared data root makes a write unsafe.
  void check_collective_nodes(const JobSpec& spec) const;
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
  EventWait events_;
  ObjectQueries objects_;
  StepExecutor executor_;
  Calibrator calibrator_;
  bool calibrated_last_ = false;  // the run loop's last start was a calibration
  bool queue_changed_ = false;    // since the run loop last looked for jobs to start
  PlanCache plan_cache_;          // the planner thread's: compiled plans for jobs that ask for the same again
  // The jobs running, by id; destroyed before the journal (each may have a record in flight).
  std::map<std::uint64_t, std::unique_ptr<JobRun>> running_;
  asio::thread_pool planner_{1};  // compiles plans off the io thread; joined before the members above go
  JobServices services_;          // what each job's run uses of the above
  std::function<void()> job_ended_;
};

}  // namespace baton::coordinator
