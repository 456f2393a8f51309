// Runs one agent's part of a job, step by step (docs/runtime.md, "Steps" and "The data
// plane"; docs/collectives.md, "Tasks"). A lockstep step's flows all start at its release:
// it sends its chunks to their receivers at the planned rate and waits until every chunk
// due to it has arrived and been verified. A dataflow step's tasks start as soon as the
// tasks they wait for are done: its sends one at a time in list order (the node's one
// send port), its receives accepted from then on, its combines on a worker thread. Either
// way the runner then makes the objects it wrote durable (fdatasync, once per file) and
// reports the step with one digest per chunk received and sent.
//
// Incoming flows arrive on the node's data listener (agent/data_plane.h), which asks
// resolve() where each one goes and calls the answer's `finished` when the flow ends. A
// step's state is made in one place, run(): a flow that arrives before the step's release
// (or before its receive task may start) waits (resolve() is a coroutine).
//
// Threading: everything runs on the transport context's executor, but combines and syncs,
// which run on the runner's worker thread. One run() at a time.
#pragma once

#include "agent/combine_task.h"
#include "agent/peer_links.h"
#include "agent/signal.h"
#include "agent/step_barrier.h"
#include "agent/step_state.h"
#include "agent/storage.h"
#include "error/refusal.h"
#include "metrics/registry.h"
#include "protocol/baton.pb.h"
#include "transport/authenticate.h"
#include "transport/context.h"
#include "transport/flow.h"

#include <asio/thread_pool.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace baton::agent {

struct StepOptions {
  // Where flows are counted (agent/agent_metrics.h); none when null.
  std::shared_ptr<metrics::Registry> metrics{};
  // The kept connections sends go over (agent/peer_links.h), shared by every job of an
  // agent; when null, the runner keeps its own for its job.
  std::shared_ptr<PeerLinks> links{};
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
  // `plan` must have passed check_plan. The context and storage outlive the runner.
  // `scratch` holds the plan's scratch objects (agent/scratch.h; null when it names none)
  // until close(). Sends authenticate as `self` to each receiver (transport/authenticate.h).
  StepRunner(transport::Context& context, Storage& storage, protocol::Plan plan, transport::NodeIdentity self,
             StepOptions options = {}, std::unique_ptr<Storage> scratch = nullptr);
  ~StepRunner();

  const protocol::Plan& plan() const noexcept { return plan_; }

  // Runs step `index` and reports it; the step fails if its tasks have not all ended
  // `timeout` after it started (the coordinator's StepRelease.timeout_ms). Never throws for
  // a network or storage problem: the report says what went wrong (ok = false, error names
  // the peer and chunk, and for a dataflow step the task and object). `release`: the
  // coordinator's number for this release (StepRelease.range; 0 when it gave none). Its
  // sends carry it, and a flow of another release of the same step (an earlier attempt's,
  // still on its way) is not taken into this one.
  // `digests`: whether the report lists every chunk's digest, received and sent, for the
  // coordinator to match (a job's steps), or only counts (an exchange of a kept plan, whose
  // chunks each receiver checked against its sender's and nobody matches again).
  enum class ChunkDigests { reported, counted };
  asio::awaitable<protocol::StepReport> run(std::uint32_t index, std::chrono::milliseconds timeout,
                                            std::uint64_t release = 0, ChunkDigests digests = ChunkDigests::reported);

  // Ends the running step (if any) as failed with `reason`: its connections are closed
  // and run() returns promptly.
  void abort(const std::string& reason);

  // The job is over (ended or aborted by the coordinator): every later flow is refused,
  // flows waiting for a release are refused at once, and the scratch objects go.
  void close();

  // Where a flow announced by node `sender` (authenticated) goes: only a chunk the plan
  // has `sender` send to this node in the running step, only once, and nothing once the
  // job is closed. A flow of a planned step that is not running yet waits for its release
  // (the coordinator's barrier lets a sender start a step a moment before its receiver
  // hears of it), at most 9/10 of the transport's frame timeout; one whose receive task waits for
  // other tasks waits for them. Returns early, refused, when the awaiting coroutine is
  // cancelled.
  asio::awaitable<IncomingFlow> resolve(transport::FlowSpec flow, std::string sender);

  // The running step's progress (StepProgress, without the job): bytes moved so far and,
  // for a dataflow step, the tasks that have ended. nullopt when no step is running.
  std::optional<protocol::StepProgress> progress() const;

  // The barrier among the plan's members between self-paced steps (agent/step_barrier.h);
  // null when the plan names no members (every step waits for the coordinator's release).
  StepBarrier* barrier() const noexcept { return barrier_.get(); }

 private:
  const protocol::Step* find_step(std::uint32_t index) const;
  // A fresh state for step `index` with its destinations open; it becomes current_.
  std::shared_ptr<StepState> prepare(std::uint32_t index);
  // Whether step `flow.step` of this job is running now, in the release the flow names.
  bool running(const transport::FlowSpec& flow) const;
  // Starts every task that may start now; true if it started any.
  bool advance(const std::shared_ptr<StepState>& state);
  asio::awaitable<void> send(std::shared_ptr<StepState> state, std::size_t task);
  // The flow's chunks, one after another, over a kept authenticated connection, reading
  // through `sources` (opened as needed, one per object). Nothing, or why one failed.
  asio::awaitable<std::optional<error::Refusal>> send_chunks(
      std::shared_ptr<StepState> state, std::size_t task, transport::Connection& connection, std::string where,
      std::map<std::string, std::unique_ptr<transport::Source>>& sources);
  asio::awaitable<void> combine(std::shared_ptr<StepState> state, std::size_t task);
  // Syncs the step's destinations (not its scratch objects) off the executor; nothing, or
  // what failed, naming the file.
  asio::awaitable<std::optional<error::Refusal>> sync_destinations(std::shared_ptr<StepState> state);
  // Objects by name: scratch ones from the job's scratch, the rest from the node's storage.
  std::unique_ptr<transport::Source> open_source(const std::string& name);
  std::unique_ptr<transport::Sink> open_sink(const std::string& name);
  // Chunks that fit this node's pool buffers, and the transport's silence timeout (the
  // same one the data plane receives with).
  transport::SendOptions send_options() const;
  asio::thread_pool& worker();

  transport::Context& context_;
  Storage& storage_;
  protocol::Plan plan_;
  transport::NodeIdentity self_;
  StepOptions options_;
  std::unique_ptr<Storage> scratch_;
  std::shared_ptr<StepState> current_;
  bool closed_ = false;
  // A step started or ended here, a receive task started, or the job closed: flows
  // waiting in resolve() look again.
  Signal gate_;
  std::unique_ptr<CombineBuffers> combine_buffers_;  // made at the first combine
  std::unique_ptr<asio::thread_pool> worker_;        // combines and syncs; made at the first
  std::shared_ptr<StepBarrier> barrier_;
};

}  // namespace baton::agent
