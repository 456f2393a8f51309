#include "coordinator/daemon/step_executor.h"

#include "coordinator/daemon/dead_without_report.h"
#include "coordinator/daemon/step_attempt.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>

namespace baton::coordinator {
namespace {

using std::chrono::milliseconds;

// The job a message about a run names ("" for a message of no run).
const std::string& job_named(const protocol::Envelope& message) {
  static const std::string none;
  switch (message.body_case()) {
    case protocol::Envelope::kPlanAccepted: return message.plan_accepted().job();
    case protocol::Envelope::kPlanRefused: return message.plan_refused().job();
    case protocol::Envelope::kStepProgress: return message.step_progress().job();
    case protocol::Envelope::kStepReport: return message.step_report().job();
    case protocol::Envelope::kJobCommitted: return message.job_committed().job();
    case protocol::Envelope::kStepPassed: return message.step_passed().job();
    default: return none;
  }
}

}  // namespace

StepExecutor::StepExecutor(AgentDirectory& agents, EventWait& events, Clock& clock, const DriverOptions& options,
                           DriverMetrics& metrics, log::Logger& log)
    : agents_(agents), events_(events), clock_(clock), options_(options), metrics_(metrics), log_(log),
      next_range_(static_cast<std::uint32_t>(std::random_device{}())) {}

// ---- The agents' messages ----

void StepExecutor::attach(StepExchange& run) { runs_[run.job] = &run; }

void StepExecutor::detach(const StepExchange& run) {
  const auto found = runs_.find(run.job);
  if (found != runs_.end() && found->second == &run) runs_.erase(found);
}

std::map<std::string, std::vector<std::string>> StepExecutor::jobs_by_node() const {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [job, run] : runs_) {
    for (const std::string& node : run->nodes) out[node].push_back(job);
  }
  return out;
}

StepExchange* StepExecutor::run_of(const std::string& job) const {
  const auto found = runs_.find(job);
  return found == runs_.end() ? nullptr : found->second;
}

void StepExecutor::on_register(const std::string& node) {
  // Every run: one that kept the plan says so in the JobStatus that follows its
  // registration, and each run that offers a plan to this node offers it again.
  for (const auto& [job, run] : runs_) {
    run->holding.erase(node);
    run->registered_anew.insert(node);
  }
}

bool StepExecutor::on_job_status(const std::string& node, const protocol::JobStatus& status) {
  StepExchange* const found = run_of(status.job());
  if (!found) return false;
  StepExchange& run = *found;
  if (status.state() == protocol::JobStatus::ABORTED) run.holding.erase(node);
  else run.holding.insert(node);
  if (run.cancelled_step && !run.reports.contains(node)) send_step_cancel(run, node);
  return true;
}

void StepExecutor::on_message(const std::string& node, const protocol::Envelope& message) {
  StepExchange* const found = run_of(job_named(message));
  if (!found) return;
  StepExchange& run = *found;
  switch (message.body_case()) {
    case protocol::Envelope::kPlanAccepted:
      run.accepted.insert(node);
      run.holding.insert(node);
      break;
    case protocol::Envelope::kPlanRefused: run.refused[node] = message.plan_refused().reason(); break;
    case protocol::Envelope::kStepProgress:
      // Shown by watch, status and the metrics; only the attempt running counts.
      if (message.step_progress().step() == run.step && !run.reports.contains(node)) {
        NodeProgress& progress = run.progress[node];
        progress.bytes = std::max(progress.bytes, message.step_progress().bytes());
        progress.tasks.assign(message.step_progress().tasks().begin(), message.step_progress().tasks().end());
      }
      break;
    case protocol::Envelope::kStepReport: {
      const protocol::StepReport& report = message.step_report();
      // A range's end, of the range running; or the step running's.
      if (report.range_end() ? run.range && report.range_first() == run.range->first : report.step() == run.step)
        run.reports.record(node, report);
      break;
    }
    case protocol::Envelope::kStepPassed: {
      const protocol::StepPassed& passed = message.step_passed();
      if (!run.range || node != run.range->first_member || passed.step() < run.range->first ||
          passed.step() > run.range->last)
        break;
      run.range->passed = std::max(run.range->passed.value_or(passed.step()), passed.step());
      run.range->words[passed.step()] = {
          .seconds = passed.seconds(), .started = passed.started(), .heard = clock_.now()};
      run.range->progressed = clock_.now();
      break;
    }
    case protocol::Envelope::kJobCommitted:
      if (message.job_committed().error().empty()) run.committed.insert(node);
      else run.commit_errors[node] = message.job_committed().error();
      break;
    default: break;
  }
}

// ---- Plans ----

asio::awaitable<void> StepExecutor::offer_once(StepExchange& run, const JobPlans& plans,
                                               const std::vector<std::string>& nodes, Clock::time_point deadline) {
  const auto answered = [&](const std::string& node) {
    return run.accepted.contains(node) || run.refused.contains(node);
  };
  const auto renewed = [&] {
    std::vector<std::string> out;
    for (const std::string& node : nodes) {
      if (run.registered_anew.contains(node) && !answered(node)) out.push_back(node);
    }
    return out;
  };
  run.registered_anew.clear();
  for (const std::string& node : nodes) {
    run.accepted.erase(node);
    run.refused.erase(node);
    send_plan(plans, node);
  }
  for (;;) {
    const bool woke = co_await events_.until(
        [&] { return run.cancel_requested || std::ranges::all_of(nodes, answered) || !renewed().empty(); }, deadline);
    if (!woke || run.cancel_requested) co_return;
    const std::vector<std::string> again = renewed();
    if (again.empty()) co_return;  // every node answered
    // Its control session was cut and opened again while the plan was on the wire: the
    // plan may be lost with the old session, so it is sent once more, within the deadline.
    run.registered_anew.clear();
    for (const std::string& node : again) {
      if (log_)
        log_.info("job " + run.job + ": agent " + node + " registered anew while offered its plan; offering it again");
      send_plan(plans, node);
    }
  }
}

asio::awaitable<std::optional<error::Refusal>> StepExecutor::offer(StepExchange& run, const JobPlans& plans,
                                                                   milliseconds longer, int most) {
  std::vector<std::string> silent = plans.nodes();
  int offers = 0;
  while (!silent.empty() && offers < most && !run.cancel_requested) {
    if (offers > 0) {  // a moment first, as before a step's retry
      co_await events_.until([&] { return run.cancel_requested; }, clock_.now() + options_.retry_pause * offers);
      if (log_) log_.info("job " + run.job + ": offering the plan again to the nodes that did not answer it");
    }
    ++offers;
    co_await offer_once(run, plans, silent, clock_.now() + options_.plan_timeout + longer);
    std::erase_if(silent, [&](const std::string& node) { return run.accepted.contains(node); });
    if (!run.refused.empty()) break;  // a refusal is final
    std::erase_if(silent, [&](const std::string& node) { return run.refused.contains(node); });
  }
  std::optional<error::Refusal> failures;
  if (run.cancel_requested) co_return failures;
  for (const auto& [node, reason] : run.refused)
    error::add_clause(failures, "agent " + node + " refused the plan: " + reason);
  const double wait = std::chrono::duration<double>(options_.plan_timeout + longer).count();
  for (const std::string& node : silent) {
    if (run.refused.contains(node)) continue;
    error::add_clause(
        failures, "agent " + node + " did not answer the plan in time (" + std::to_string(offers) +
                      (offers == 1 ? " offer of " : " offers of ") + std::to_string(static_cast<int>(wait)) + " s; " +
                      (alive(node) ? "its agent is connected but silent" : "its agent has no control session") + ")");
  }
  co_return failures;
}

asio::awaitable<std::optional<error::Refusal>> StepExecutor::give_plan_again(StepExchange& run, const JobPlans& plans) {
  std::vector<std::string> missing;
  for (const auto& [node, plan] : plans.by_node()) {
    if (!run.holding.contains(node)) missing.push_back(node);
  }
  std::optional<error::Refusal> failures;
  if (missing.empty()) co_return failures;
  for (const std::string& node : missing) {
    if (log_) log_.info("job " + run.job + ": agent " + node + " registered anew; sending its plan again");
  }
  co_await offer_once(run, plans, missing, clock_.now() + options_.plan_timeout);
  for (const std::string& node : missing) {
    const auto refused = run.refused.find(node);
    if (refused != run.refused.end()) {
      error::add_clause(failures, "agent " + node + " refused the plan again: " + refused->second);
    } else if (!run.accepted.contains(node) && !run.cancel_requested) {
      error::add_clause(failures, "agent " + node + " did not answer the plan again in time");
    }
  }
  co_return failures;
}

void StepExecutor::send_plan(const JobPlans& plans, const std::string& node) {
  protocol::Envelope envelope;
  *envelope.mutable_plan() = plans.by_node().at(node);
  agents_.send(node, std::move(envelope));
}

// ---- Steps ----

asio::awaitable<StepOutcome> StepExecutor::run_step(StepExchange& run, JobPlans& plans, std::uint32_t step,
                                                    double predicted, int spent,
                                                    std::optional<error::Refusal> spent_failures) {
  StepOutcome outcome;
  outcome.attempts = spent;
  outcome.failures = std::move(spent_failures);
  while (!outcome.ok && outcome.attempts < options_.step_attempts && !run.cancel_requested) {
    if (outcome.attempts > 0) co_await prepare_retry(run, plans, outcome.attempts);
    const int attempts = outcome.attempts + 1;
    // An agent that restarted (kill -9, a reboot) gets its plan again before the release,
    // and a new data address of one goes into every plan that names it.
    if (plans.follow(addresses(plans.job_nodes()))) {
      run.holding.clear();
      if (log_) log_.info("job " + run.job + ": an agent's data address changed; sending every plan again");
    }
    if (std::optional<error::Refusal> lost = co_await give_plan_again(run, plans)) {
      outcome.attempts = attempts;
      outcome.failures = std::move(lost);
    } else {
      outcome = co_await attempt(run, plans, step, predicted);
      outcome.attempts = attempts;
    }
    if (!outcome.ok && !run.cancel_requested) {
      metrics_.attempt_failed();
      if (log_) {
        log_.info("job " + run.job + " step " + std::to_string(step) + ": attempt " + std::to_string(attempts) +
                  " failed: " + outcome.failures->reason);
      }
    }
  }
  co_return outcome;
}

asio::awaitable<void> StepExecutor::prepare_retry(StepExchange& run, const JobPlans& plans, int attempts_so_far) {
  // A moment before a retry (a peer restarting, a link coming back), then every agent must
  // be back and done with the failed attempt: one still running it, or reconnecting after
  // it was declared dead, would refuse the release and waste it.
  co_await events_.until([&] { return run.cancel_requested; }, clock_.now() + options_.retry_pause * attempts_so_far);
  co_await events_.until(
      [&] {
        return run.cancel_requested ||
               (all_alive(plans.job_nodes()) && std::ranges::all_of(plans.by_node(), [&](const auto& p) {
                  return run.reports.contains(p.first) || !run.holding.contains(p.first);
                }));
      },
      clock_.now() + options_.agents_timeout);
}

asio::awaitable<StepOutcome> StepExecutor::attempt(StepExchange& run, JobPlans& plans, std::uint32_t step,
                                                   double predicted) {
  const std::size_t nodes = plans.by_node().size();
  run.step = step;
  run.range.reset();  // a range's reports were waited for (prepare_retry)
  run.reports.clear();
  run.progress.clear();
  run.cancelled_step.reset();
  StepOutcome outcome;
  const milliseconds timeout = step_timeout(predicted);
  co_await hold_if_lease_lapsed(run, step);
  outcome.released = clock_.now();
  run.released = outcome.released;
  const std::uint32_t release = next_release();  // this attempt's flows carry it
  for (const auto& [node, plan] : plans.by_node()) {
    protocol::Envelope envelope;
    envelope.mutable_step_release()->set_job(run.job);
    envelope.mutable_step_release()->set_step(step);
    envelope.mutable_step_release()->set_timeout_ms(static_cast<std::uint32_t>(timeout.count()));
    envelope.mutable_step_release()->set_range(release);
    agents_.send(node, std::move(envelope));
  }
  // The moment a step starts, as an operator (and bench/ha.sh's fail-over time) sees it.
  if (log_)
    log_.info("job " + run.job + " step " + std::to_string(step) + ": released to " + std::to_string(nodes) +
              " agents");
  const Clock::time_point deadline = outcome.released + timeout + options_.report_grace;
  const auto failed_report = [&] { return run.reports.failed() > 0; };
  DeadWithoutReport dead(agents_, plans.by_node(), run);
  // Every report, or the first sign of failure: a failed report or a dead agent.
  const bool ended_early_or_all = co_await events_.until(
      [&] { return run.cancel_requested || failed_report() || dead() || run.reports.size() == nodes; }, deadline);
  if (ended_early_or_all && failed_report() && run.reports.size() < nodes)
    co_await wait_failure_grace(run, nodes, deadline);
  outcome.measured = seconds_between(outcome.released, clock_.now());
  const bool complete = run.reports.size() == nodes;
  const bool cut_short = ended_early_or_all && !complete;
  outcome.failures = judge_attempt(
      plans.nodes(), run.reports.by_node(), [this](const std::string& n) { return alive(n); }, cut_short);
  // The attempt failed elsewhere or timed out: the nodes still in it stop waiting for
  // chunks that will not come, and report (the retry waits for them).
  if (!complete) cancel_unreported(run, plans, step, outcome.failures->reason);
  outcome.ok = complete && !outcome.failures && !run.cancel_requested;
  co_return outcome;
}

asio::awaitable<void> StepExecutor::hold_if_lease_lapsed(const StepExchange& run, std::uint32_t step) {
  // A step's record trails its step, so no journal write stands between a step's end and
  // the next release: a leader whose lease may have lapsed releases nothing, and waits for
  // the stop its election has then called (docs/ha.md, "Fencing"). It does not fail the
  // job: the lease may still hold in etcd for a moment, and the next leader resumes it.
  if (const std::optional<error::Refusal> why = options_.lease_lapsed ? options_.lease_lapsed() : std::nullopt) {
    if (log_)
      log_.warning("job " + run.job + " step " + std::to_string(step) + ": not released: " + why->reason +
                   "; this coordinator stops");
    co_await events_.until([] { return false; }, Clock::time_point::max());
  }
}

asio::awaitable<void> StepExecutor::wait_failure_grace(StepExchange& run, std::size_t nodes,
                                                       Clock::time_point deadline) {
  co_await events_.until([&] { return run.cancel_requested || run.reports.size() == nodes; },
                         std::min(deadline, clock_.now() + options_.failure_grace));
}

void StepExecutor::cancel_unreported(StepExchange& run, const JobPlans& plans, std::uint32_t step,
                                     const std::string& reason) {
  run.cancelled_step = step;
  run.cancel_reason = reason;
  for (const auto& [node, plan] : plans.by_node()) {
    if (!run.reports.contains(node)) send_step_cancel(run, node);
  }
}

// ---- The end of a run ----

asio::awaitable<std::optional<error::Refusal>> StepExecutor::end(StepExchange& run, const JobPlans& plans) {
  // An agent that restarted since its last step holds no plan, so no staged files to commit.
  co_await events_.until(
      [&] { return std::ranges::all_of(plans.by_node(), [&](const auto& p) { return alive(p.first); }); },
      clock_.now() + options_.agents_timeout);
  if (std::optional<error::Refusal> lost = co_await give_plan_again(run, plans)) co_return lost;
  run.committed.clear();
  run.commit_errors.clear();
  for (const auto& [node, plan] : plans.by_node()) {  // no flow of this run is accepted from now on
    protocol::Envelope envelope;
    envelope.mutable_job_ended()->set_job(run.job);
    agents_.send(node, std::move(envelope));
  }
  co_await events_.until(
      [&] {
        return std::ranges::all_of(plans.by_node(), [&](const auto& p) {
          return run.committed.contains(p.first) || run.commit_errors.contains(p.first) || !alive(p.first);
        });
      },
      clock_.now() + options_.commit_timeout);
  std::optional<error::Refusal> failures;
  for (const auto& [node, plan] : plans.by_node()) {
    const auto commit_error = run.commit_errors.find(node);
    if (commit_error != run.commit_errors.end()) {
      error::add_clause(failures,
                        "agent " + node + " could not put its staged files in place: " + commit_error->second);
    } else if (!run.committed.contains(node)) {
      error::add_clause(failures, "agent " + node +
                                      (alive(node) ? " did not confirm the end of the job in time"
                                                   : " died before it confirmed the end of the job"));
    }
  }
  co_return failures;
}

void StepExecutor::abort(const StepExchange& run, const JobPlans& plans, const std::string& reason) {
  for (const auto& [node, plan] : plans.by_node()) {
    protocol::Envelope envelope;
    envelope.mutable_abort()->set_job(run.job);
    envelope.mutable_abort()->set_reason(reason);
    agents_.send(node, std::move(envelope));
  }
}

// ---- Helpers ----

std::uint32_t StepExecutor::next_release() {
  if (next_range_ == 0) ++next_range_;  // 0 says "not numbered"
  return next_range_++;
}

std::chrono::milliseconds StepExecutor::step_timeout(double predicted) const {
  const double proportional = std::ceil(predicted * options_.step_timeout_factor * 1000);
  // A StepRelease carries it in 32 bits of milliseconds: 49 days is past any sane step.
  return std::clamp(milliseconds(static_cast<std::int64_t>(std::min(proportional, 4.0e9))), options_.min_step_timeout,
                    milliseconds(4'000'000'000));
}

void StepExecutor::send_step_cancel(const StepExchange& run, const std::string& node) {
  protocol::Envelope envelope;
  envelope.mutable_step_cancel()->set_job(run.job);
  envelope.mutable_step_cancel()->set_step(*run.cancelled_step);
  envelope.mutable_step_cancel()->set_reason(run.cancel_reason);
  agents_.send(node, std::move(envelope));
}

bool StepExecutor::alive(const std::string& node) const { return agents_.alive(node); }

bool StepExecutor::all_alive(const std::vector<std::string>& nodes) const {
  return std::ranges::all_of(nodes, [&](const std::string& n) { return alive(n); });
}

std::map<std::string, std::string> StepExecutor::addresses(const std::vector<std::string>& nodes) const {
  std::map<std::string, std::string> out;
  for (const std::string& n : nodes) {
    if (const auto info = agents_.find(n); info && !info->addresses.empty()) out[n] = info->addresses.front();
  }
  return out;
}

std::map<std::string, std::string> StepExecutor::storages(const std::vector<std::string>& nodes) const {
  std::map<std::string, std::string> out;
  for (const std::string& node : nodes) {
    if (const auto info = agents_.find(node)) out[node] = info->storage_id;
  }
  return out;
}

}  // namespace baton::coordinator
