// What a dataflow reduction holds in memory (docs/collectives.md, "Measured"): three
// agents in this process on loopback, each with the daemon's storage (files under a data
// root of its own, scratch objects as files), reduce u64 arrays of --mib MiB: a and b send
// theirs to c, which folds data ⊕ a's ⊕ b's into result.bin and checks nothing else.
// Afterwards every element of result.bin is checked against the sum of the generators.
// Peak RSS is a process's high-water mark: run it once per size and compare.
//
//   build/ci/bench/dataflow_memory [--mib 1024] [--dir /var/tmp] [--pool-mib 64]
//
// One JSON object: {"bench":"dataflow_memory","mib":...,"seconds":...,"combine_seconds":...,
//   "combine_gb_per_s":...,"peak_rss_mib":...,"rss_before_mib":...,"pools_mib":...,"verified":true}
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>

#include "agent/data_plane.h"
#include "agent/data_root.h"
#include "agent/file_scratch.h"
#include "agent/file_storage.h"
#include "agent/plan_check.h"
#include "agent/step_runner.h"
#include "error/refusal.h"
#include "transport/open.h"

namespace {

namespace ba = baton::agent;
namespace bp = baton::protocol;
namespace bt = baton::transport;

double peak_rss_mib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024;  // KiB on Linux
}

// Element i of node n's array; the three sum to 15 i + 6.
std::uint64_t element(int node, std::uint64_t i) { return i * static_cast<std::uint64_t>(3 + 2 * node) + node + 1; }

// Writes node n's array, a MiB at a time.
void write_array(const std::filesystem::path& file, int node, std::uint64_t elements) {
  std::ofstream out(file, std::ios::binary);
  std::vector<std::uint64_t> block(1 << 17);
  for (std::uint64_t at = 0; at < elements; at += block.size()) {
    const std::uint64_t n = std::min<std::uint64_t>(block.size(), elements - at);
    for (std::uint64_t i = 0; i < n; ++i) block[i] = element(node, at + i);
    out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(n * 8));
  }
}

bool verify(const std::filesystem::path& file, std::uint64_t elements) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::uint64_t> block(1 << 17);
  for (std::uint64_t at = 0; at < elements; at += block.size()) {
    const std::uint64_t n = std::min<std::uint64_t>(block.size(), elements - at);
    if (!in.read(reinterpret_cast<char*>(block.data()), static_cast<std::streamsize>(n * 8))) return false;
    for (std::uint64_t i = 0; i < n; ++i) {
      if (block[i] != 15 * (at + i) + 6) return false;
    }
  }
  return true;
}

struct Node {
  Node(asio::io_context& io, const std::string& name, const std::filesystem::path& directory, std::size_t pool_mib)
      : identity{name, "dataflow-memory-bench-secret"}, root(directory), files(root), scratch(root, name) {
    bt::TransportConfig config;
    config.context.pool = {.buffer_count = pool_mib, .buffer_size = std::size_t{1} << 20};
    auto opened = bt::open_context(io.get_executor(), config);
    if (!opened.value) throw std::runtime_error("cannot open a transport: " + opened.detail);
    context = std::move(opened.value);
    data = std::make_unique<ba::DataPlane>(*context, "127.0.0.1:0", identity);
    data->start();
  }
  bt::NodeIdentity identity;
  ba::DataRoot root;
  ba::FileStorage files;
  ba::FileScratch scratch;
  std::unique_ptr<bt::Context> context;
  std::unique_ptr<ba::DataPlane> data;
  std::shared_ptr<ba::StepRunner> runner;
};

bp::Plan plan_base() {
  bp::Plan plan;
  plan.set_job("dataflow-memory");
  plan.set_job_number(1);
  plan.set_k(1);
  plan.set_kind("reduce");
  plan.add_steps()->set_index(0);
  return plan;
}

bp::Flow* flow(bp::Plan& plan, std::uint32_t id, std::vector<std::uint32_t> after, bool send, const std::string& peer,
               const std::string& address) {
  bp::Task* task = plan.mutable_steps(0)->add_tasks();
  task->set_id(id);
  for (std::uint32_t a : after) task->add_after(a);
  bp::Flow* f = task->mutable_flow();
  f->set_send(send);
  f->set_peer(peer);
  if (send) f->set_peer_address(address);
  return f;
}

// The array as chunks of 64 MiB (transfers of the coordinator's size), at `stream`.
void chunks(bp::Flow* f, std::uint64_t bytes, const std::string& to, std::uint64_t stream, std::uint64_t transfer) {
  constexpr std::uint64_t piece = std::uint64_t{64} << 20;
  for (std::uint64_t at = 0; at < bytes; at += piece) {
    bp::Chunk* c = f->add_chunks();
    c->set_transfer(transfer++);
    c->set_src_file("data.bin");
    c->set_src_offset(at);
    c->set_dst_file(to);
    c->set_dst_offset(at);
    c->set_length(std::min(piece, bytes - at));
    c->set_stream_offset(stream + at);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t mib = 1024;
  std::size_t pool_mib = 64;
  std::string dir = "/var/tmp";
  CLI::App app{"Peak memory of a dataflow reduction of three agents, files as storage"};
  app.add_option("--mib", mib, "bytes of each node's array, in MiB")->check(CLI::Range(1, 1 << 16));
  app.add_option("--pool-mib", pool_mib, "each node's pool, in 1 MiB buffers")->check(CLI::Range(4, 1024));
  app.add_option("--dir", dir, "where the data roots go");
  CLI11_PARSE(app, argc, argv);

  std::string pattern = (std::filesystem::path(dir) / "baton-dataflow-memory-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::cerr << "cannot create a directory under " << dir << "\n";
    return 1;
  }
  const std::filesystem::path top = pattern;
  const std::uint64_t bytes = mib << 20, elements = bytes / 8;
  int status = 0;
  try {
    for (int n = 0; n < 3; ++n) {
      std::filesystem::create_directory(top / std::string(1, static_cast<char>('a' + n)));
      write_array(top / std::string(1, static_cast<char>('a' + n)) / "data.bin", n, elements);
    }
    asio::io_context io;
    Node a(io, "a", top / "a", pool_mib), b(io, "b", top / "b", pool_mib), c(io, "c", top / "c", pool_mib);
    bp::Plan pa = plan_base(), pb = plan_base(), pc = plan_base();
    chunks(flow(pa, 0, {}, true, "c", c.data->address()), bytes, "scratch:from-a", 0, 1000);
    chunks(flow(pb, 0, {}, true, "c", c.data->address()), bytes, "scratch:from-b", bytes, 2000);
    chunks(flow(pc, 0, {}, false, "a", ""), bytes, "scratch:from-a", 0, 1000);
    chunks(flow(pc, 1, {}, false, "b", ""), bytes, "scratch:from-b", bytes, 2000);
    bp::Task* fold = pc.mutable_steps(0)->add_tasks();
    fold->set_id(2);
    fold->add_after(0);
    fold->add_after(1);
    bp::Combine* sum = fold->mutable_combine();
    sum->set_dtype(bp::U64);
    sum->set_op(bp::SUM);
    for (const char* input : {"data.bin", "scratch:from-a", "scratch:from-b"}) {
      bp::Region* r = sum->add_inputs();
      r->set_object(input);
      r->set_length(bytes);
    }
    sum->mutable_output()->set_object("result.bin");
    sum->mutable_output()->set_length(bytes);
    for (auto [node, plan] : {std::pair{&a, &pa}, {&b, &pb}, {&c, &pc}}) {
      if (const std::optional<baton::error::Refusal> refused = ba::check_plan(*plan, node->root))
        throw std::runtime_error(node->identity.node_id + "'s plan refused: " + refused->reason);
      node->runner =
          std::make_shared<ba::StepRunner>(*node->context, node->files, *plan, node->identity, ba::StepOptions{},
                                           node->scratch.open(1, ba::scratch_sizes(*plan)));
      node->data->route_to(node->runner);
    }
    const double rss_before = peak_rss_mib();
    const auto start = std::chrono::steady_clock::now();
    std::vector<bp::StepReport> reports(3);
    int done = 0;
    for (int i = 0; i < 3; ++i) {
      Node* node = i == 0 ? &a : i == 1 ? &b : &c;
      asio::co_spawn(
          io,
          [&reports, &done, node, i]() -> asio::awaitable<void> {
            reports[i] = co_await node->runner->run(0, std::chrono::minutes(30));
            ++done;
          },
          asio::detached);
    }
    while (done < 3) io.run_one();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const bp::StepReport& r : reports) {
      if (!r.ok()) throw std::runtime_error("step failed: " + r.error());
    }
    const bool verified = verify(top / "c" / "result.bin", elements);
    // c's combine (task 2): three arrays read through the page cache, one written.
    double combine_seconds = 0;
    for (const bp::TaskTiming& t : reports[2].tasks()) {
      if (t.id() == 2) combine_seconds = t.end() - t.start();
    }
    std::printf(
        "{\"bench\":\"dataflow_memory\",\"mib\":%llu,\"seconds\":%.3f,\"combine_seconds\":%.3f,"
        "\"combine_gb_per_s\":%.2f,\"peak_rss_mib\":%.1f,\"rss_before_mib\":%.1f,\"pools_mib\":%zu,"
        "\"verified\":%s}\n",
        static_cast<unsigned long long>(mib), seconds, combine_seconds,
        combine_seconds > 0 ? static_cast<double>(bytes) / combine_seconds / 1e9 : 0.0, peak_rss_mib(), rss_before,
        3 * pool_mib, verified ? "true" : "false");
    if (!verified) status = 1;
    int stopped = 0;
    for (Node* node : {&a, &b, &c}) {
      node->runner->close();
      asio::co_spawn(io, node->data->stop(), [&stopped](std::exception_ptr) { ++stopped; });
    }
    while (stopped < 3) io.run_one();
    io.run_for(std::chrono::seconds(1));
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    status = 1;
  }
  std::error_code ec;
  std::filesystem::remove_all(top, ec);
  return status;
}
