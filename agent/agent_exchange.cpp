// An exchange of a kept plan (Agent::exchange; docs/embedding.md, "Persistent handoffs"):
// the steps of a plan the agent kept after its job ended, started by the application on
// every member at once instead of released by the coordinator, which is told afterwards.
#include "agent/agent.h"

#include <algorithm>

namespace baton::agent {

std::optional<error::Refusal> Agent::why_no_exchange(const std::string& job) {
  const auto found = jobs_.find(job);
  if (found == jobs_.end()) return "this agent holds no plan for job " + job;
  HeldJob& held = found->second;
  const protocol::Plan& plan = held.runner->plan();
  if (!plan.keep()) return "job " + job + "'s plan is not a kept one";
  if (held.state == JobState::aborted) return "job " + job + " was aborted";
  if (!held.ended || held.state != JobState::done) return "job " + job + " has not ended at the coordinator";
  if (held.runner->barrier() == nullptr) return "job " + job + "'s plan names no members";
  if (plan.steps_size() == 0) return "job " + job + "'s plan has no steps";
  if (held.running_step) return "job " + job + " is running step " + std::to_string(*held.running_step);
  if (!running_) return std::string("the agent is stopping");
  // The application may have registered its regions anew since the plan was checked.
  const std::optional<std::uint64_t> version = storage_.version();
  if (!version || held.checked_at != version) {
    if (std::optional<error::Refusal> refused = check_(plan)) return "job " + job + "'s plan: " + refused->reason;
    held.checked_at = version;
  }
  return std::nullopt;
}

asio::awaitable<protocol::ExchangeReport> Agent::exchange(std::string job, std::uint64_t range) {
  protocol::ExchangeReport report;
  report.set_job(job);
  report.set_range(range);
  std::optional<error::Refusal> refused = why_no_exchange(job);
  if (!refused && (range == 0 || range >= StepBarrier::range_limit)) {
    refused = "exchange number " + std::to_string(range) + " is not within [1, 2^32)";
  }
  if (refused) {
    report.set_error(refused->reason);
    co_return report;
  }
  HeldJob& held = jobs_.at(job);  // kept while its steps run (make_room drops no running job)
  const std::shared_ptr<StepRunner> runner = held.runner;
  StepBarrier& barrier = *runner->barrier();
  const std::chrono::milliseconds timeout(std::max<std::uint32_t>(held.longest_timeout_ms, 1000));
  const auto steps = static_cast<std::uint32_t>(runner->plan().steps_size());
  barrier.start_range(range);
  held.range_last = steps - 1;
  report.set_ok(true);
  const auto started = std::chrono::steady_clock::now();
  for (std::uint32_t step = 0; step < steps; ++step) {
    held.running_step = step;
    publish_jobs();
    const protocol::StepReport step_report =
        co_await runner->run(step, timeout, range, StepRunner::ChunkDigests::counted);
    count_step(step_report);
    report.set_bytes(report.bytes() + step_report.bytes());
    // As in a released range (agent_range.cpp): the slowest vote comes one timeout after
    // its step began.
    const auto deadline = std::chrono::steady_clock::now() + 2 * timeout;
    if (!step_report.ok()) {
      barrier.vote_no(range, step, deadline);
      report.set_ok(false);
      report.set_error("step " + std::to_string(step) + ": " + step_report.error());
      break;
    }
    // After the last step there is no barrier: each node's part of it is verified (its
    // chunks received, its sends acknowledged), and the applications agree on the whole
    // afterwards (the coupling layer's second round), which is all a barrier would add.
    if (step + 1 == steps) break;
    if (const std::optional<error::Refusal> stopped = co_await barrier.pass(range, step, true, deadline)) {
      report.set_ok(false);
      report.set_error("step " + std::to_string(step) + ": " + stopped->reason);
      break;
    }
  }
  report.set_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  held.running_step.reset();
  held.range_last.reset();
  changed_.notify();
  publish_jobs();
  say("job " + job + " exchange " + std::to_string(range) + ": " + (report.ok() ? "done" : report.error()));
  metrics_->add("baton_agent_exchanges_total", {{"result", report.ok() ? "done" : "failed"}});
  protocol::Envelope told;
  *told.mutable_exchange_report() = report;
  co_await send(std::move(told));  // afterwards, and only while a session is up: nothing waits on it
  if (!running_ && !any_step_running() && channel_) channel_->finish();
  co_return report;
}

}  // namespace baton::agent
