// Drift in a job's run (drift_follower.h).
#include "coordinator/daemon/drift_follower.h"

#include "coordinator/calibration/calibration.h"
#include "coordinator/daemon/node_shares.h"
#include "coordinator/jobs/replan.h"
#include "coordinator/jobs/step_time.h"
#include "coordinator/json/input.h"
#include "coordinator/json/platform.h"

#include <asio/bind_executor.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>
#include <sstream>

namespace baton::coordinator {
namespace {

using Json = nlohmann::ordered_json;
namespace kpbs = schedule::kpbs;

calibration::Model model_of(const kpbs::Platform& p) {
  return {.d = kpbs::flow_rate(p), .D = p.backbone_rate, .beta = p.step_startup};
}

report::ModelLine model_line(const calibration::Model& m, int k) {
  return report::ModelLine{.k = k, .d = m.d, .D = m.D, .beta = m.beta};
}

report::ReplanCause replan_cause(calibration::Cause cause) {
  switch (cause) {
    case calibration::Cause::backbone: return report::ReplanCause::backbone;
    case calibration::Cause::nodes: return report::ReplanCause::nodes;
    case calibration::Cause::startup: return report::ReplanCause::startup;
  }
  return report::ReplanCause::backbone;
}

// What the model says `step` of a scheduled plan takes on `model` (jobs::step_seconds, with
// D as the backbone): its longest flow is its busiest node's.
double predicted_on(const jobs::StepPlan& step, const calibration::Model& model) {
  std::uint64_t longest = 0;
  for (const jobs::Flow& f : step.flows) longest = std::max(longest, f.bytes);
  const auto longest_flow = static_cast<double>(longest);
  return jobs::step_seconds(
      model.beta, model.d, model.D,
      {.longest_flow = longest_flow, .busiest_node = longest_flow, .bytes = static_cast<double>(step.bytes)});
}

// The figures of a finished step as drift reads them: its prediction, its time, and each
// receiver's flow.
calibration::StepSample sample_of(const TrackedJob& job, std::uint32_t step) {
  const jobs::StepPlan& planned = job.plan->steps[step];
  calibration::StepSample sample{.step = step,
                                 .predicted = planned.predicted_seconds,
                                 .measured = job.steps.back().measured,
                                 .bytes = planned.bytes,
                                 .longest_flow = 0,
                                 .flows = {}};
  const StepTiming& timing = job.timing.at(step);
  for (const jobs::Flow& f : planned.flows) {
    sample.longest_flow = std::max(sample.longest_flow, f.bytes);
    const auto node = timing.nodes.find(job.spec->clusters.receivers.at(f.receiver));
    if (node != timing.nodes.end()) sample.flows.push_back({node->second.bytes, node->second.seconds});
  }
  return sample;
}

report::ReplanLine record_of(const TrackedJob& job, std::size_t next, std::chrono::duration<double> elapsed,
                             const std::string& why, report::ReplanCause cause) {
  report::ReplanLine record;
  record.at_step = next;
  record.when = journal::utc_now();
  record.elapsed_seconds = elapsed.count();
  record.why = why;
  record.cause = cause;
  record.old_model = model_line(model_of(job.drift.platform), job.plan->k);
  return record;
}

double remaining_seconds(const jobs::CompiledPlan& plan, std::size_t next) {
  double seconds = 0;
  for (std::size_t s = next; s < plan.steps.size(); ++s) seconds += plan.steps[s].predicted_seconds;
  return seconds;
}

}  // namespace

DriftFollower::DriftFollower(asio::any_io_executor io, asio::any_io_executor planner, journal::Store& journal,
                             StepExecutor& executor, TrailingRecord& records, Clock& clock,
                             const DriverOptions& options, log::Logger& log)
    : io_(std::move(io)), planner_(std::move(planner)), journal_(journal), executor_(executor), records_(records),
      clock_(clock), options_(options), log_(log) {}

void DriftFollower::start(TrackedJob& job, const jobs::CompiledPlan& plan, const kpbs::Platform& platform,
                          std::vector<report::ReplanLine> replans, const std::optional<kpbs::Platform>& trial_before) {
  const JobSpec& spec = *job.spec;
  // Collective jobs are planned from the nodes' rates: calibration and drift are a
  // redistribution's. Drift's model is one d and one D, which would drop each node's own
  // rate: a job that gives them is not re-planned.
  const bool own_rates = !spec.platform.sender_rates.empty() || !spec.platform.receiver_rates.empty();
  job.drift.enabled = spec.kind == jobs::JobKind::redistribution && !plan.shared_links && !own_rates &&
                      options_.replan_on_drift && spec.replan.value_or(!spec.calibration.empty());
  job.drift.platform = platform;
  job.drift.sender_rate = spec.platform.sender_rate;
  job.drift.receiver_rate = spec.platform.receiver_rate;
  job.drift.detector = calibration::DriftDetector(options_.drift);
  job.drift.widening = calibration::WideningSchedule(options_.drift);
  job.paced_at = 1;  // a resumed job's plan is at the pace of its last re-plan for a share
  for (const report::ReplanLine& r : replans) {
    if (r.share && !r.error) job.paced_at = *r.share;
  }
  job.drift.sender_rate *= job.paced_at;
  job.drift.receiver_rate *= job.paced_at;
  job.drift.replans = std::move(replans);
  if (trial_before) job.drift.trial = JobDrift::Trial{.before = *trial_before, .steps = {}};
}

asio::awaitable<void> DriftFollower::follow_drift(TrackedJob& job, JobPlans& plans, std::uint32_t step) {
  if (!job.drift.enabled) co_return;
  const calibration::StepSample sample = sample_of(job, step);
  const std::size_t next = step + 1;
  if (job.drift.trial) {
    co_await judge_trial(job, plans, sample, next);
    co_return;
  }
  const std::optional<calibration::Drift> drift = job.drift.detector.observe(sample);
  if (next >= job.plan->steps.size()) co_return;
  if (drift) {
    co_await replan_on_drift(job, plans, *drift, next);
  } else if (job.drift.widening.due(calibration::on_model(sample, options_.drift))) {
    co_await try_wider_backbone(job, plans, next);
  }
}

asio::awaitable<void> DriftFollower::follow_share(TrackedJob& job, JobPlans& plans, std::size_t next) {
  const double pace = job.share.pace;
  if (job.spec->kind != jobs::JobKind::redistribution || pace == job.paced_at || next >= job.plan->steps.size())
    co_return;
  const double ratio = pace / job.paced_at;
  const kpbs::Platform platform = scaled_rates(job.drift.platform, ratio);
  std::ostringstream why;
  why.precision(3);
  why << "its share of its nodes' rates is now " << pace << " (was " << job.paced_at << ")";
  if (log_)
    log_.info("job " + std::to_string(job.id) + ": " + why.str() + "; re-planning from step " + std::to_string(next));
  report::ReplanLine record = record_of(job, next, clock_.now() - job.started, why.str(), report::ReplanCause::share);
  record.share = pace;
  std::optional<jobs::CompiledPlan> replanned = co_await plan_rest_or_keep(job, next, platform, record);
  if (!replanned) co_return;
  job.drift.sender_rate *= ratio;  // the rates a wider backbone's trial is planned on
  job.drift.receiver_rate *= ratio;
  job.paced_at = pace;
  co_await adopt_replan(job, plans, next, platform, std::move(*replanned), std::move(record));
}

asio::awaitable<void> DriftFollower::replan_on_drift(TrackedJob& job, JobPlans& plans, const calibration::Drift& drift,
                                                     std::size_t next) {
  const calibration::Model before = model_of(job.drift.platform);
  const calibration::Estimate estimate =
      calibration::estimate(before, drift, options_.drift, job.drift.last ? &*job.drift.last : nullptr);
  const kpbs::Platform& old = job.drift.platform;
  // The backbone used in full where that lowers the bound, as for the first plan.
  const kpbs::Platform platform =
      calibration::fullest_platform(calibration::measured_platform(std::min(old.sender_rate, estimate.model.d),
                                                                   std::min(old.receiver_rate, estimate.model.d),
                                                                   estimate.model.D, estimate.model.beta),
                                    job.spec->clusters, job.spec->transfers);
  const std::string why = calibration::describe(drift, options_.drift);
  if (log_) log_.info("job " + std::to_string(job.id) + ": " + why + "; re-planning from step " + std::to_string(next));
  report::ReplanLine record = record_of(job, next, clock_.now() - job.started, why, replan_cause(estimate.cause));
  job.drift.detector.reset();
  std::optional<jobs::CompiledPlan> replanned = co_await plan_rest_or_keep(job, next, platform, record);
  if (!replanned) co_return;
  if (estimate.cause == calibration::Cause::nodes) {
    job.drift.sender_rate = std::min(job.drift.sender_rate, estimate.model.d);
    job.drift.receiver_rate = std::min(job.drift.receiver_rate, estimate.model.d);
  }
  job.drift.last = estimate;
  // A backbone seen narrowing is no wider than the model: wait as after a failed trial (a
  // trial on a just-narrowed backbone once stalled its step 5x, TCP backing off).
  if (estimate.cause == calibration::Cause::backbone && estimate.model.D < before.D) job.drift.widening.trial_failed();
  co_await adopt_replan(job, plans, next, platform, std::move(*replanned), std::move(record));
}

// A wider backbone does not show in steps paced at d (calibration/widening.h): the rest is
// planned on widen_factor × D, and run when that plan promises more than the drift
// threshold's worth of time; its first steps then judge it (judge_trial).
asio::awaitable<void> DriftFollower::try_wider_backbone(TrackedJob& job, JobPlans& plans, std::size_t next) {
  const kpbs::Platform before = job.drift.platform;
  const calibration::Model wider = calibration::widened(model_of(before), options_.drift);
  const kpbs::Platform platform = calibration::fullest_platform(
      calibration::measured_platform(job.drift.sender_rate, job.drift.receiver_rate, wider.D, before.step_startup),
      job.spec->clusters, job.spec->transfers);
  // Failed trials within their budget (calibration/widening.h), more steps than judging
  // it takes, and a gain beyond the threshold: the wider plan is made only within budget.
  std::optional<RestPlan> replanned;
  if (!calibration::trials_spent(job.drift.trial_costs(), job.plan->predicted_seconds, options_.drift))
    replanned = co_await plan_rest(job, next, platform);
  jobs::CompiledPlan* wider_plan = replanned && replanned->ok() ? &replanned->value : nullptr;
  const std::string refused = replanned && !replanned->ok() ? replanned->detail : "";
  const auto rest = [&](const jobs::CompiledPlan& plan) {
    return calibration::RestOfPlan{
        .k = plan.k, .steps = plan.steps.size() - next, .seconds = remaining_seconds(plan, next)};
  };
  const calibration::TrialDecision decision = calibration::consider_trial(
      job.drift.trial_costs(), job.plan->predicted_seconds, rest(*job.plan),
      wider_plan ? std::optional(rest(*wider_plan)) : std::nullopt, refused, options_.drift);
  if (decision.action != calibration::TrialAction::run) {
    if (decision.action == calibration::TrialAction::stop) job.drift.widening.stop();
    else job.drift.widening.trial_failed();  // nothing to gain from a wider backbone now: wait longer
    if (log_)
      log_.info("job " + std::to_string(job.id) + ": no trial of a wider backbone at step " + std::to_string(next) +
                ": " + decision.why);
    co_return;
  }
  std::ostringstream why;
  why.precision(3);
  const int on_model = job.drift.widening.wait();
  why << on_model << (on_model == 1 ? " step" : " steps") << " on the model: trying a backbone of " << wider.D / 1e6
      << " MB/s (" << options_.drift.widen_factor << "x) for the rest";
  if (log_) log_.info("job " + std::to_string(job.id) + ": " + why.str() + " from step " + std::to_string(next));
  report::ReplanLine record = record_of(job, next, clock_.now() - job.started, why.str(), report::ReplanCause::trial);
  co_await adopt_replan(job, plans, next, platform, std::move(*wider_plan), std::move(record));
  job.drift.trial = JobDrift::Trial{.before = before, .steps = {}};
}

asio::awaitable<void> DriftFollower::judge_trial(TrackedJob& job, JobPlans& plans,
                                                 const calibration::StepSample& sample, std::size_t next) {
  JobDrift::Trial& trial = *job.drift.trial;
  if (!calibration::tests_backbone(sample, model_of(job.drift.platform), model_of(trial.before), options_.drift))
    co_return;
  trial.steps.push_back(sample);
  if (static_cast<int>(trial.steps.size()) < options_.drift.widen_judge_steps) co_return;
  const kpbs::Platform before = trial.before;
  const calibration::TrialVerdict verdict =
      calibration::judge_trial(trial.steps, model_of(job.drift.platform), model_of(before), options_.drift);
  job.drift.trial.reset();
  job.drift.detector.reset();
  if (verdict.kept) {
    job.drift.widening.trial_kept();
    if (log_) log_.info("job " + std::to_string(job.id) + ": " + verdict.why + "; the trial's plan stays");
    co_return;
  }
  job.drift.widening.trial_failed();
  if (next >= job.plan->steps.size()) co_return;
  // Back to the plan's model before the trial, or on the wider backbone the steps showed.
  const kpbs::Platform platform =
      verdict.D == model_of(before).D
          ? before
          : calibration::fullest_platform(calibration::measured_platform(job.drift.sender_rate, job.drift.receiver_rate,
                                                                         verdict.D, before.step_startup),
                                          job.spec->clusters, job.spec->transfers);
  if (log_)
    log_.info("job " + std::to_string(job.id) + ": " + verdict.why + "; re-planning from step " + std::to_string(next));
  report::ReplanLine record =
      record_of(job, next, clock_.now() - job.started, verdict.why, report::ReplanCause::trial_failed);
  record.cost_seconds = verdict.cost;
  // Refused, the trial's plan is valid too: it goes on, and drift follows it.
  std::optional<jobs::CompiledPlan> replanned = co_await plan_rest_or_keep(job, next, platform, record);
  if (!replanned) co_return;
  co_await adopt_replan(job, plans, next, platform, std::move(*replanned), std::move(record));
}

asio::awaitable<DriftFollower::RestPlan> DriftFollower::plan_rest(const TrackedJob& job, std::size_t next,
                                                                  const kpbs::Platform& platform) {
  // On the planner thread, like the first plan: a large job's re-plan takes a while.
  const jobs::CompiledPlan current = *job.plan;
  co_await asio::post(asio::bind_executor(planner_, asio::use_awaitable));
  RestPlan replanned;
  try {
    replanned.value =
        jobs::replan(current, next, job.spec->clusters, job.spec->transfers, platform, job.spec->algorithm);
  } catch (const std::exception& e) {
    replanned = {.error = std::make_error_code(std::errc::invalid_argument), .detail = e.what(), .value = {}};
  }
  co_await asio::post(asio::bind_executor(io_, asio::use_awaitable));
  co_return replanned;
}

asio::awaitable<std::optional<jobs::CompiledPlan>> DriftFollower::plan_rest_or_keep(TrackedJob& job, std::size_t next,
                                                                                    const kpbs::Platform& platform,
                                                                                    report::ReplanLine& record) {
  RestPlan replanned = co_await plan_rest(job, next, platform);
  if (replanned.ok()) co_return std::move(replanned.value);
  // never into an invalid state: the plan the agents hold goes on
  record.error = "not re-planned: " + replanned.detail;
  job.drift.replans.push_back(record);
  if (log_) log_.warning("job " + std::to_string(job.id) + ": not re-planned: " + replanned.detail);
  co_return std::nullopt;
}

asio::awaitable<void> DriftFollower::adopt_replan(TrackedJob& job, JobPlans& plans, std::size_t next,
                                                  const kpbs::Platform& platform, jobs::CompiledPlan replanned,
                                                  report::ReplanLine record) {
  double kept_seconds = 0;
  for (std::size_t s = next; s < job.plan->steps.size(); ++s)
    kept_seconds += predicted_on(job.plan->steps[s], model_of(platform));
  record.new_model = model_line(model_of(platform), replanned.k);
  record.steps_before = job.plan->steps.size() - next;
  record.steps_after = replanned.steps.size() - next;
  record.predicted_remaining_seconds_before = remaining_seconds(*job.plan, next);  // the old plan on the old model
  record.predicted_remaining_seconds_kept = kept_seconds;                          // the old plan on the new model
  record.predicted_remaining_seconds_after = remaining_seconds(replanned, next);   // the new plan on the new model
  co_await records_.settle();  // the journal holds the job's records in the order they happened
  journal_.add_replan(job.id, {.at_step = static_cast<std::uint32_t>(next),
                               .platform = json::platform_json(platform).dump(),
                               .record = report::replan_json(record).dump()});
  job.plan = std::move(replanned);
  job.drift.platform = platform;
  job.drift.detector.reset();
  job.drift.widening.plan_changed();
  job.drift.replans.push_back(std::move(record));
  plans.rebuild(*job.plan);
  job.exchange.holding.clear();
  // Refusals and silence are the next step's to handle: it gives the plan again to every
  // node that does not hold it, and fails its attempt with their reasons.
  if (const std::optional<error::Refusal> lost =
          co_await executor_.offer(job.exchange, plans, std::chrono::milliseconds(0), 1);
      lost && log_)
    log_.warning("job " + std::to_string(job.id) + ": the re-plan: " + lost->reason);
}

std::vector<report::ReplanLine> DriftFollower::replay_replans(const TrackedJob& job, jobs::CompiledPlan& plan,
                                                              kpbs::Platform& platform,
                                                              std::optional<kpbs::Platform>& trial_before) {
  std::vector<report::ReplanLine> records;
  for (const journal::ReplanRecord& r : journal_.replans(job.id)) {
    const kpbs::Platform before = platform;
    platform = json::parse_platform(Json::parse(r.platform), "platform");
    plan = jobs::replan(plan, r.at_step, job.spec->clusters, job.spec->transfers, platform, job.spec->algorithm);
    records.push_back(report::parse_replan(Json::parse(r.record), json::element_path("replans", records.size())));
    trial_before.reset();
    if (records.back().cause == report::ReplanCause::trial) trial_before = before;
  }
  return records;
}

}  // namespace baton::coordinator
