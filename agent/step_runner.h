// Runs one agent's part of a job, step by step (docs/runtime.md, "Steps" and "The data
// plane"): on each release it sends its chunks to their receivers at the planned rate and
// waits until every chunk due to it has arrived and been verified, makes the files it
// wrote durable (fdatasync, once per file), then reports the step with one digest per
// received chunk. Each file a step names is opened once for the whole step.
//
// Incoming flows arrive on the node's data listener (agent/data_plane.h), which asks
// resolve() where each one goes and calls the answer's `finished` when the flow ends. A
// step's state is made in one place, run(): a flow that arrives before the step's release
// waits for it (resolve() is a coroutine).
//
// Threading: everything runs on the transport context's executor. One run() at a time.
#pragma once

#include "agent/signal.h"
#include "agent/storage.h"
#include "metrics/registry.h"

#include "protocol/baton.pb.h"
#include "transport/authenticate.h"
#include "transport/context.h"
#include "transport/flow.h"

#include <asio/thread_pool.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace baton::agent {

struct StepOptions {
  // Where flows are counted (agent/agent_metrics.h); none when null.
  std::shared_ptr<metrics::Registry> metrics{};
};

// What resolve() gives the data plane: the sink, and what to call when the flow ends. It
// holds the step's state, so the sink stays alive even if the step is over (aborted, or
// the runner gone) before the flow ends.
struct IncomingFlow {
  transport::ResolvedSink resolved;
  std::function<void(const transport::FlowReport&)> finished;  // empty when refused
};

class StepRunner {
 public:
  // `plan` must have passed check_plan. The context and storage outlive the runner. Sends
  // authenticate as `self` to each receiver (transport/authenticate.h).
  StepRunner(transport::Context& context, Storage& storage, protocol::Plan plan, transport::NodeIdentity self,
             StepOptions options = {});
  ~StepRunner();

  const protocol::Plan& plan() const noexcept { return plan_; }

  // Runs step `index` and reports it; the step fails if its flows have not all ended
  // `timeout` after it started (the coordinator's StepRelease.timeout_ms). Never throws for
  // a network or storage problem: the report says what went wrong (ok = false, error names
  // the peer and chunk).
  transport::Task<protocol::StepReport> run(std::uint32_t index, std::chrono::milliseconds timeout);

  // Ends the running step (if any) as failed with `reason`: its connections are closed
  // and run() returns promptly.
  void abort(const std::string& reason);

  // The job is over (ended or aborted by the coordinator): every later flow is refused,
  // and flows waiting for a release are refused at once.
  void close();

  // Where a flow announced by node `sender` (authenticated) goes: only a chunk the plan
  // has `sender` send to this node in the running step, only once, and nothing once the
  // job is closed. A flow of a planned step that is not running yet waits for its release
  // (the coordinator's barrier lets a sender start a step a moment before its receiver
  // hears of it), at most the transport's frame timeout. Returns early, refused, when the
  // awaiting coroutine is cancelled.
  transport::Task<IncomingFlow> resolve(transport::FlowSpec flow, std::string sender);

 private:
  struct StepState;
  const protocol::Step* find_step(std::uint32_t index) const;
  // A fresh state for step `index` with its destinations open; it becomes current_.
  std::shared_ptr<StepState> prepare(std::uint32_t index);
  // Whether step `flow.step` of this job is running now.
  bool running(const transport::FlowSpec& flow) const;
  transport::Task<void> send(std::shared_ptr<StepState> state, const protocol::Flow& flow);
  // The flow's chunks, one after another, over an authenticated connection.
  transport::Task<void> send_chunks(std::shared_ptr<StepState> state, transport::Connection& connection,
                                    const protocol::Flow& flow, std::string where);
  // Syncs the step's destinations off the executor; "" or what failed, naming the file.
  transport::Task<std::string> sync_destinations(std::shared_ptr<StepState> state);
  // Chunks that fit this node's pool buffers, and the transport's silence timeout (the
  // same one the data plane receives with).
  transport::SendOptions send_options() const;

  transport::Context& context_;
  Storage& storage_;
  protocol::Plan plan_;
  transport::NodeIdentity self_;
  StepOptions options_;
  std::shared_ptr<StepState> current_;
  bool closed_ = false;
  Signal released_;  // a step started or ended here, or the job closed: early flows look again
  std::unique_ptr<asio::thread_pool> sync_thread_;  // created at the first step with destinations
};

}  // namespace baton::agent
