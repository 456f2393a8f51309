#include "agent/step_runner.h"

#include "agent/agent_metrics.h"
#include "agent/packed.h"
#include "agent/scratch.h"
#include "agent/shifted.h"
#include "error/error.h"
#include "transport/errors.h"

#include <asio/bind_executor.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/thread_pool.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace baton::agent {
namespace {

using Phase = StepState::Task::Phase;

IncomingFlow refuse(std::string why) { return IncomingFlow{{nullptr, std::move(why), nullptr}, nullptr}; }

bool cancelled(asio::cancellation_state state) { return state.cancelled() != asio::cancellation_type::none; }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string range_text(std::uint64_t offset, std::uint64_t end) {
  return "[" + std::to_string(offset) + ", " + std::to_string(end) + ")";
}

// The planned chunks of one receive whose stream ranges tile a packed flow's range
// exactly, in `pieces`; or why there are none (docs/runtime.md, "Packed flows").
std::optional<error::Refusal> find_pack(const StepState& state, const transport::FlowSpec& flow,
                                        std::vector<std::size_t>& pieces) {
  const std::string what =
      "packed flow " + range_text(flow.offset, flow.end()) + " in step " + std::to_string(flow.step);
  if (flow.length == 0 || flow.end() < flow.offset)
    return "no planned chunk " + range_text(flow.offset, flow.end()) + " in step " + std::to_string(flow.step);
  for (std::uint64_t at = flow.offset; at < flow.end();) {
    const auto next = state.by_stream.lower_bound({at, 1});
    if (next == state.by_stream.end() || next->first.first != at) {
      return at == flow.offset
                 ? "no planned chunk " + range_text(flow.offset, flow.end()) + " in step " + std::to_string(flow.step)
                 : what + ": no planned chunk starts at stream offset " + std::to_string(at);
    }
    const StepState::Incoming& in = state.incoming[next->second];
    if (in.chunk->length() > flow.end() - at && pieces.empty()) {
      return "no planned chunk " + range_text(flow.offset, flow.end()) + " in step " + std::to_string(flow.step) +
             " (planned chunk " + range_text(at, at + in.chunk->length()) + ", transfer " +
             std::to_string(in.chunk->transfer()) + ", starts there)";
    }
    if (in.chunk->length() > flow.end() - at) {
      return what + " ends inside planned chunk " + range_text(at, at + in.chunk->length()) + " (transfer " +
             std::to_string(in.chunk->transfer()) + ")";
    }
    if (!pieces.empty() && in.task != state.incoming[pieces.front()].task)
      return what + " spans the chunks of two flows (at stream offset " + std::to_string(at) + ")";
    pieces.push_back(next->second);
    at += in.chunk->length();
  }
  return std::nullopt;
}

// A dataflow send is paced toward its planned end (docs/transport.md, "Pacing toward a
// planned end"): on time, at its planned mean (bytes over its planned span), so the flows
// a plan runs side by side into one link fill it and no more; late, faster, up to the
// flow's rate. A task without a planned span (a lockstep flow) keeps its rate.
void aim_at_planned_end(transport::SteadyPacer& pacer, const StepState::Task& task,
                        StepState::clock::time_point released) {
  const double span = task.planned_end - task.planned_start;
  if (!(span > 0)) return;
  std::uint64_t bytes = 0;
  for (const protocol::Chunk& chunk : task.flow->chunks()) bytes += chunk.length();
  const auto end = released + std::chrono::duration_cast<StepState::clock::duration>(
                                  std::chrono::duration<double>(task.planned_end));
  const double mean = std::min(static_cast<double>(bytes) / span,
                               static_cast<double>(transport::TokenBucket<StepState::clock>::max_rate));
  pacer.aim(end, bytes, static_cast<std::uint64_t>(mean));
}

}  // namespace

StepRunner::StepRunner(transport::Context& context, Storage& storage, protocol::Plan plan, transport::NodeIdentity self,
                       StepOptions options, std::unique_ptr<Storage> scratch)
    : context_(context), storage_(storage), plan_(std::move(plan)), self_(std::move(self)), options_(options),
      scratch_(std::move(scratch)), gate_(context.executor()) {
  if (!options_.links) options_.links = std::make_shared<PeerLinks>(context_, self_);
  if (plan_.members_size() > 0) {
    BarrierMembers members;  // the plan was checked (check_members): a refusal here is a broken rule
    if (const std::optional<error::Refusal> wrong = read_barrier_members(plan_, self_.node_id, members))
      throw error::Bug("a self-paced plan passed its checks with wrong members: " + wrong->reason);
    barrier_ = std::make_shared<StepBarrier>(context_, plan_.job_number(), std::move(members), options_.links);
  }
}

StepRunner::~StepRunner() {
  if (current_) current_->over = true;
}

void StepRunner::abort(const std::string& reason) {
  if (barrier_) barrier_->abort("aborted: " + reason);
  if (!current_) return;
  current_->fail("aborted: " + reason);
  for (transport::Connection* c : current_->connections) c->fail(transport::errc::connection_failed);
}

void StepRunner::close() {
  closed_ = true;
  scratch_.reset();  // what a flow still writes into stays alive with its sink
  gate_.notify();
}

const protocol::Step* StepRunner::find_step(std::uint32_t index) const {
  for (const protocol::Step& step : plan_.steps()) {
    if (step.index() == index) return &step;
  }
  return nullptr;
}

std::unique_ptr<transport::Source> StepRunner::open_source(const std::string& name) {
  if (!is_scratch(name)) return storage_.source(name);
  if (!scratch_) throw error::InvalidInput(name + ": job " + plan_.job() + " has no scratch objects here");
  return scratch_->source(name);
}

std::unique_ptr<transport::Sink> StepRunner::open_sink(const std::string& name) {
  if (!is_scratch(name)) return storage_.sink(name);
  if (!scratch_) throw error::InvalidInput(name + ": job " + plan_.job() + " has no scratch objects here");
  return scratch_->sink(name);
}

std::shared_ptr<StepState> StepRunner::prepare(std::uint32_t index) {
  auto state = std::make_shared<StepState>(context_.executor(), plan_.job_number(), index, find_step(index));
  state->metrics = options_.metrics;
  if (state->dataflow && plan_.node_rate() > 0) state->cap_links(plan_.node_rate());
  // Open every object the step writes first, so a storage problem fails the step before
  // any byte moves.
  try {
    const auto destination = [&](const std::string& name) -> transport::Sink& {
      auto file = state->destinations.find(name);
      if (file == state->destinations.end()) file = state->destinations.emplace(name, open_sink(name)).first;
      return *file->second;
    };
    for (StepState::Incoming& in : state->incoming) {
      const protocol::Chunk& c = *in.chunk;
      in.sink = std::make_unique<ShiftedSink>(destination(c.dst_file()), c.stream_offset(), c.dst_offset(), c.length(),
                                              &state->bytes_moved);
    }
    for (const StepState::Task& task : state->tasks) {
      if (task.combine != nullptr) destination(task.combine->output().object());
    }
  } catch (const std::exception& e) {
    state->fail(e.what());
  }
  current_ = state;
  return state;
}

asio::awaitable<protocol::StepReport> StepRunner::run(std::uint32_t index, std::chrono::milliseconds timeout,
                                                      std::uint64_t release, ChunkDigests digests) {
  const auto started = std::chrono::steady_clock::now();
  protocol::StepReport report;
  report.set_job(plan_.job());
  report.set_step(index);

  const std::shared_ptr<StepState> state = prepare(index);
  state->released = started;
  state->release = release;
  state->digests_reported = digests == ChunkDigests::reported;
  gate_.notify();  // flows that arrived before the release go on (see resolve())

  const auto deadline = started + timeout;
  for (;;) {
    while (state->error.empty() && advance(state)) {
    }
    if (state->complete()) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      std::string why = "step " + std::to_string(index) + " timed out after " + std::to_string(timeout.count()) + " ms";
      if (state->dataflow) {
        why += " with task(s) unfinished:";
        for (std::size_t t = 0; t < state->tasks.size(); ++t) {
          if (state->tasks[t].phase != Phase::done) why += " " + state->label(t) + ";";
        }
        why.pop_back();
      } else {
        const auto missing = std::count_if(state->incoming.begin(), state->incoming.end(),
                                           [](const StepState::Incoming& in) { return !in.done; });
        const auto sending = std::count_if(state->tasks.begin(), state->tasks.end(),
                                           [](const StepState::Task& t) { return t.send() && t.phase != Phase::done; });
        why += " with " + std::to_string(missing) + " incoming chunk(s) missing and " + std::to_string(sending) +
               " send flow(s) unfinished";
      }
      // Why a send is stuck (TCP: retransmission back-off, or a receiver that reads nothing).
      for (transport::Connection* c : state->connections) {
        if (const std::string link = c->link_state(); !link.empty()) why += "; to " + c->peer() + ": " + link;
      }
      state->fail(why);
      break;
    }
    co_await state->changed.wait_until(deadline);
  }
  // On failure, end the sends and combines still running and wait for them: they use this
  // step's state.
  if (!state->error.empty()) {
    for (transport::Connection* c : state->connections) c->fail(transport::errc::connection_failed);
    while (state->working > 0) co_await state->changed.wait();
  }
  state->over = true;
  gate_.notify();  // early flows of a retry of this step wait for its next release
  // Done means durable: every byte received is on disk before the report says so.
  if (state->error.empty()) {
    if (const std::optional<error::Refusal> failed = co_await sync_destinations(state))
      state->fail("step " + std::to_string(index) + ": " + failed->reason);
  }
  state->close_files();

  std::uint64_t received = 0;
  for (const StepState::Incoming& in : state->incoming) {
    if (!in.done) continue;
    received += in.chunk->length();
    if (!state->digests_reported) continue;
    protocol::ChunkDigest* digest = report.add_digests();
    digest->set_transfer(in.chunk->transfer());
    digest->set_dst_offset(in.chunk->dst_offset());
    digest->set_length(in.chunk->length());
    digest->set_xxh3(in.checksum);
  }
  report.mutable_sent()->Reserve(static_cast<int>(state->sent.size()));
  for (protocol::ChunkDigest& digest : state->sent) *report.add_sent() = std::move(digest);
  for (protocol::TaskTiming& timing : state->timings()) *report.add_tasks() = std::move(timing);
  report.set_ok(state->error.empty());
  report.set_error(state->error);
  report.set_bytes(received + state->bytes_sent);
  report.set_seconds(seconds_since(started));
  co_return report;
}

// A lockstep step starts every flow at once. A dataflow task starts once every task it
// waits for is done; a send also waits until fewer than the plan's k of the node's earlier
// sends (in list order) are unfinished: with k = 1 the papers' 1-port model, with no
// barrier between tasks.
bool StepRunner::advance(const std::shared_ptr<StepState>& state) {
  bool started = false;
  const auto sends_at_once = static_cast<std::size_t>(plan_.k());
  std::size_t unfinished_sends = 0;  // a dataflow step's sends ahead of this task, not done
  for (std::size_t t = 0; t < state->tasks.size(); ++t) {
    StepState::Task& task = state->tasks[t];
    const bool in_order = !state->dataflow || !task.send() || unfinished_sends < sends_at_once;
    if (task.send() && task.phase != Phase::done) ++unfinished_sends;
    if (task.phase != Phase::waiting || !in_order || !state->ready(t)) continue;
    task.phase = Phase::running;
    task.start = std::chrono::steady_clock::now();
    started = true;
    if (task.receive()) {
      gate_.notify();  // its flows may come in now
      if (task.chunks_left == 0) state->finish(t);
    } else {
      ++state->working;
      if (task.send()) asio::co_spawn(context_.executor(), send(state, t), asio::detached);
      else asio::co_spawn(context_.executor(), combine(state, t), asio::detached);
    }
  }
  return started;
}

// Syncs each destination once; nothing, or the first failure naming its file.
namespace {

asio::awaitable<std::optional<error::Refusal>> sync_each(std::vector<std::pair<std::string, transport::Sink*>> files) {
  for (const auto& [name, sink] : files) {
    if (const std::error_code error = sink->sync()) co_return "cannot make " + name + " durable: " + error.message();
  }
  co_return std::nullopt;
}

}  // namespace

asio::thread_pool& StepRunner::worker() {
  if (!worker_) worker_ = std::make_unique<asio::thread_pool>(1);
  return *worker_;
}

// fdatasync of a large step can take seconds: it runs on the worker thread, so that the
// executor keeps serving heartbeats and other connections meanwhile. Nothing else touches
// the step's destinations then: every flow into them has finished and late ones are refused.
// Scratch objects are not results: they are not synced.
asio::awaitable<std::optional<error::Refusal>> StepRunner::sync_destinations(std::shared_ptr<StepState> state) {
  std::vector<std::pair<std::string, transport::Sink*>> files;
  for (const auto& [name, sink] : state->destinations) {
    if (!is_scratch(name)) files.emplace_back(name, sink.get());
  }
  if (files.empty()) co_return std::nullopt;
  co_return co_await asio::co_spawn(worker().get_executor(), sync_each(std::move(files)), asio::use_awaitable);
}

// A combine reads and folds whole arrays: on the worker thread, so the executor keeps
// moving bytes meanwhile. One at a time (one worker thread), through one pair of buffers.
asio::awaitable<void> StepRunner::combine(std::shared_ptr<StepState> state, std::size_t t) {
  StepState::Task& task = state->tasks[t];
  const protocol::Combine& spec = *task.combine;
  std::optional<error::Refusal> failed;
  std::vector<std::unique_ptr<transport::Source>> opened;
  std::vector<const transport::Source*> inputs;
  try {
    for (const protocol::Region& input : spec.inputs())
      inputs.push_back(opened.emplace_back(open_source(input.object())).get());
  } catch (const std::exception& e) {
    failed = std::string("input ") + e.what();
  }
  if (!failed) {
    if (!combine_buffers_) combine_buffers_ = std::make_unique<CombineBuffers>(context_.pool().buffer_size());
    transport::Sink& output = *state->destinations.at(spec.output().object());
    const auto executor = co_await asio::this_coro::executor;
    co_await asio::post(asio::bind_executor(worker().get_executor(), asio::use_awaitable));
    task.start = std::chrono::steady_clock::now();  // when it had the worker
    failed = run_combine(spec, inputs, output, *combine_buffers_, state->failed);
    co_await asio::post(asio::bind_executor(executor, asio::use_awaitable));
  }
  if (!failed) {
    task.bytes = spec.output().length();
    state->finish(t);
  } else {
    task.phase = Phase::failed;
    if (!state->failed)
      state->fail("step " + std::to_string(state->step) + ", " + state->label(t) + ": " + failed->reason);
  }
  --state->working;
  state->changed.notify();
}

transport::SendOptions StepRunner::send_options() const {
  return {.max_chunk = context_.pool().buffer_size() - transport::frame_header_size,
          .frame_timeout = context_.options().frame_timeout};
}

asio::awaitable<void> StepRunner::send(std::shared_ptr<StepState> state, std::size_t t) {
  const protocol::Flow& flow = *state->tasks[t].flow;
  const std::string where =
      state->dataflow ? "step " + std::to_string(state->step) + ", " + state->label(t) + " at " + flow.peer_address()
                      : "step " + std::to_string(state->step) + " to " + flow.peer() + " (" + flow.peer_address() + ")";
  bool sent = false;
  error::Result<Link> link = co_await options_.links->acquire(flow.peer(), flow.peer_address());
  if (!link.ok()) {
    state->fail(where + ": " + link.detail);
  } else if (!state->error.empty()) {
    link.value.keep();  // the step already failed while we were connecting: the link is fine
  } else {
    transport::Connection& connection = link.value.connection();
    state->connections.push_back(&connection);
    // A dataflow send reads objects earlier tasks wrote: it opens them itself, now.
    std::map<std::string, std::unique_ptr<transport::Source>> own_sources;
    const std::optional<error::Refusal> failed =
        co_await send_chunks(state, t, connection, where, state->dataflow ? own_sources : state->sources);
    if (failed) state->fail(failed->reason);
    sent = !failed;
    std::erase(state->connections, &connection);
    if (sent && options_.metrics) options_.metrics->add("baton_agent_sends_total", {{"path", link.value.path()}});
    if (sent) link.value.keep();
  }
  if (sent) state->finish(t);
  else state->tasks[t].phase = Phase::failed;
  --state->working;
  state->changed.notify();
}

asio::awaitable<std::optional<error::Refusal>> StepRunner::send_chunks(
    std::shared_ptr<StepState> state, std::size_t t, transport::Connection& connection, std::string where,
    std::map<std::string, std::unique_ptr<transport::Source>>& sources) {
  const protocol::Flow& flow = *state->tasks[t].flow;
  transport::SteadyPacer pacer({.rate_bytes_per_second = static_cast<std::uint64_t>(flow.rate()), .burst_bytes = 0},
                               state->send_cap ? &*state->send_cap : nullptr, std::chrono::steady_clock::now());
  // A dataflow send starts with one piece, not a whole burst, which would queue ahead of
  // the acks its node sends for other flows (docs/transport.md, "A flow's first piece").
  // A lockstep step's flows all start together after a barrier, none waiting on an ack
  // meanwhile; their head start shortens every step (docs/runtime.md, "Pacing and the
  // model"), as Fig. 16's small steps were measured.
  if (state->dataflow) pacer.start_with_one_piece(std::chrono::steady_clock::now());
  aim_at_planned_end(pacer, state->tasks[t], state->released);
  std::optional<error::Refusal> unopened;
  const auto open = [&](const std::string& name) -> const transport::Source* {
    auto file = sources.find(name);
    if (file == sources.end()) {
      try {
        file = sources.emplace(name, open_source(name)).first;
      } catch (const std::exception& e) {
        unopened = where + ": " + e.what();
        return nullptr;
      }
    }
    return file->second.get();
  };
  // Chunks whose stream ranges follow one another go together, up to one frame's payload
  // (agent/packed.h): one flow, one round trip, for many small ranges.
  for (const auto& [first, last] : pack_runs(flow.chunks(), send_options().max_chunk)) {
    std::vector<ShiftedSource> shifted;
    shifted.reserve(last - first);
    std::vector<PackPiece> pieces;
    std::vector<const transport::Source*> parts;
    for (std::size_t c = first; c < last; ++c) {
      const protocol::Chunk& chunk = flow.chunks(static_cast<int>(c));
      const transport::Source* file = open(chunk.src_file());
      if (file == nullptr) co_return unopened;
      shifted.emplace_back(*file, chunk.stream_offset(), chunk.src_offset(), chunk.length(), &state->bytes_moved);
      pieces.push_back({chunk.stream_offset(), chunk.length()});
    }
    for (const ShiftedSource& part : shifted) parts.push_back(&part);
    const protocol::Chunk& head = flow.chunks(static_cast<int>(first));
    const std::uint64_t length = pieces.back().stream + pieces.back().length - head.stream_offset();
    std::optional<GatherSource> gather;
    if (last - first > 1) gather.emplace(head.stream_offset(), length, pieces, parts);
    const transport::Source& source = gather ? static_cast<const transport::Source&>(*gather) : shifted.front();
    const transport::FlowSpec spec{.job = state->job,
                                   .step = state->step,
                                   .offset = head.stream_offset(),
                                   .length = length,
                                   .release = state->release};
    if (state->metrics) state->metrics->adjust("baton_agent_flows_active", {{"direction", "sent"}}, 1);
    const transport::FlowReport sent =
        co_await transport::send_flow(connection, spec, source, pacer, context_.pool(), send_options());
    if (state->metrics) {
      state->metrics->adjust("baton_agent_flows_active", {{"direction", "sent"}}, -1);
      count_flow(*state->metrics, "sent", sent.bytes_verified, sent.error);
    }
    if (!sent.ok()) {
      const std::string packed =
          last - first > 1 ? ", packed with " + std::to_string(last - first - 1) + " other chunk(s)" : std::string();
      co_return where + ": transfer " + std::to_string(head.transfer()) + " (from " + head.src_file() + packed +
          "): " + sent.describe();
    }
    for (std::size_t c = first; c < last; ++c) {
      const protocol::Chunk& chunk = flow.chunks(static_cast<int>(c));
      state->bytes_sent += chunk.length();
      state->tasks[t].bytes += chunk.length();
      if (!state->digests_reported) continue;
      protocol::ChunkDigest& digest = state->sent.emplace_back();
      digest.set_transfer(chunk.transfer());
      digest.set_dst_offset(chunk.dst_offset());
      digest.set_length(chunk.length());
      digest.set_xxh3(gather ? gather->checksum(c - first) : sent.checksum);
    }
  }
  co_return std::nullopt;
}

bool StepRunner::running(const transport::FlowSpec& flow) const {
  // A flow and an attempt that both carry a release number must carry the same: a flow
  // of a failed attempt, still waiting here for its step, is not one of the retry's.
  if (!current_ || current_->over || flow.job != current_->job || flow.step != current_->step) return false;
  return flow.release == 0 || current_->release == 0 || flow.release == current_->release;
}

asio::awaitable<IncomingFlow> StepRunner::resolve(transport::FlowSpec flow, std::string sender) {
  // The barrier guarantees a sender starts step s only after every agent reported step
  // s - 1 (or its failed attempt at s): a flow arriving before our own release of its step
  // waits for run() to make the step's state.
  // At most 9/10 of the frame timeout: the sender waits the whole of it for our answer, so
  // it hears the refusal and its reason rather than silence.
  const auto deadline = std::chrono::steady_clock::now() + context_.options().frame_timeout * 9 / 10;
  if (barrier_ && StepBarrier::carries_vote(flow) && !closed_) {
    transport::ResolvedSink vote = barrier_->receive(flow, sender);
    if (!vote.sink) co_return refuse(std::move(vote.refusal));
    co_return IncomingFlow{std::move(vote), [](const transport::FlowReport&) {}};
  }
  for (;;) {
    if (closed_) co_return refuse("job " + plan_.job() + " has ended on this node");
    const bool planned = flow.job == plan_.job_number() && find_step(flow.step) != nullptr;
    if (!running(flow)) {
      if (!planned || std::chrono::steady_clock::now() >= deadline) {
        const std::string release = flow.release == 0 ? "" : " release " + std::to_string(flow.release);
        co_return refuse("no step of job " + std::to_string(flow.job) + " step " + std::to_string(flow.step) + release +
                         " is running here");
      }
      co_await gate_.wait_until(deadline);
    } else {
      const std::shared_ptr<StepState> state = current_;
      std::vector<std::size_t> pieces;  // the incoming chunks the flow carries, in stream order
      if (const auto one = state->by_stream.find({flow.offset, flow.length}); one != state->by_stream.end()) {
        pieces.push_back(one->second);
      } else if (std::optional<error::Refusal> why = find_pack(*state, flow, pieces)) {
        co_return refuse(std::move(why->reason));
      }
      StepState::Task& task = state->tasks[state->incoming[pieces.front()].task];
      if (task.flow->peer() != sender) {
        co_return refuse("the chunk at stream offset " + std::to_string(flow.offset) + " of step " +
                         std::to_string(flow.step) + " comes from " + task.flow->peer() + " in the plan, not from " +
                         sender);
      }
      for (std::size_t i : pieces) {
        if (state->incoming[i].started)
          co_return refuse("the chunk at stream offset " + std::to_string(state->incoming[i].chunk->stream_offset()) +
                           " arrived twice");
      }
      if (task.phase == Phase::running) {
        for (std::size_t i : pieces) state->incoming[i].started = true;
        if (!task.accepted_any) task.start = std::chrono::steady_clock::now();
        task.accepted_any = true;
        ++state->flows_receiving;
        if (state->metrics) state->metrics->adjust("baton_agent_flows_active", {{"direction", "received"}}, 1);
        StepState::Incoming& first = state->incoming[pieces.front()];
        if (pieces.size() == 1) {
          co_return IncomingFlow{{first.sink.get(), {}, first.pacer.get()},
                                 [state](const transport::FlowReport& r) { state->finished(r); }};
        }
        std::vector<PackPiece> parts;
        std::vector<transport::Sink*> sinks;
        for (std::size_t i : pieces) {
          parts.push_back({state->incoming[i].chunk->stream_offset(), state->incoming[i].chunk->length()});
          sinks.push_back(state->incoming[i].sink.get());
        }
        ScatterSink& sink = *state->packs.emplace_back(
            std::make_unique<ScatterSink>(flow.offset, flow.length, std::move(parts), std::move(sinks)));
        co_return IncomingFlow{{&sink, {}, first.pacer.get()}, [state, pieces, &sink](const transport::FlowReport& r) {
                                 state->finished_pack(r, pieces, sink);
                               }};
      }
      // Its receive task waits for other tasks: so does the flow, until the task starts
      // or the step ends.
      co_await gate_.wait();
    }
    if (cancelled(co_await asio::this_coro::cancellation_state)) co_return refuse("the agent is stopping");
  }
}

std::optional<protocol::StepProgress> StepRunner::progress() const {
  if (!current_ || current_->over) return std::nullopt;
  protocol::StepProgress progress;
  progress.set_step(current_->step);
  progress.set_bytes(current_->bytes_moved);
  for (protocol::TaskTiming& timing : current_->timings()) *progress.add_tasks() = std::move(timing);
  return progress;
}

}  // namespace baton::agent
