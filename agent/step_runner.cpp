#include "agent/step_runner.h"

#include "agent/agent_metrics.h"
#include "agent/shifted.h"
#include "transport/errors.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/thread_pool.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace baton::agent {

// One step in progress. Shared with the data plane's flows (resolve() captures it in
// IncomingFlow::finished) so that a flow still running when the step ends writes into
// live objects.
//
// Each object (file) the step names is opened once, by name, and shared by all its chunks:
// a step of thousands of chunks into one file holds one descriptor, not thousands. They
// are closed when the step is over and no flow of it is still writing.
struct StepRunner::StepState {
  std::map<std::string, std::unique_ptr<transport::Sink>> destinations;
  std::map<std::string, std::unique_ptr<transport::Source>> sources;
  struct Incoming {
    const protocol::Chunk* chunk = nullptr;
    const std::string* sender = nullptr;  // the node the plan has send it
    std::unique_ptr<ShiftedSink> sink;    // into destinations[chunk->dst_file()]
    bool started = false;
    bool done = false;
    std::uint64_t checksum = 0;
  };
  std::uint64_t job = 0;
  std::uint32_t step = 0;
  std::vector<Incoming> incoming;
  std::size_t incoming_done = 0;
  std::size_t flows_receiving = 0;  // accepted by resolve(), not finished yet
  std::size_t sends_running = 0;
  std::uint64_t bytes_sent = 0;
  std::vector<protocol::ChunkDigest> sent;     // one per chunk sent and acknowledged
  std::shared_ptr<metrics::Registry> metrics;  // the runner's options', shared with late flows
  std::string error;                           // the first failure
  std::vector<transport::Connection*> connections;
  bool over = false;  // run() has returned: late flows are refused
  Signal changed;     // a flow or a send ended, or the step failed: run() looks again

  explicit StepState(const asio::any_io_executor& executor) : changed(executor) {}
  void fail(std::string why) {
    if (error.empty()) error = std::move(why);
  }
  void wake() { changed.notify(); }
  void finished(const transport::FlowReport& report);
  // Closes the step's files once it is over: sources at once (its sends have ended),
  // destinations when no flow is writing into them any more.
  void close_files() {
    sources.clear();
    if (flows_receiving > 0) return;
    for (Incoming& in : incoming) in.sink.reset();
    destinations.clear();
  }
  bool complete() const { return !error.empty() || (incoming_done == incoming.size() && sends_running == 0); }
};

StepRunner::StepRunner(transport::Context& context, Storage& storage, protocol::Plan plan, transport::NodeIdentity self,
                       StepOptions options)
    : context_(context), storage_(storage), plan_(std::move(plan)), self_(std::move(self)), options_(options),
      released_(context.executor()) {}

StepRunner::~StepRunner() {
  if (current_) current_->over = true;
}

void StepRunner::close() {
  closed_ = true;
  released_.notify();
}

void StepRunner::abort(const std::string& reason) {
  if (!current_) return;
  current_->fail("aborted: " + reason);
  for (transport::Connection* c : current_->connections) c->fail(transport::errc::connection_failed);
  current_->wake();
}

const protocol::Step* StepRunner::find_step(std::uint32_t index) const {
  for (const protocol::Step& step : plan_.steps()) {
    if (step.index() == index) return &step;
  }
  return nullptr;
}

std::shared_ptr<StepRunner::StepState> StepRunner::prepare(std::uint32_t index) {
  auto state = std::make_shared<StepState>(context_.executor());
  state->job = plan_.job_number();
  state->step = index;
  state->metrics = options_.metrics;
  if (const protocol::Step* planned = find_step(index)) {
    // Open every destination first, so a storage problem fails the step before any byte moves.
    try {
      for (const protocol::Flow& flow : planned->flows()) {
        if (flow.send()) continue;
        for (const protocol::Chunk& chunk : flow.chunks()) {
          auto file = state->destinations.find(chunk.dst_file());
          if (file == state->destinations.end())
            file = state->destinations.emplace(chunk.dst_file(), storage_.sink(chunk.dst_file())).first;
          StepState::Incoming& in = state->incoming.emplace_back();
          in.chunk = &chunk;
          in.sender = &flow.peer();
          in.sink =
              std::make_unique<ShiftedSink>(*file->second, chunk.stream_offset(), chunk.dst_offset(), chunk.length());
        }
      }
    } catch (const std::exception& e) {
      state->fail(e.what());
    }
  }
  current_ = state;
  return state;
}

transport::Task<protocol::StepReport> StepRunner::run(std::uint32_t index, std::chrono::milliseconds timeout) {
  const auto started = std::chrono::steady_clock::now();
  protocol::StepReport report;
  report.set_job(plan_.job());
  report.set_step(index);

  const std::shared_ptr<StepState> state = prepare(index);
  released_.notify();  // flows that arrived before the release go on (see resolve())
  const protocol::Step* planned = find_step(index);
  if (planned != nullptr && state->error.empty()) {
    for (const protocol::Flow& flow : planned->flows()) {
      if (!flow.send()) continue;
      ++state->sends_running;
      asio::co_spawn(context_.executor(), send(state, flow), asio::detached);
    }
  }

  const auto deadline = started + timeout;
  bool timed_out = false;
  while (!state->complete()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    co_await state->changed.wait_until(deadline);
  }
  if (timed_out) {
    std::size_t missing = state->incoming.size() - state->incoming_done;
    std::string why = "step " + std::to_string(index) + " timed out after " + std::to_string(timeout.count()) +
                      " ms with " + std::to_string(missing) + " incoming chunk(s) missing and " +
                      std::to_string(state->sends_running) + " send flow(s) unfinished";
    // Why a send is stuck (TCP: retransmission back-off, or a receiver that reads nothing).
    for (transport::Connection* c : state->connections) {
      if (const std::string link = c->link_state(); !link.empty()) why += "; to " + c->peer() + ": " + link;
    }
    state->fail(why);
  }
  // On failure, end the sends still running and wait for them: they use this step's state.
  if (!state->error.empty()) {
    for (transport::Connection* c : state->connections) c->fail(transport::errc::connection_failed);
    while (state->sends_running > 0) co_await state->changed.wait();
  }
  state->over = true;
  released_.notify();  // early flows of a retry of this step wait for its next release
  // Done means durable: every byte received is on disk before the report says so.
  if (state->error.empty()) {
    if (std::string failed = co_await sync_destinations(state); !failed.empty())
      state->fail("step " + std::to_string(index) + ": " + failed);
  }
  state->close_files();

  std::uint64_t received = 0;
  for (const StepState::Incoming& in : state->incoming) {
    if (!in.done) continue;
    protocol::ChunkDigest* digest = report.add_digests();
    digest->set_transfer(in.chunk->transfer());
    digest->set_dst_offset(in.chunk->dst_offset());
    digest->set_length(in.chunk->length());
    digest->set_xxh3(in.checksum);
    received += in.chunk->length();
  }
  for (const protocol::ChunkDigest& digest : state->sent) *report.add_sent() = digest;
  report.set_ok(state->error.empty());
  report.set_error(state->error);
  report.set_bytes(received + state->bytes_sent);
  report.set_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  co_return report;
}

namespace {

// Syncs each destination once; "" or the first failure, naming its file.
transport::Task<std::string> sync_each(std::vector<std::pair<std::string, transport::Sink*>> files) {
  for (const auto& [name, sink] : files) {
    if (const std::error_code error = sink->sync()) co_return "cannot make " + name + " durable: " + error.message();
  }
  co_return std::string();
}

}  // namespace

// fdatasync of a large step can take seconds: it runs on a thread of its own, so that the
// executor keeps serving heartbeats and other connections meanwhile. Nothing else touches
// the step's destinations then: every flow into them has finished and late ones are refused.
transport::Task<std::string> StepRunner::sync_destinations(std::shared_ptr<StepState> state) {
  std::vector<std::pair<std::string, transport::Sink*>> files;
  for (const auto& [name, sink] : state->destinations) files.emplace_back(name, sink.get());
  if (files.empty()) co_return std::string();
  if (!sync_thread_) sync_thread_ = std::make_unique<asio::thread_pool>(1);
  co_return co_await asio::co_spawn(sync_thread_->get_executor(), sync_each(std::move(files)), asio::use_awaitable);
}

transport::SendOptions StepRunner::send_options() const {
  return {.max_chunk = context_.pool().buffer_size() - transport::frame_header_size,
          .frame_timeout = context_.options().frame_timeout};
}

transport::Task<void> StepRunner::send(std::shared_ptr<StepState> state, const protocol::Flow& flow) {
  const std::string where =
      "step " + std::to_string(state->step) + " to " + flow.peer() + " (" + flow.peer_address() + ")";
  auto connected = co_await context_.connect(flow.peer_address());
  if (connected.error) {
    state->fail(where + ": cannot connect: " + connected.error.message() + " " + connected.detail);
  } else if (!state->error.empty()) {
    // The step already failed while we were connecting.
  } else {
    transport::Connection& connection = *connected.connection;
    state->connections.push_back(&connection);
    const transport::Authentication receiver = co_await transport::authenticate_as_sender(
        connection, self_, flow.peer(), std::max(context_.options().frame_timeout, std::chrono::milliseconds(5000)));
    if (receiver.ok()) {
      co_await send_chunks(state, connection, flow, where);
    } else {
      state->fail(where + ": authentication: " + receiver.error.message() + ": " + receiver.detail);
    }
    std::erase(state->connections, &connection);
  }
  --state->sends_running;
  state->wake();
}

transport::Task<void> StepRunner::send_chunks(std::shared_ptr<StepState> state, transport::Connection& connection,
                                              const protocol::Flow& flow, std::string where) {
  transport::SteadyPacer pacer({.rate_bytes_per_second = static_cast<std::uint64_t>(flow.rate()), .burst_bytes = 0},
                               nullptr, std::chrono::steady_clock::now());
  for (const protocol::Chunk& chunk : flow.chunks()) {
    auto file = state->sources.find(chunk.src_file());
    if (file == state->sources.end()) {
      try {
        file = state->sources.emplace(chunk.src_file(), storage_.source(chunk.src_file())).first;
      } catch (const std::exception& e) {
        state->fail(where + ": " + e.what());
        co_return;
      }
    }
    const ShiftedSource source(*file->second, chunk.stream_offset(), chunk.src_offset(), chunk.length());
    const transport::FlowSpec spec{
        .job = state->job, .step = state->step, .offset = chunk.stream_offset(), .length = chunk.length()};
    if (state->metrics) state->metrics->adjust("baton_agent_flows_active", {{"direction", "sent"}}, 1);
    const transport::FlowReport sent =
        co_await transport::send_flow(connection, spec, source, pacer, context_.pool(), send_options());
    if (state->metrics) {
      state->metrics->adjust("baton_agent_flows_active", {{"direction", "sent"}}, -1);
      count_flow(*state->metrics, "sent", sent.bytes_verified, sent.error);
    }
    if (!sent.ok()) {
      state->fail(where + ": transfer " + std::to_string(chunk.transfer()) + " (from " + chunk.src_file() +
                  "): " + sent.describe());
      co_return;
    }
    state->bytes_sent += chunk.length();
    protocol::ChunkDigest& digest = state->sent.emplace_back();
    digest.set_transfer(chunk.transfer());
    digest.set_dst_offset(chunk.dst_offset());
    digest.set_length(chunk.length());
    digest.set_xxh3(sent.checksum);
  }
}

namespace {

IncomingFlow refuse(std::string why) { return IncomingFlow{{nullptr, std::move(why)}, nullptr}; }

bool cancelled(asio::cancellation_state state) { return state.cancelled() != asio::cancellation_type::none; }

}  // namespace

bool StepRunner::running(const transport::FlowSpec& flow) const {
  return current_ && !current_->over && flow.job == current_->job && flow.step == current_->step;
}

transport::Task<IncomingFlow> StepRunner::resolve(transport::FlowSpec flow, std::string sender) {
  // The barrier guarantees a sender starts step s only after every agent reported step
  // s - 1 (or its failed attempt at s): a flow arriving before our own release of its step
  // waits for run() to make the step's state.
  const auto deadline = std::chrono::steady_clock::now() + context_.options().frame_timeout;
  while (!closed_ && !running(flow) && flow.job == plan_.job_number() && find_step(flow.step) != nullptr &&
         std::chrono::steady_clock::now() < deadline) {
    co_await released_.wait_until(deadline);
    if (cancelled(co_await asio::this_coro::cancellation_state)) co_return refuse("the agent is stopping");
  }
  if (closed_) co_return refuse("job " + plan_.job() + " has ended on this node");
  if (!running(flow)) {
    co_return refuse("no step of job " + std::to_string(flow.job) + " step " + std::to_string(flow.step) +
                     " is running here");
  }
  const std::shared_ptr<StepState> state = current_;
  for (StepState::Incoming& in : state->incoming) {
    if (in.chunk->stream_offset() != flow.offset || in.chunk->length() != flow.length) continue;
    if (*in.sender != sender) {
      co_return refuse("the chunk at stream offset " + std::to_string(flow.offset) + " of step " +
                       std::to_string(flow.step) + " comes from " + *in.sender + " in the plan, not from " + sender);
    }
    if (in.started) co_return refuse("the chunk at stream offset " + std::to_string(flow.offset) + " arrived twice");
    in.started = true;
    ++state->flows_receiving;
    if (state->metrics) state->metrics->adjust("baton_agent_flows_active", {{"direction", "received"}}, 1);
    co_return IncomingFlow{{in.sink.get(), {}}, [state](const transport::FlowReport& r) { state->finished(r); }};
  }
  co_return refuse("no planned chunk [" + std::to_string(flow.offset) + ", " + std::to_string(flow.end()) +
                   ") in step " + std::to_string(flow.step));
}

void StepRunner::StepState::finished(const transport::FlowReport& report) {
  if (metrics) {
    metrics->adjust("baton_agent_flows_active", {{"direction", "received"}}, -1);
    count_flow(*metrics, "received", report.bytes_verified, report.error);
  }
  --flows_receiving;
  if (over) {
    close_files();
    return;
  }
  for (Incoming& in : incoming) {
    if (!in.started || in.done || in.chunk->stream_offset() != report.flow.offset) continue;
    if (report.ok()) {
      in.done = true;
      in.checksum = report.checksum;
      ++incoming_done;
    } else {
      fail("step " + std::to_string(step) + ": receiving transfer " + std::to_string(in.chunk->transfer()) + " (" +
           (in.sender ? *in.sender + "'s " : std::string()) + in.chunk->src_file() + "): " + report.describe());
    }
    wake();
    return;
  }
}

}  // namespace baton::agent
