// Flows: one byte range of one job step, streamed from a sender to a receiver over one
// Connection as begin, data*, end, answered by ack (or reject). See frame.h for the frames.
//
// The receiver verifies every chunk's XXH3-64 before handing it to its Sink, checks every
// length against its caps and every offset against the range, and at the end compares the
// whole-range checksum; the ack carries that checksum back, so a flow that returns success
// on both sides moved every byte exactly once and both sides agree on its hash.
//
// Any error ends the flow (and fails its connection, see connection.h) and is reported in a
// FlowReport with the peer, the range and how many bytes were verified; other flows on other
// connections are unaffected. Nothing here throws for a network condition.
//
// Lifetimes: the connection, source/sink, pacer and pool must outlive the awaited call
// (the specs and options are copied).
// Threading: run flows on the thread of the context that made the connection.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <system_error>

#include "transport/async.h"
#include "transport/buffer.h"
#include "transport/connection.h"
#include "transport/pacer.h"
#include "transport/source.h"

namespace baton::transport {

using SteadyPacer = FlowPacer<std::chrono::steady_clock>;

struct FlowSpec {
  std::uint64_t job = 0;
  std::uint32_t step = 0;
  std::uint64_t offset = 0;  // first byte of the range
  std::uint64_t length = 0;  // bytes in the range (0 is a valid, empty flow)
  // Which release of its step the flow belongs to (the coordinator's StepRelease.range,
  // carried in the begin frame): a receiver takes it only into that release's attempt at
  // the step, never into a later one. 0: not said (any attempt at the step takes it).
  std::uint64_t release = 0;

  std::uint64_t end() const noexcept { return offset + length; }
  friend bool operator==(const FlowSpec&, const FlowSpec&) = default;
};

struct FlowReport {
  std::error_code error;  // empty on success
  std::string peer;
  FlowSpec flow;                     // as far as it was known (a receiver learns it from begin)
  std::uint64_t bytes_verified = 0;  // contiguous bytes from flow.offset verified (and written)
  std::uint64_t checksum = 0;        // XXH3-64 of the range (valid on success)
  std::string detail;                // what exactly went wrong (e.g. the chunk's range)

  bool ok() const noexcept { return !error; }
  // One line: "flow job 1 step 2 [0, 4096) with 127.0.0.1:4711: <error>: <detail>; 1024 bytes verified"
  std::string describe() const;
};

struct SendOptions {
  // Largest chunk payload; the receiver's cap is its buffer size minus the frame header.
  std::uint64_t max_chunk = (std::uint64_t{1} << 20) - frame_header_size;
  std::chrono::milliseconds frame_timeout{10'000};
};

struct ReceiveOptions {
  // If set, a flow whose begin frame names another job/step/range is refused.
  std::optional<FlowSpec> expected;
  // Cap on the length a begin frame may announce.
  std::uint64_t max_range = std::uint64_t{1} << 50;
  std::chrono::milliseconds frame_timeout{10'000};
  // How long to wait for the begin frame, if not frame_timeout: a kept connection waits
  // longer between two flows than inside one.
  std::optional<std::chrono::milliseconds> begin_timeout;
};

// Streams `flow` from `source` (offsets are the source's) paced by `pacer`. Sources that
// cannot give a view are read chunk by chunk into buffers from `pool` (each held only while
// its chunk is read and sent).
asio::awaitable<FlowReport> send_flow(Connection& connection, FlowSpec flow, const Source& source, SteadyPacer& pacer,
                                      BufferPool& pool, SendOptions options);

// Receives one flow into `sink`, each frame into a buffer from `pool` (waiting for one
// when the pool is empty). The begin frame, which has no payload, is read into the
// connection's own memory: a connection waiting for its next flow holds no pool buffer.
asio::awaitable<FlowReport> receive_flow(Connection& connection, Sink& sink, BufferPool& pool, ReceiveOptions options);

// Where an announced flow's bytes go: a sink, or the reason the flow is refused.
struct ResolvedSink {
  Sink* sink = nullptr;  // must outlive the flow
  std::string refusal;   // when sink is null: sent to the peer and put in the report
  // When set, each chunk's bytes are taken from it before the next frame is read: a
  // receiver's link cap, which TCP's flow control passes back to the sender. Must outlive
  // the flow.
  SteadyPacer* pacer = nullptr;
};
using SinkResolver = std::function<ResolvedSink(const FlowSpec& announced)>;
// The same, for a receiver that may have to wait before it knows (an agent whose step has
// not been released yet): the flow holds no pool buffer while it waits.
using AsyncSinkResolver = std::function<asio::awaitable<ResolvedSink>(const FlowSpec& announced)>;

// Receives one flow whose sink is chosen once its begin frame has arrived: a receiver
// serving many planned flows (an agent in a step) picks the destination by job, step and
// range, and refuses (errc::unexpected_frame) any flow it did not plan.
asio::awaitable<FlowReport> receive_flow(Connection& connection, SinkResolver resolve, BufferPool& pool,
                                         ReceiveOptions options);
asio::awaitable<FlowReport> receive_flow(Connection& connection, AsyncSinkResolver resolve, BufferPool& pool,
                                         ReceiveOptions options);

}  // namespace baton::transport
