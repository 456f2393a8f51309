// A self-paced range of steps (StepExecutor::run_range; docs/runtime.md, "Self-paced
// steps"): one release for many steps, the steps' progress from the plans' first member,
// and the range's end from every node.
#include "coordinator/daemon/step_executor.h"

#include "coordinator/daemon/dead_without_report.h"

#include <algorithm>

namespace baton::coordinator {
namespace {

using std::chrono::milliseconds;

// Why a range ended before every node ended it well: each node whose own step failed, in
// its words; the nodes that stopped for it, counted; each node that is dead or silent.
error::Refusal range_failures(const JobPlans& plans, const std::map<std::string, protocol::StepReport>& reports,
                              const std::function<bool(const std::string&)>& alive, bool timed_out) {
  std::optional<error::Refusal> failures;
  std::size_t stopped = 0;
  for (const auto& [node, plan] : plans.by_node()) {
    const auto report = reports.find(node);
    if (report == reports.end()) {
      if (!alive(node)) error::add_clause(failures, node + " is dead");
      else if (timed_out) error::add_clause(failures, node + " did not report");
    } else if (report->second.stopped()) {
      ++stopped;
    } else if (!report->second.ok()) {
      error::add_clause(failures,
                        node + ": step " + std::to_string(report->second.step()) + ": " + report->second.error());
    }
  }
  if (!failures) error::add_clause(failures, "the range ended before every node reported");
  if (stopped > 0) failures->reason += " (" + std::to_string(stopped) + " node(s) stopped with it)";
  return *failures;
}

}  // namespace

bool StepExecutor::self_paced(const JobPlans& plans) const {
  // Jobs that may share nodes keep the per-step path: a share changes when a job beside
  // them starts or ends, and a range runs to its end at the pace it was released at.
  return options_.self_paced_steps && options_.max_jobs_per_node == 1 && !plans.by_node().empty() &&
         plans.by_node().begin()->second.members_size() > 0;
}

asio::awaitable<RangeOutcome> StepExecutor::run_range(StepExchange& run, const JobPlans& plans, std::uint32_t first,
                                                      std::uint32_t last,
                                                      const std::function<double(std::uint32_t)>& predicted,
                                                      const PassedStep& passed) {
  const std::size_t nodes = plans.by_node().size();
  run.step = first;
  run.reports.clear();
  run.progress.clear();
  run.cancelled_step.reset();
  milliseconds timeout(0);  // each step's, as long as the longest's
  for (std::uint32_t step = first; step <= last; ++step) timeout = std::max(timeout, step_timeout(predicted(step)));
  co_await hold_if_lease_lapsed(run, first);
  StepExchange::Range& range = run.range.emplace();
  range.number = next_release();
  range.first = first;
  range.last = last;
  range.first_member = plans.by_node().begin()->first;  // rank 0: ranks are the nodes' order
  range.progressed = clock_.now();
  run.released = range.progressed;
  protocol::Envelope release;
  release.mutable_step_release()->set_job(run.job);
  release.mutable_step_release()->set_step(first);
  release.mutable_step_release()->set_timeout_ms(static_cast<std::uint32_t>(timeout.count()));
  release.mutable_step_release()->set_last_step(last);
  release.mutable_step_release()->set_range(range.number);
  for (const auto& [node, plan] : plans.by_node()) agents_.send(node, release);
  if (log_)
    log_.info("job " + run.job + " steps " + std::to_string(first) + " to " + std::to_string(last) + ": released to " +
              std::to_string(nodes) + " agents, self-paced");
  RangeOutcome outcome;
  outcome.next = first;
  const auto failed_report = [&] { return run.reports.failed() > 0; };
  DeadWithoutReport dead(agents_, plans.by_node(), run);
  const auto news = [&] { return run.range->passed && *run.range->passed >= outcome.next; };
  for (;;) {
    // Silence past a step's timeout (twice: a member's barrier waits that long) ends it.
    const Clock::time_point deadline = run.range->progressed + 2 * timeout + options_.report_grace;
    const bool woke = co_await events_.until(
        [&] { return run.cancel_requested || failed_report() || dead() || run.reports.size() == nodes || news(); },
        deadline);
    while (news()) {
      const std::uint32_t step = outcome.next++;
      const auto first_word = run.range->words.find(first);
      const RangeStepTimes times =
          range_step_times(step == first, run.range->words[step],
                           first_word == run.range->words.end() ? std::nullopt : std::optional(first_word->second),
                           run.released, clock_.now());
      co_await passed(step, times.began, times.measured);
    }
    if (run.cancel_requested) co_return outcome;
    if (run.reports.size() == nodes && !failed_report() && outcome.next > last) {
      outcome.ok = true;
      run.range.reset();
      co_return outcome;
    }
    if (woke && !failed_report() && !dead() && run.reports.size() < nodes) continue;  // a step passed
    if (failed_report() && run.reports.size() < nodes) co_await wait_failure_grace(run, nodes, deadline);
    outcome.failures = range_failures(
        plans, run.reports.by_node(), [this](const std::string& n) { return alive(n); }, !woke);
    if (run.reports.size() < nodes) cancel_unreported(run, plans, first, outcome.failures->reason);
    metrics_.attempt_failed();
    if (log_)
      log_.info("job " + run.job + " step " + std::to_string(outcome.next) + ": attempt 1 failed (self-paced, steps " +
                std::to_string(first) + " to " + std::to_string(last) + "): " + outcome.failures->reason);
    co_return outcome;
  }
}

}  // namespace baton::coordinator
