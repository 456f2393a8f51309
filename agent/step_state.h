// One step in progress, as the step runner (agent/step_runner.h) runs it: its tasks (a
// dataflow step's, or one per flow of a lockstep step), the chunks it expects, the objects
// it opened, and how far it got. Shared with the data plane's flows (resolve() hands them
// `finished`, which holds it), so a flow still running when the step ends writes into
// live objects.
//
// Each object the step writes is opened once, when the step is prepared, and shared by
// all its chunks: a step of thousands of chunks into one file holds one descriptor. The
// objects are closed when the step is over and no flow of it is still writing.
//
// Threading: the transport context's executor, except `failed`, which a combine on the
// runner's worker thread reads.
#pragma once

#include "agent/packed.h"
#include "agent/shifted.h"
#include "agent/signal.h"
#include "metrics/registry.h"
#include "protocol/baton.pb.h"
#include "transport/connection.h"
#include "transport/flow.h"
#include "transport/source.h"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace baton::agent {

struct StepState {
  using clock = std::chrono::steady_clock;

  struct Task {
    std::uint32_t id = 0;                  // Task.id; a lockstep flow's position in its step
    const protocol::Flow* flow = nullptr;  // a send or a receive
    const protocol::Combine* combine = nullptr;
    std::vector<std::size_t> after;  // positions of the tasks it waits for
    enum class Phase { waiting, running, done, failed } phase = Phase::waiting;
    clock::time_point start{}, end{};
    std::uint64_t bytes = 0;      // moved so far: sent, received or combined
    std::size_t chunks_left = 0;  // a receive: its chunks not verified yet
    bool accepted_any = false;    // a receive: its first flow has been accepted (start is set)
    double planned_start = 0;     // a dataflow task's, seconds after the release (0, 0: none)
    double planned_end = 0;
    bool send() const { return flow != nullptr && flow->send(); }
    bool receive() const { return flow != nullptr && !flow->send(); }
  };

  struct Incoming {
    const protocol::Chunk* chunk = nullptr;
    std::size_t task = 0;               // the receive it belongs to
    std::unique_ptr<ShiftedSink> sink;  // into destinations[chunk->dst_file()]
    bool started = false;
    bool done = false;
    std::uint64_t checksum = 0;
    std::unique_ptr<transport::SteadyPacer> pacer;  // its reads within receive_cap; null when uncapped
  };

  // The tasks and expected chunks of `planned` (null: a step without work for this node).
  StepState(const asio::any_io_executor& executor, std::uint64_t job, std::uint32_t step,
            const protocol::Step* planned);

  const std::uint64_t job;
  const std::uint32_t step;
  bool dataflow = false;
  std::vector<Task> tasks;
  std::vector<Incoming> incoming;
  // incoming by (stream offset, length): where an announced flow's range starts
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> by_stream;
  // The sinks of packed flows accepted so far (agent/packed.h), writing into incoming sinks.
  std::vector<std::unique_ptr<ScatterSink>> packs;
  std::map<std::string, std::unique_ptr<transport::Sink>> destinations;  // every object the step writes
  std::map<std::string, std::unique_ptr<transport::Source>> sources;     // a lockstep step's send flows'
  clock::time_point released{};
  // The coordinator's number for the release this attempt runs (StepRelease.range; 0: not
  // numbered): its sends carry it, and it takes only flows that carry it (or none).
  std::uint64_t release = 0;
  bool digests_reported = true;     // the report lists each chunk's digest (StepRunner::run)
  std::size_t flows_receiving = 0;  // accepted by resolve(), not finished yet
  std::size_t working = 0;          // sends and combines under way: run() waits for them after a failure
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_moved = 0;               // sent and received so far, counted chunk by chunk (progress)
  std::vector<protocol::ChunkDigest> sent;     // one per chunk sent and acknowledged
  std::shared_ptr<metrics::Registry> metrics;  // the runner's options', shared with late flows
  std::string error;                           // the first failure
  std::atomic<bool> failed{false};             // error is set: a combine on the worker stops
  std::vector<transport::Connection*> connections;
  bool over = false;  // run() has returned: late flows are refused
  Signal changed;     // a task started or ended, or the step failed: run() looks again
  // A dataflow step's link caps (Plan.node_rate): its sends share send_cap, its incoming
  // chunks' reads share receive_cap; none when the plan sets no rate.
  std::optional<transport::NodeCap<clock>> send_cap, receive_cap;

  // Paces the step's sends together, and its reads together, at `bytes_per_second` each.
  void cap_links(double bytes_per_second);
  // Every task it waits for is done.
  bool ready(std::size_t task) const;
  void finish(std::size_t task);
  void fail(std::string why);
  // Failed, or every task done.
  bool complete() const;
  // "task 3 (receive from n2 into scratch:q2)" for a dataflow step's error messages.
  std::string label(std::size_t task) const;
  // When each finished task ran, in seconds after the release (a lockstep step's tasks are
  // its flows, numbered in the plan's order).
  std::vector<protocol::TaskTiming> timings() const;
  // What every incoming flow's end does first (metrics, the count of flows writing); false
  // when the step is over, its files then closed once no flow writes.
  bool flow_ended(const transport::FlowReport& report);
  // An incoming flow ended (the data plane calls it through IncomingFlow::finished).
  void finished(const transport::FlowReport& report);
  // A packed flow into incoming[first...] (in stream order) through `sink` ended.
  void finished_pack(const transport::FlowReport& report, const std::vector<std::size_t>& pieces,
                     const ScatterSink& sink);
  // Closes the step's objects once it is over: sources at once (its sends have ended),
  // destinations when no flow is writing into them any more.
  void close_files();
};

}  // namespace baton::agent
