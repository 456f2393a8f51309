// Two or three real agents for step runner tests: each its own TCP transport context and
// data listener on loopback, memory regions as storage, and hand-written one-step plans.
#pragma once

#include "agent/data_plane.h"
#include "agent/memory_storage.h"
#include "agent/step_runner.h"
#include "transport/open.h"

#include <boost/test/unit_test.hpp>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace baton::agent::test {

namespace ba = baton::agent;
namespace bp = baton::protocol;
namespace bt = baton::transport;
using namespace std::chrono_literals;

inline const std::string kSecret = "step-runner-test-cluster-secret";

inline std::vector<std::byte> pattern(std::size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((i * 131 + seed * 7 + i / 251) & 0xff);
  return v;
}

// One agent: a transport context, a data listener and its memory regions.
struct Node {
  Node(asio::io_context& io, std::string name, std::string secret = kSecret)
      : identity{std::move(name), std::move(secret)} {
    bt::TransportConfig config;
    config.context.pool = {.buffer_count = 8, .buffer_size = 64 * 1024};
    config.context.frame_timeout = 2000ms;
    auto opened = bt::open_context(io.get_executor(), config);
    BOOST_REQUIRE_MESSAGE(opened.value, opened.detail);
    context = std::move(opened.value);
    data = std::make_unique<ba::DataPlane>(*context, "127.0.0.1:0", identity);
    data->start();
  }
  // A step runner receiving `plan` into `into` (this node's regions unless given), to
  // which the data plane routes incoming flows; the node keeps it alive.
  ba::StepRunner& receiver(const bp::Plan& plan, ba::Storage& into) {
    receivers.push_back(std::make_shared<ba::StepRunner>(*context, into, plan, identity));
    data->route_to(receivers.back());
    return *receivers.back();
  }
  ba::StepRunner& receiver(const bp::Plan& plan) { return receiver(plan, storage); }

  bt::NodeIdentity identity;
  std::unique_ptr<bt::Context> context;
  std::unique_ptr<ba::DataPlane> data;
  ba::MemoryStorage storage;
  std::vector<std::shared_ptr<ba::StepRunner>> receivers;  // last: they go before what they use
};

// Stops the nodes' data planes and lets every other coroutine end before the transport
// contexts go (a pending flow holds pool buffers): until nothing has run for a quarter of a
// second (what is still pending then waits on a peer's timeout or on nothing at all), at
// most 5 s. A flat 5 s here made ten of test_agent's cases take 5 s each.
inline void stop_nodes(asio::io_context& io, std::initializer_list<Node*> nodes) {
  std::size_t stopped = 0;
  for (Node* n : nodes) asio::co_spawn(io, n->data->stop(), [&stopped](std::exception_ptr) { ++stopped; });
  io.restart();
  const auto start = std::chrono::steady_clock::now();
  while (stopped < nodes.size() && std::chrono::steady_clock::now() - start < 10s) io.run_one_for(100ms);
  BOOST_TEST(stopped == nodes.size());
  const auto settled = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < settled && io.run_one_for(250ms) > 0) {
  }
}

// Two agents on one io_context.
struct TwoAgents {
  asio::io_context io;
  Node a{io, "a"}, b{io, "b"};
  ~TwoAgents() { stop_nodes(io, {&a, &b}); }
};

// Three: the third is another member of the cluster, for what a plan does not name.
struct ThreeAgents {
  asio::io_context io;
  Node a{io, "a"}, b{io, "b"}, c{io, "c"};
  ~ThreeAgents() { stop_nodes(io, {&a, &b, &c}); }
};

inline bp::Chunk* add_chunk(bp::Flow* flow, std::uint64_t transfer, std::uint64_t src_offset, std::uint64_t dst_offset,
                            std::uint64_t length, std::uint64_t stream_offset) {
  bp::Chunk* c = flow->add_chunks();
  c->set_transfer(transfer);
  c->set_src_file("in");
  c->set_src_offset(src_offset);
  c->set_dst_file("out");
  c->set_dst_offset(dst_offset);
  c->set_length(length);
  c->set_stream_offset(stream_offset);
  return c;
}

// A plan of one step: `sender` sends `chunks` (transfer, src, dst, length, stream) to
// `receiver`; each side's plan holds its own copy of the flow.
struct Pair {
  bp::Plan sender, receiver;
};

inline Pair one_step(const std::string& receiver_address, double rate,
                     const std::vector<std::array<std::uint64_t, 5>>& send_chunks,
                     const std::vector<std::array<std::uint64_t, 5>>& receive_chunks) {
  Pair p;
  for (bp::Plan* plan : {&p.sender, &p.receiver}) {
    plan->set_job("job-1");
    plan->set_job_number(1);
    plan->set_k(1);
    bp::Step* step = plan->add_steps();
    step->set_index(0);
    step->set_predicted_seconds(0.01);
    bp::Flow* flow = step->add_flows();
    const bool send = plan == &p.sender;
    flow->set_send(send);
    flow->set_peer(send ? "b" : "a");
    flow->set_rate(rate);
    if (send) flow->set_peer_address(receiver_address);
    for (const auto& c : send ? send_chunks : receive_chunks) add_chunk(flow, c[0], c[1], c[2], c[3], c[4]);
  }
  return p;
}

struct Outcome {
  bp::StepReport sender, receiver;
  bool both_reported = false;  // within run_step's guard against a hang
};

// A step timeout short enough for tests that wait for one.
inline constexpr std::chrono::milliseconds kQuickTimeout{1500};

// Runs step 0 on both runners at once.
inline Outcome run_step(asio::io_context& io, ba::StepRunner& sender, ba::StepRunner& receiver,
                        std::chrono::milliseconds timeout = kQuickTimeout,
                        ba::StepRunner::ChunkDigests digests = ba::StepRunner::ChunkDigests::reported) {
  Outcome out;
  int done = 0;
  const auto start = std::chrono::steady_clock::now();
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        out.receiver = co_await receiver.run(0, timeout, 0, digests);
        ++done;
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        out.sender = co_await sender.run(0, timeout, 0, digests);
        ++done;
      },
      asio::detached);
  while (done < 2 && std::chrono::steady_clock::now() - start < 60s) io.run_one_for(100ms);
  out.both_reported = done == 2;
  return out;
}

// Runs one runner's step alone (its peer is no runner, or has gone); nullopt when it has
// not reported within 20 s.
inline std::optional<bp::StepReport> run_alone(asio::io_context& io, ba::StepRunner& runner, std::uint32_t step = 0) {
  std::optional<bp::StepReport> report;
  asio::co_spawn(
      io, [&]() -> asio::awaitable<void> { report = co_await runner.run(step, kQuickTimeout); }, asio::detached);
  const auto start = std::chrono::steady_clock::now();
  while (!report && std::chrono::steady_clock::now() - start < 20s) io.run_one_for(100ms);
  return report;
}

}  // namespace baton::agent::test
