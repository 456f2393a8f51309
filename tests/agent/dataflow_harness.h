// Dataflow steps for step runner tests (docs/collectives.md, "Tasks"): hand-written plans
// of sends, receives and combines, each node's runner with its memory regions and its
// scratch objects in memory, all run at once on one io_context.
#pragma once

#include "agent/memory_scratch.h"
#include "agent/plan_check.h"
#include "error/refusal.h"
#include "tests/agent/step_harness.h"

#include <cstring>
#include <span>

namespace baton::agent::test {

// A chunk: transfer, source object and offset, destination object and offset, length,
// stream offset.
struct ChunkSpec {
  std::uint64_t transfer;
  std::string src;
  std::uint64_t src_offset;
  std::string dst;
  std::uint64_t dst_offset;
  std::uint64_t length;
  std::uint64_t stream;
};

struct RegionSpec {
  std::string object;
  std::uint64_t offset;
  std::uint64_t length;
};

// One node's plan of one dataflow step, built task by task.
struct DataflowPlan {
  bp::Plan plan;
  explicit DataflowPlan(const std::string& kind = "reduce") {
    plan.set_job("job-1");
    plan.set_job_number(1);
    plan.set_k(1);
    plan.set_kind(kind);
    plan.add_steps()->set_index(0);
  }
  bp::Task* task(std::uint32_t id, std::vector<std::uint32_t> after) {
    bp::Task* t = plan.mutable_steps(0)->add_tasks();
    t->set_id(id);
    for (std::uint32_t a : after) t->add_after(a);
    return t;
  }
  DataflowPlan& send(std::uint32_t id, std::vector<std::uint32_t> after, const std::string& peer,
                     const std::string& address, double rate, const std::vector<ChunkSpec>& chunks) {
    flow(task(id, std::move(after))->mutable_flow(), true, peer, address, rate, chunks);
    return *this;
  }
  DataflowPlan& receive(std::uint32_t id, std::vector<std::uint32_t> after, const std::string& peer,
                        const std::vector<ChunkSpec>& chunks) {
    flow(task(id, std::move(after))->mutable_flow(), false, peer, "", 0, chunks);
    return *this;
  }
  DataflowPlan& combine(std::uint32_t id, std::vector<std::uint32_t> after, bp::DataType dtype, bp::ReduceOp op,
                        const std::vector<RegionSpec>& inputs, const RegionSpec& output) {
    bp::Combine* c = task(id, std::move(after))->mutable_combine();
    c->set_dtype(dtype);
    c->set_op(op);
    for (const RegionSpec& r : inputs) region(c->add_inputs(), r);
    region(c->mutable_output(), output);
    return *this;
  }

 private:
  static void region(bp::Region* to, const RegionSpec& r) {
    to->set_object(r.object);
    to->set_offset(r.offset);
    to->set_length(r.length);
  }
  static void flow(bp::Flow* f, bool send, const std::string& peer, const std::string& address, double rate,
                   const std::vector<ChunkSpec>& chunks) {
    f->set_send(send);
    f->set_peer(peer);
    f->set_rate(rate);
    if (send) f->set_peer_address(address);
    for (const ChunkSpec& c : chunks) {
      bp::Chunk* chunk = f->add_chunks();
      chunk->set_transfer(c.transfer);
      chunk->set_src_file(c.src);
      chunk->set_src_offset(c.src_offset);
      chunk->set_dst_file(c.dst);
      chunk->set_dst_offset(c.dst_offset);
      chunk->set_length(c.length);
      chunk->set_stream_offset(c.stream);
    }
  }
};

// The embedded agent's plan objects: a node's registered regions.
inline ba::PlanObjects regions_of(ba::MemoryStorage& storage) {
  return {.check_name = [](const std::string& name) -> std::optional<baton::error::Refusal> {
            if (name.empty()) return "empty name";
            return std::nullopt;
          },
          .source_size = [&storage](const std::string& name) { return storage.region_size(name); },
          .destination_limit = [&storage](const std::string& name) { return storage.region_size(name); }};
}

// A node's runner for `plan`, which must pass the embedded agent's plan check, with its
// scratch objects in memory; flows to the node go to it.
inline std::shared_ptr<ba::StepRunner> runner_for(Node& node, const bp::Plan& plan) {
  const std::optional<baton::error::Refusal> refused = ba::check_plan(plan, regions_of(node.storage));
  BOOST_REQUIRE_MESSAGE(!refused, node.identity.node_id + "'s plan refused: " + refused.value_or("").reason);
  static ba::MemoryScratch scratch;
  auto runner = std::make_shared<ba::StepRunner>(*node.context, node.storage, plan, node.identity, ba::StepOptions{},
                                                 scratch.open(plan.job_number(), ba::scratch_sizes(plan)));
  node.data->route_to(runner);
  return runner;
}

// Runs step 0 on every runner at once; their reports, in the same order.
inline std::vector<bp::StepReport> run_all(asio::io_context& io, const std::vector<ba::StepRunner*>& runners,
                                           std::chrono::milliseconds timeout = 20s) {
  std::vector<bp::StepReport> reports(runners.size());
  std::size_t done = 0;
  for (std::size_t i = 0; i < runners.size(); ++i) {
    asio::co_spawn(
        io,
        [&, i]() -> asio::awaitable<void> {
          reports[i] = co_await runners[i]->run(0, timeout);
          ++done;
        },
        asio::detached);
  }
  const auto start = std::chrono::steady_clock::now();
  io.restart();
  while (done < runners.size() && std::chrono::steady_clock::now() - start < 60s) io.run_one_for(100ms);
  BOOST_REQUIRE(done == runners.size());
  return reports;
}

template <class T>
std::span<std::byte> bytes_of(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

// The timing of task `id` in `report` (a test failure if it is missing).
inline bp::TaskTiming timing(const bp::StepReport& report, std::uint32_t id) {
  for (const bp::TaskTiming& t : report.tasks()) {
    if (t.id() == id) return t;
  }
  BOOST_FAIL("no timing for task " << id);
  return {};
}

}  // namespace baton::agent::test
