// A job's life (driver.h): from the queue through its phases to its end, each phase that
// fails finishing the job with why.
#include "coordinator/collectives/collective_compiler.h"
#include "coordinator/daemon/collective_nodes.h"
#include "coordinator/daemon/driver.h"
#include "coordinator/daemon/job_view.h"

#include <asio/bind_executor.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>

namespace baton::coordinator {
namespace {

using std::chrono::milliseconds;

}  // namespace

asio::awaitable<void> Driver::run_loop() {
  for (;;) {
    co_await events_.until([this] { return !queue_.empty() || calibrations_.next_queued(); }, Clock::time_point::max());
    // A calibration before the next job (it takes seconds, and jobs submitted after it may
    // be planned on it), but never two in a row while a job waits: between two jobs runs
    // at most one calibration (docs/calibration.md, "Queues").
    TrackedCalibration* calibration = calibrations_.next_queued();
    if (calibration && (queue_.empty() || !calibrated_last_)) {
      calibrated_last_ = true;
      co_await run_calibration(*calibration);
      continue;
    }
    calibrated_last_ = false;
    TrackedJob& job = *jobs_.at(queue_.front());
    queue_.pop_front();
    current_ = &job;
    job.exchange.job = std::to_string(job.id);
    job.exchange.nodes = job.nodes();
    executor_.attach(&job.exchange);  // the agents' answers go to the job running
    try {
      co_await run(job);
    } catch (const std::exception& e) {
      finish(job, JobState::failed, e.what());
    }
    co_await records_.drain();  // a failed job's record in flight, before the next job's
    executor_.attach(nullptr);
    current_ = nullptr;
  }
}

asio::awaitable<void> Driver::run(TrackedJob& job) {
  // A collective is planned on what its agents registered: they must be back first.
  if (job.spec->kind != jobs::JobKind::redistribution && co_await await_agents(job) == AfterPhase::job_ended) co_return;
  if (co_await plan(job) == AfterPhase::job_ended) co_return;
  if (co_await await_agents(job) == AfterPhase::job_ended) co_return;
  JobPlans plans(job.id, job.submitted, *job.spec, *job.plan, storages(job.nodes()), executor_.addresses(job.nodes()));
  if (co_await distribute_plans(job, plans) == AfterPhase::job_ended) co_return;
  for (std::uint32_t s = job.resume_from; s < job.plan->steps.size(); ++s) {
    job.step = s;
    const StepOutcome outcome =
        co_await executor_.run_step(job.exchange, plans, s, job.plan->steps[s].expected_seconds());
    if (job.exchange.cancel_requested || !outcome.ok) co_await records_.settle();  // the job's writes in order
    if (job.exchange.cancel_requested) {
      abort(job, plans, JobState::cancelled, "cancelled at step " + std::to_string(s), "cancelled by the operator");
      co_return;
    }
    if (!outcome.ok) {
      abort(job, plans, JobState::failed,
            "step " + std::to_string(s) + " failed " + std::to_string(outcome.attempts) +
                " times: " + outcome.failures->reason,
            "step " + std::to_string(s) + " failed");
      co_return;
    }
    co_await record_step(job, s, outcome);
    co_await follow_drift(job, plans, s);
  }
  // Every step in the journal before the agents put staged files in place: a step run again
  // after that would read what the job wrote.
  co_await records_.settle();
  job.step = static_cast<std::uint32_t>(job.plan->steps.size());
  const std::optional<error::Refusal> ended = co_await executor_.end(job.exchange, plans);
  finish(job, ended ? JobState::failed : JobState::done, ended ? ended->reason : "");
}

// Planning a large job takes a while: on a thread of its own, so heartbeats and the API go
// on meanwhile (the security review's 2.7 s stall declared 9 agents dead).
asio::awaitable<Driver::AfterPhase> Driver::plan(TrackedJob& job) {
  job.state = JobState::planning;
  journal_.set_state(job.id, std::string(name(job.state)));
  const JobSpec& spec = *job.spec;
  const bool collective = spec.kind != jobs::JobKind::redistribution;
  std::optional<error::Refusal> planning_error =
      collective ? collective_nodes_problem(spec.collective, agents_) : std::nullopt;
  std::optional<collectives::CollectiveModel> model;  // the agents' registrations, read on the io thread
  if (collective && !planning_error) {
    model = collective_model(spec.collective, agents_, options_.collective_startup);
  }
  co_await asio::post(asio::bind_executor(planner_.get_executor(), asio::use_awaitable));
  std::optional<jobs::CompiledPlan> compiled;  // job.plan is the io thread's: the API reads it
  schedule::kpbs::Platform platform = spec.platform;
  std::vector<report::ReplanLine> replans;
  std::optional<schedule::kpbs::Platform> trial_before;  // a resumed job's trial, judged again
  std::optional<std::uint64_t> reused_from;
  try {
    if (collective) {
      if (model) compiled = collectives::compile_collective(spec.collective, *model);
    } else {
      // A measured backbone is used in full where that lowers the bound (docs/calibration.md).
      if (!spec.calibration.empty()) platform = calibration::fullest_platform(platform, spec.clusters, spec.transfers);
      // A fresh job of the same inputs as a recent one takes its plan (plan_cache.h); a
      // resumed one is planned as it was, then its re-plans replayed.
      const bool cacheable = !job.resumed && spec.transfers.size() <= PlanCache::kMaxTransfers;
      std::optional<PlanInputs> inputs;
      if (cacheable) inputs = PlanInputs{spec.clusters, spec.transfers, platform, spec.algorithm};
      if (std::optional<PlanCache::Hit> hit = inputs ? plan_cache_.find(*inputs) : std::nullopt) {
        compiled = std::move(hit->plan);
        reused_from = hit->job;
      } else {
        compiled = jobs::compile_plan(spec.clusters, spec.transfers, platform, spec.algorithm);
        if (inputs) plan_cache_.keep(std::move(*inputs), job.id, *compiled);
      }
      replans = replay_replans(job, *compiled, platform, trial_before);
    }
  } catch (const std::exception& e) {
    compiled.reset();
    planning_error = e.what();
  }
  co_await asio::post(asio::bind_executor(io_.get_executor(), asio::use_awaitable));
  if (!compiled) {
    finish(job, JobState::failed, "planning: " + planning_error.value_or("").reason);
    co_return AfterPhase::job_ended;
  }
  // Collective jobs are planned from the nodes' rates: calibration and drift are a
  // redistribution's.
  job.drift.enabled = !collective && !compiled->shared_links && options_.replan_on_drift &&
                      spec.replan.value_or(!spec.calibration.empty());
  job.drift.platform = platform;
  job.drift.sender_rate = spec.platform.sender_rate;
  job.drift.receiver_rate = spec.platform.receiver_rate;
  job.drift.detector = calibration::DriftDetector(options_.drift);
  job.drift.widening = calibration::WideningSchedule(options_.drift);
  job.drift.replans = std::move(replans);
  if (trial_before) job.drift.trial = JobDrift::Trial{.before = *trial_before, .steps = {}};
  job.plan = std::move(compiled);
  job.plan_reused_from = reused_from;
  for (const jobs::StepPlan& s : job.plan->steps) job.bytes_total += s.bytes;
  for (const journal::StepRecord& s : job.steps) job.bytes_done += s.bytes;
  co_return AfterPhase::go_on;
}

// Every agent must be alive; a resumed job waits for them to come back.
asio::awaitable<Driver::AfterPhase> Driver::await_agents(TrackedJob& job) {
  const auto wait = job.resumed ? options_.agents_timeout : milliseconds(0);
  if (co_await events_.until([&] { return all_alive(job) || job.exchange.cancel_requested; }, clock_.now() + wait))
    co_return AfterPhase::go_on;
  std::string dead;
  for (const std::string& n : job.nodes()) {
    if (!alive(n)) dead += (dead.empty() ? "" : ", ") + n;
  }
  finish(job, JobState::failed, "agents not alive: " + dead);
  co_return AfterPhase::job_ended;
}

asio::awaitable<Driver::AfterPhase> Driver::distribute_plans(TrackedJob& job, JobPlans& plans) {
  job.state = JobState::running;
  journal_.set_state(job.id, std::string(name(job.state)));
  job.started = clock_.now();
  // A resumed job's agents may still be finishing the step the old coordinator released;
  // they answer the plan when it ends (docs/runtime.md, "Coordinator restarts").
  const auto longer = job.resumed ? options_.min_step_timeout + options_.report_grace : milliseconds(0);
  // A silent agent is offered its plan again as often as a step is attempted.
  const std::optional<error::Refusal> refused =
      co_await executor_.offer(job.exchange, plans, longer, options_.step_attempts);
  if (!refused && !job.exchange.cancel_requested) co_return AfterPhase::go_on;
  const std::string why = job.exchange.cancel_requested ? "cancelled" : refused->reason;
  abort(job, plans, job.exchange.cancel_requested ? JobState::cancelled : JobState::failed, why, why);
  co_return AfterPhase::job_ended;
}

asio::awaitable<void> Driver::record_step(TrackedJob& job, std::uint32_t step, const StepOutcome& outcome) {
  const jobs::StepPlan& planned = job.plan->steps[step];
  const journal::StepRecord record{.step = step,
                                   .attempts = static_cast<std::uint32_t>(outcome.attempts),
                                   .predicted = planned.predicted_seconds,
                                   .measured = outcome.measured,
                                   .bytes = planned.bytes,
                                   .finished = journal::utc_now()};
  job.steps.push_back(record);
  StepTiming& timing = job.timing[step];
  timing.started = seconds_between(job.started, outcome.released);
  for (const jobs::PlannedNode& node : planned.nodes) {
    const protocol::StepReport& report = job.exchange.reports.at(node.node);
    timing.nodes[node.node] = NodeTiming{report.seconds(), report.bytes()};
    if (report.tasks_size() > 0) timing.tasks[node.node].assign(report.tasks().begin(), report.tasks().end());
  }
  job.exchange.progress.clear();
  job.bytes_done += planned.bytes;
  metrics_.step_done(record);
  // Logged once journaled: a step said done is one a resumed job does not run again.
  const bool dataflow = !planned.tasks.empty();
  std::string done = "job " + std::to_string(job.id) + " step " + std::to_string(step) + "/" +
                     std::to_string(job.plan->steps.size()) + ": done, " + std::to_string(planned.bytes) +
                     " bytes in " + std::to_string(outcome.measured) + " s (model " +
                     std::to_string(planned.predicted_seconds) + " s)";
  co_await records_.settle();  // the step before: the release of the next step waits for it
  records_.start(journal_, job.id, record, [this, done = std::move(done)] {
    if (log_) log_.info(done);
  });
  // A lockstep step (a redistribution's, a buffered multicast's) may run again after the
  // next one: what it reads is a source the job never writes (an in-place destination is
  // staged) or a message an earlier round delivered, and no byte is written twice, so a
  // second run writes the same bytes at the same offsets. A dataflow step may fold into its
  // own input (a reduce in place): its record is never left in flight.
  if (dataflow) co_await records_.settle();
}

void Driver::abort(TrackedJob& job, const JobPlans& plans, JobState state, const std::string& error,
                   const std::string& reason) {
  executor_.abort(job.exchange, plans, reason);
  finish(job, state, error);
}

void Driver::finish(TrackedJob& job, JobState state, const std::string& error) {
  job.state = state;
  job.error = error;
  if (job.started != Clock::time_point{}) job.measured_seconds = seconds_between(job.started, clock_.now());
  journal_.set_state(job.id, std::string(name(state)), error);
  journal_.set_report(job.id, report::to_json(coordinator::job_report(job, clock_.now())).dump());
  metrics_.job_finished(state);
  if (job_ended_) job_ended_();
  if (log_)
    log_.info("job " + std::to_string(job.id) + ": " + std::string(name(state)) + (error.empty() ? "" : ": " + error));
}

}  // namespace baton::coordinator
