// A job's life (job_run.h): from the queue through its phases to its end, each phase that
// fails finishing the job with why.
#include "coordinator/daemon/job_run.h"

#include "coordinator/calibration/calibration.h"
#include "coordinator/collectives/collective_compiler.h"
#include "coordinator/daemon/collective_nodes.h"
#include "error/error.h"

#include <asio/bind_executor.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>

namespace baton::coordinator {
namespace {

using std::chrono::milliseconds;

}  // namespace

JobRun::JobRun(TrackedJob& job, const JobServices& services)
    : job_(job), io_(services.io), planner_(services.planner), agents_(services.agents), journal_(services.journal),
      executor_(services.executor), events_(services.events), plan_cache_(services.plan_cache), clock_(services.clock),
      options_(services.options), metrics_(services.metrics), log_(services.log), finish_(services.finish),
      records_(services.io, services.events), drift_(services.io, services.planner, services.journal, services.executor,
                                                     records_, services.clock, services.options, services.log) {}

asio::awaitable<void> JobRun::run() {
  try {
    co_await run_phases();
  } catch (const std::exception& e) {
    finish_(job_, JobState::failed, e.what());
  }
  co_await records_.drain();  // a failed job's record in flight, before the next job's
}

asio::awaitable<void> JobRun::run_phases() {
  // A collective is planned on what its agents registered: they must be back first.
  if (job_.spec->kind != jobs::JobKind::redistribution && co_await await_agents() == AfterPhase::job_ended) co_return;
  if (co_await plan() == AfterPhase::job_ended) co_return;
  if (co_await await_agents() == AfterPhase::job_ended) co_return;
  JobPlans plans(job_.id, job_.submitted, *job_.spec, *job_.plan, executor_.storages(job_.nodes()),
                 executor_.addresses(job_.nodes()));
  if (co_await distribute_plans(plans) == AfterPhase::job_ended) co_return;
  for (std::uint32_t s = job_.resume_from; s < job_.plan->steps.size(); ++s) {
    co_await drift_.follow_share(job_, plans, s);  // a job sharing its nodes started or ended
    // A lockstep job not followed for drift, on nodes no other job shares, runs the steps
    // left self-paced; a step a range stopped at runs again on the per-step path, and the
    // next range starts after it.
    if (s + 1 < job_.plan->steps.size() && !job_.drift.enabled && executor_.self_paced(plans)) {
      const RangeOutcome range = co_await run_range(plans, s);
      if (job_.exchange.cancel_requested) co_return;
      if (range.ok || range.next >= job_.plan->steps.size()) break;
      s = range.next;
      if (co_await run_one_step(plans, s, 1, range.failures) == AfterPhase::job_ended) co_return;
    } else if (co_await run_one_step(plans, s, 0, std::nullopt) == AfterPhase::job_ended) {
      co_return;
    }
  }
  // Every step in the journal before the agents put staged files in place: a step run again
  // after that would read what the job wrote.
  co_await records_.settle();
  job_.step = static_cast<std::uint32_t>(job_.plan->steps.size());
  const std::optional<error::Refusal> ended = co_await executor_.end(job_.exchange, plans);
  finish_(job_, ended ? JobState::failed : JobState::done, ended ? ended->reason : "");
}

// Planning a large job takes a while: on a thread of its own, so heartbeats and the API go
// on meanwhile (the security review's 2.7 s stall declared 9 agents dead).
asio::awaitable<JobRun::AfterPhase> JobRun::plan() {
  job_.state = JobState::planning;
  journal_.set_state(job_.id, std::string(name(job_.state)));
  const JobSpec& spec = *job_.spec;
  const bool collective = spec.kind != jobs::JobKind::redistribution;
  std::optional<error::Refusal> planning_error =
      collective ? collective_nodes_problem(spec.collective, agents_) : std::nullopt;
  std::optional<collectives::CollectiveModel> model;  // the agents' registrations, read on the io thread
  if (collective && !planning_error) {
    model = collective_model(spec.collective, agents_, options_.collective_startup);
  }
  co_await asio::post(asio::bind_executor(planner_, asio::use_awaitable));
  std::optional<jobs::CompiledPlan> compiled;  // job_.plan is the io thread's: the API reads it
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
      const bool cacheable = !job_.resumed && spec.transfers.size() <= PlanCache::kMaxTransfers;
      std::optional<PlanInputs> inputs;
      if (cacheable) inputs = PlanInputs{spec.clusters, spec.transfers, platform, spec.algorithm};
      if (std::optional<PlanCache::Hit> hit = inputs ? plan_cache_.find(*inputs) : std::nullopt) {
        compiled = std::move(hit->plan);
        reused_from = hit->job;
      } else {
        compiled = jobs::compile_plan(spec.clusters, spec.transfers, platform, spec.algorithm);
        if (inputs) plan_cache_.keep(std::move(*inputs), job_.id, *compiled);
      }
      replans = drift_.replay_replans(job_, *compiled, platform, trial_before);
    }
  } catch (const std::exception& e) {
    compiled.reset();
    planning_error = e.what();
  }
  co_await asio::post(asio::bind_executor(io_, asio::use_awaitable));
  if (!compiled) {
    finish_(job_, JobState::failed, "planning: " + planning_error.value_or("").reason);
    co_return AfterPhase::job_ended;
  }
  drift_.start(job_, *compiled, platform, std::move(replans), trial_before);
  job_.plan = std::move(compiled);
  job_.plan_reused_from = reused_from;
  for (const jobs::StepPlan& s : job_.plan->steps) job_.bytes_total += s.bytes;
  for (const journal::StepRecord& s : job_.steps) job_.bytes_done += s.bytes;
  co_return AfterPhase::go_on;
}

// Every agent must be alive; a resumed job waits for them to come back.
asio::awaitable<JobRun::AfterPhase> JobRun::await_agents() {
  const auto wait = job_.resumed ? options_.agents_timeout : milliseconds(0);
  if (co_await events_.until([&] { return executor_.all_alive(job_.nodes()) || job_.exchange.cancel_requested; },
                             clock_.now() + wait))
    co_return AfterPhase::go_on;
  std::string dead;
  for (const std::string& n : job_.nodes()) {
    if (!executor_.alive(n)) dead += (dead.empty() ? "" : ", ") + n;
  }
  finish_(job_, JobState::failed, "agents not alive: " + dead);
  co_return AfterPhase::job_ended;
}

asio::awaitable<JobRun::AfterPhase> JobRun::distribute_plans(JobPlans& plans) {
  job_.state = JobState::running;
  journal_.set_state(job_.id, std::string(name(job_.state)));
  job_.started = clock_.now();
  job_.started_unix_seconds =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  // A resumed job's agents may still be finishing the step the old coordinator released;
  // they answer the plan when it ends (docs/runtime.md, "Coordinator restarts").
  const auto longer = job_.resumed ? options_.min_step_timeout + options_.report_grace : milliseconds(0);
  // A silent agent is offered its plan again as often as a step is attempted.
  const std::optional<error::Refusal> refused =
      co_await executor_.offer(job_.exchange, plans, longer, options_.step_attempts);
  if (!refused && !job_.exchange.cancel_requested) co_return AfterPhase::go_on;
  const std::string why = job_.exchange.cancel_requested ? "cancelled" : refused->reason;
  abort(plans, job_.exchange.cancel_requested ? JobState::cancelled : JobState::failed, why, why);
  co_return AfterPhase::job_ended;
}

asio::awaitable<JobRun::AfterPhase> JobRun::run_one_step(JobPlans& plans, std::uint32_t s, int spent,
                                                         std::optional<error::Refusal> spent_failures) {
  job_.step = s;
  const StepOutcome outcome = co_await executor_.run_step(
      job_.exchange, plans, s, job_.plan->steps[s].expected_seconds(), spent, std::move(spent_failures));
  if (job_.exchange.cancel_requested || !outcome.ok) co_await records_.settle();  // the job's writes in order
  if (job_.exchange.cancel_requested) {
    abort(plans, JobState::cancelled, "cancelled at step " + std::to_string(s), "cancelled by the operator");
    co_return AfterPhase::job_ended;
  }
  if (!outcome.ok) {
    abort(plans, JobState::failed,
          "step " + std::to_string(s) + " failed " + std::to_string(outcome.attempts) +
              " times: " + outcome.failures->reason,
          "step " + std::to_string(s) + " failed");
    co_return AfterPhase::job_ended;
  }
  co_await record_step(s, outcome);
  co_await drift_.follow_drift(job_, plans, s);
  co_return AfterPhase::go_on;
}

asio::awaitable<RangeOutcome> JobRun::run_range(JobPlans& plans, std::uint32_t first) {
  job_.step = first;
  const auto last = static_cast<std::uint32_t>(job_.plan->steps.size() - 1);
  const RangeOutcome range = co_await executor_.run_range(
      job_.exchange, plans, first, last, [this](std::uint32_t s) { return job_.plan->steps[s].expected_seconds(); },
      [this](std::uint32_t s, Clock::time_point started, double seconds) {
        return record_passed(s, started, seconds);
      });
  record_range_timings(range.next);
  if (job_.exchange.cancel_requested) {
    co_await records_.settle();
    abort(plans, JobState::cancelled, "cancelled at step " + std::to_string(range.next), "cancelled by the operator");
  }
  co_return range;
}

void JobRun::record_range_timings(std::uint32_t passed_before) {
  for (const auto& [node, report] : job_.exchange.reports.by_node()) {
    if (!report.range_end()) continue;
    for (const protocol::RangeStep& ran : report.range_steps()) {
      // Only the range's steps that passed: the one it stopped at runs again on the per-step
      // path, timed there.
      if (ran.step() < report.range_first() || ran.step() >= passed_before) continue;
      StepTiming& timing = job_.timing[ran.step()];
      timing.nodes[node] = NodeTiming{ran.seconds(), ran.bytes()};
      if (ran.tasks_size() > 0) timing.tasks[node].assign(ran.tasks().begin(), ran.tasks().end());
    }
  }
}

asio::awaitable<void> JobRun::record_passed(std::uint32_t step, Clock::time_point started, double seconds) {
  co_await record_step(
      step, StepOutcome{.ok = true, .attempts = 1, .measured = seconds, .released = started, .failures = std::nullopt});
  job_.step = std::min(step + 1, static_cast<std::uint32_t>(job_.plan->steps.size() - 1));
}

asio::awaitable<void> JobRun::record_step(std::uint32_t step, const StepOutcome& outcome) {
  const jobs::StepPlan& planned = job_.plan->steps[step];
  const journal::StepRecord record{.step = step,
                                   .attempts = static_cast<std::uint32_t>(outcome.attempts),
                                   .predicted = planned.predicted_seconds,
                                   .measured = outcome.measured,
                                   .bytes = planned.bytes,
                                   .finished = journal::utc_now()};
  job_.steps.push_back(record);
  StepTiming& timing = job_.timing[step];
  timing.started = seconds_between(job_.started, outcome.released);
  for (const jobs::PlannedNode& node : planned.nodes) {
    // A self-paced step's node timings come with its range's end (record_range_timings).
    const auto reported = job_.exchange.reports.by_node().find(node.node);
    if (reported == job_.exchange.reports.by_node().end() || reported->second.range_end()) continue;
    const protocol::StepReport& report = reported->second;
    timing.nodes[node.node] = NodeTiming{report.seconds(), report.bytes()};
    if (report.tasks_size() > 0) timing.tasks[node.node].assign(report.tasks().begin(), report.tasks().end());
  }
  job_.exchange.progress.clear();
  job_.bytes_done += planned.bytes;
  metrics_.step_done(record);
  // Logged once journaled: a step said done is one a resumed job does not run again.
  const bool dataflow = !planned.tasks.empty();
  std::string done = "job " + std::to_string(job_.id) + " step " + std::to_string(step) + "/" +
                     std::to_string(job_.plan->steps.size()) + ": done, " + std::to_string(planned.bytes) +
                     " bytes in " + std::to_string(outcome.measured) + " s (model " +
                     std::to_string(planned.predicted_seconds) + " s)";
  co_await records_.settle();  // the step before: the release of the next step waits for it
  records_.start(journal_, job_.id, record, [this, done = std::move(done)] {
    if (log_) log_.info(done);
  });
  // A lockstep step (a redistribution's, a buffered multicast's) may run again after the
  // next one: what it reads is a source the job never writes (an in-place destination is
  // staged) or a message an earlier round delivered, and no byte is written twice, so a
  // second run writes the same bytes at the same offsets. A dataflow step may fold into its
  // own input (a reduce in place): its record is never left in flight.
  if (dataflow) co_await records_.settle();
}

void JobRun::abort(const JobPlans& plans, JobState state, const std::string& error, const std::string& reason) {
  executor_.abort(job_.exchange, plans, reason);
  finish_(job_, state, error);
}

}  // namespace baton::coordinator
