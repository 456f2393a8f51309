// Drift (docs/calibration.md, "Drift"), one job's run: each finished step against its
// prediction; on drift, new figures from the measured steps, a re-plan of what remains
// (coordinator/jobs/replan.h), checked before the agents get it, journaled so that a
// resumed job rebuilds the same plan, and recorded in the job's report. After steps on the
// model, now and then a trial of a wider backbone (calibration/widening.h), re-planned back
// when its first steps run slow; a resumed job whose last re-plan started a trial judges it
// again. The job's run (job_run.h) owns one and calls it after each recorded step.
//
// What drift keeps of a job is the job's (TrackedJob::drift, JobDrift): the follower holds
// only what it uses of the coordinator, so one per running job is cheap.
//
// Threading: the io thread's, except re-planning, which runs on the planner's executor.
#pragma once

#include "coordinator/calibration/drift.h"
#include "coordinator/daemon/clock.h"
#include "coordinator/daemon/driver_options.h"
#include "coordinator/daemon/job_plans.h"
#include "coordinator/daemon/step_executor.h"
#include "coordinator/daemon/tracked_job.h"
#include "coordinator/daemon/trailing_record.h"
#include "coordinator/jobs/plan_compiler.h"
#include "coordinator/journal/journal.h"
#include "coordinator/report/job_report.h"
#include "error/result.h"
#include "log/log.h"

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baton::coordinator {

class DriftFollower {
 public:
  // `io`: the thread everything but re-planning runs on; `planner`: the one re-plans are
  // compiled on. `records`: the job's step record in flight, settled before a re-plan is
  // journaled. `executor` gives the agents a new plan.
  DriftFollower(asio::any_io_executor io, asio::any_io_executor planner, journal::Store& journal,
                StepExecutor& executor, TrailingRecord& records, Clock& clock, const DriverOptions& options,
                log::Logger& log);

  // The job's drift from its first plan `plan`, made on `platform` (a resumed job's: with
  // its journaled re-plans replayed, their `replans` and the trial they left, if any):
  // whether it is followed at all, and the model its steps are held to.
  void start(TrackedJob& job, const jobs::CompiledPlan& plan, const schedule::kpbs::Platform& platform,
             std::vector<report::ReplanLine> replans, const std::optional<schedule::kpbs::Platform>& trial_before);
  // After step `step` is recorded: when the steps drifted from the model, re-plans what
  // remains and gives the agents the new plan; after steps on the model, now and then
  // tries a wider backbone, and judges the trial by its first steps.
  asio::awaitable<void> follow_drift(TrackedJob& job, JobPlans& plans, std::uint32_t step);
  // Before step `next` of a redistribution: when its share of its nodes (job.share.pace)
  // is not the pace its plan was made for (job.paced_at), re-plans what remains on its
  // rates scaled to the new share, journaled and given to the agents as a re-plan on
  // drift is (docs/runtime.md, "Jobs that share nodes"). A re-plan the planner refuses
  // leaves the plan as it is, and is tried again before the next step.
  asio::awaitable<void> follow_share(TrackedJob& job, JobPlans& plans, std::size_t next);
  // On the planner thread: a resumed job's journaled re-plans applied to its first plan;
  // returns their report entries and the platform of the last, and in `trial_before` the
  // platform before the last when that one started a trial of a wider backbone.
  std::vector<report::ReplanLine> replay_replans(const TrackedJob& job, jobs::CompiledPlan& plan,
                                                 schedule::kpbs::Platform& platform,
                                                 std::optional<schedule::kpbs::Platform>& trial_before);

 private:
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
  // plan_rest, or none when the planner refused it: then `record`, saying why, is the job's
  // (in its report), and the plan the agents hold goes on.
  asio::awaitable<std::optional<jobs::CompiledPlan>> plan_rest_or_keep(TrackedJob& job, std::size_t next,
                                                                       const schedule::kpbs::Platform& platform,
                                                                       report::ReplanLine& record);
  // The re-plan made the job's: `record` completed with the predictions, journaled,
  // reported, and the new plan given to the agents.
  asio::awaitable<void> adopt_replan(TrackedJob& job, JobPlans& plans, std::size_t next,
                                     const schedule::kpbs::Platform& platform, jobs::CompiledPlan replanned,
                                     report::ReplanLine record);

  asio::any_io_executor io_;
  asio::any_io_executor planner_;
  journal::Store& journal_;
  StepExecutor& executor_;
  TrailingRecord& records_;
  Clock& clock_;
  const DriverOptions& options_;
  log::Logger& log_;
};

}  // namespace baton::coordinator
