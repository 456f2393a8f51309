// An agent's self-paced range of steps (Agent::run_range; docs/runtime.md, "Self-paced
// steps"): apart from agent.cpp, which runs the steps the coordinator releases one by one.
#include "agent/agent.h"

#include <algorithm>

namespace baton::agent {

asio::awaitable<void> Agent::run_range(std::string job, protocol::StepRelease release) {
  HeldJob& held = jobs_.at(job);  // kept while its steps run
  const std::shared_ptr<StepRunner> runner = held.runner;
  StepBarrier& barrier = *runner->barrier();
  const std::chrono::milliseconds timeout(release.timeout_ms());
  barrier.start_range(release.range());
  say("job " + job + " steps " + std::to_string(release.step()) + " to " + std::to_string(release.last_step()) +
      ": started, self-paced");
  protocol::Envelope envelope;
  protocol::StepReport& total = *envelope.mutable_step_report();
  total.set_job(job);
  total.set_range_end(true);
  total.set_range_first(release.step());
  total.set_ok(true);
  const auto started = std::chrono::steady_clock::now();
  // When the step began for the range: at its start, then at each barrier's decision. The
  // members below the first one start a step when the decision reaches them, so each one's
  // time at a step lies within the first member's (what StepPassed says).
  auto step_started = started;
  for (std::uint32_t step = release.step(); step <= release.last_step(); ++step) {
    held.running_step = step;
    publish_jobs();
    total.set_step(step);
    say("job " + job + " step " + std::to_string(step) + ": started");
    const protocol::StepReport report = co_await runner->run(step, timeout, release.range());
    count_step(report);
    total.set_bytes(total.bytes() + report.bytes());
    protocol::RangeStep& timing = *total.add_range_steps();
    timing.set_step(step);
    timing.set_seconds(report.seconds());
    timing.set_bytes(report.bytes());
    *timing.mutable_tasks() = report.tasks();
    // A member whose step timed out votes then, so the slowest vote comes one timeout after
    // its step began: the barrier waits that long after this member's step, and more.
    const auto deadline = std::chrono::steady_clock::now() + 2 * timeout;
    if (!report.ok()) {
      // Reported at once, so that the coordinator cancels the members still in the step
      // (a receiver waiting for this node's chunks), as on the per-step path.
      barrier.vote_no(release.range(), step, deadline);
      total.set_ok(false);
      total.set_error(report.error());
      break;
    }
    if (const std::optional<error::Refusal> stopped = co_await barrier.pass(release.range(), step, true, deadline)) {
      total.set_ok(false);
      total.set_stopped(true);
      total.set_error(stopped->reason);
      break;
    }
    const auto decided = barrier.decided_at();
    held.steps_done = std::max(held.steps_done, step + 1);
    if (barrier.rank() == 0) {
      protocol::Envelope passed;
      passed.mutable_step_passed()->set_job(job);
      passed.mutable_step_passed()->set_step(step);
      passed.mutable_step_passed()->set_seconds(std::chrono::duration<double>(decided - step_started).count());
      passed.mutable_step_passed()->set_started(std::chrono::duration<double>(step_started - started).count());
      co_await send(std::move(passed));
    }
    step_started = decided;
  }
  total.set_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  co_await end_steps(std::move(job), std::move(envelope));
}

}  // namespace baton::agent
