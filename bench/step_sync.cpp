// What it costs a receiver to make a step durable (docs/agent.md, "Durable steps"): one
// step of --mib MiB from a file to a file between two agents on loopback, once as the
// agent runs it (each destination fdatasync'ed before the report) and once with a storage
// whose sync does nothing, alternating for --rounds rounds in one run. Before each run the
// destination is removed and the file system flushed (syncfs, not timed), so no run pays
// for another's dirty pages.
//
//   build/ci/bench/step_sync [--mib 256] [--rounds 3] [--chunk-mib 16] [--dir /tmp]
//
// --dir must be on the file system to measure (not a tmpfs). One JSON object per line:
//   {"bench":"step_sync_run","round":1,"sync":true,"bytes":...,"seconds":...,"sync_seconds":...,"mib_per_s":...}
//   {"bench":"step_sync","sync":true,"rounds":3,"seconds":<median>,"sync_seconds":<median>,"mib_per_s":<median>}
//   {"bench":"step_sync_ratio","what":"sync/nosync seconds","value":<median ratio>}
#include "bench/median.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
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
#include "agent/file_storage.h"
#include "agent/step_runner.h"
#include "transport/open.h"

namespace {

namespace ba = baton::agent;
namespace bp = baton::protocol;
namespace bt = baton::transport;
using Clock = std::chrono::steady_clock;

// The receiver's files, with sync() timed, or skipped when `enabled` is false.
struct TimedSync final : ba::Storage {
  struct Sink final : bt::Sink {
    Sink(std::unique_ptr<bt::Sink> s, TimedSync& o) : inner(std::move(s)), owner(o) {}
    std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override {
      return inner->write(offset, bytes);
    }
    std::error_code sync() override {
      if (!owner.enabled) return {};
      const auto start = Clock::now();
      const std::error_code error = inner->sync();
      owner.sync_seconds += std::chrono::duration<double>(Clock::now() - start).count();
      return error;
    }
    std::unique_ptr<bt::Sink> inner;
    TimedSync& owner;
  };
  explicit TimedSync(ba::Storage& s) : files(s) {}
  std::unique_ptr<bt::Source> source(const std::string& name) override { return files.source(name); }
  std::unique_ptr<bt::Sink> sink(const std::string& name) override {
    return std::make_unique<Sink>(files.sink(name), *this);
  }
  ba::ObjectStatus status(const std::string& name) override { return files.status(name); }
  ba::Storage& files;
  bool enabled = true;
  double sync_seconds = 0;  // written on the runner's sync thread, read after the step
};

struct Node {
  Node(asio::io_context& io, const std::string& name) : identity{name, "step-sync-bench-cluster-secret"} {
    bt::TransportConfig config;
    auto opened = bt::open_context(io.get_executor(), config);
    if (!opened.value) throw std::runtime_error("cannot open a transport: " + opened.detail);
    context = std::move(opened.value);
    data = std::make_unique<ba::DataPlane>(*context, "127.0.0.1:0", identity);
    data->start();
  }
  bt::NodeIdentity identity;
  std::unique_ptr<bt::Context> context;
  std::unique_ptr<ba::DataPlane> data;
};

// One step: `a` sends in[0, bytes) to `b`'s out in chunks of `chunk` bytes.
bp::Plan plan_for(bool send, const std::string& address, std::uint64_t bytes, std::uint64_t chunk) {
  bp::Plan plan;
  plan.set_job("step-sync");
  plan.set_job_number(1);
  plan.set_k(1);
  bp::Step* step = plan.add_steps();
  step->set_index(0);
  bp::Flow* flow = step->add_flows();
  flow->set_send(send);
  flow->set_peer(send ? "b" : "a");
  flow->set_rate(0);
  if (send) flow->set_peer_address(address);
  for (std::uint64_t offset = 0, transfer = 0; offset < bytes; offset += chunk, ++transfer) {
    bp::Chunk* c = flow->add_chunks();
    c->set_transfer(transfer);
    c->set_src_file("in");
    c->set_src_offset(offset);
    c->set_dst_file("out");
    c->set_dst_offset(offset);
    c->set_length(std::min(chunk, bytes - offset));
    c->set_stream_offset(offset);
  }
  return plan;
}

}  // namespace

using baton::bench::median;

int main(int argc, char** argv) {
  std::uint64_t mib = 256, chunk_mib = 16;
  int rounds = 3;
  std::string dir = "/tmp";
  CLI::App app{"Cost of a receiver's fdatasync per step, side by side with no sync"};
  app.add_option("--mib", mib, "bytes of the step, in MiB")->check(CLI::Range(1, 1 << 16));
  app.add_option("--chunk-mib", chunk_mib, "bytes of each chunk, in MiB")->check(CLI::Range(1, 1 << 10));
  app.add_option("--rounds", rounds, "runs of each variant, alternating")->check(CLI::Range(1, 100));
  app.add_option("--dir", dir, "where the files go (the file system measured)");
  CLI11_PARSE(app, argc, argv);

  std::string pattern = (std::filesystem::path(dir) / "baton-step-sync-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::cerr << "cannot create a directory under " << dir << "\n";
    return 1;
  }
  const std::filesystem::path root = pattern;
  std::filesystem::create_directory(root / "send");
  std::filesystem::create_directory(root / "receive");
  const std::uint64_t bytes = mib << 20;
  {
    std::vector<char> block(1 << 20);
    for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i * 131 + i / 251);
    std::ofstream in(root / "send/in", std::ios::binary);
    for (std::uint64_t i = 0; i < mib; ++i) in.write(block.data(), static_cast<std::streamsize>(block.size()));
  }
  const int root_fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  int status = 0;
  try {
    asio::io_context io;
    Node a(io, "a"), b(io, "b");
    ba::DataRoot send_root(root / "send"), receive_root(root / "receive");
    ba::FileStorage send_files(send_root), receive_files(receive_root);
    TimedSync receiver_storage(receive_files);
    const bp::Plan sender_plan = plan_for(true, b.data->address(), bytes, chunk_mib << 20);
    const bp::Plan receiver_plan = plan_for(false, b.data->address(), bytes, chunk_mib << 20);
    std::vector<double> seconds[2], sync_seconds[2], rates[2];

    for (int round = 1; round <= rounds; ++round) {
      // Alternate which variant goes first, so neither always follows the other.
      for (int turn = 0; turn < 2; ++turn) {
        const bool sync = (round + turn) % 2 == 0;
        std::filesystem::remove(root / "receive/out");
        ::syncfs(root_fd);
        receiver_storage.enabled = sync;
        receiver_storage.sync_seconds = 0;
        ba::StepRunner sender(*a.context, send_files, sender_plan, a.identity);
        const auto receiver_owner =
            std::make_shared<ba::StepRunner>(*b.context, receiver_storage, receiver_plan, b.identity);
        ba::StepRunner& receiver = *receiver_owner;
        b.data->route_to(receiver_owner);
        bp::StepReport sent, received;
        int done = 0;
        asio::co_spawn(
            io,
            [&]() -> asio::awaitable<void> {
              received = co_await receiver.run(0, std::chrono::minutes(10));
              ++done;
            },
            asio::detached);
        asio::co_spawn(
            io,
            [&]() -> asio::awaitable<void> {
              sent = co_await sender.run(0, std::chrono::minutes(10));
              ++done;
            },
            asio::detached);
        while (done < 2) io.run_one();
        b.data->route_to({});
        if (!sent.ok() || !received.ok()) {
          std::cerr << "step failed: " << sent.error() << " " << received.error() << "\n";
          status = 1;
          break;
        }
        const double rate = static_cast<double>(bytes) / (1 << 20) / received.seconds();
        seconds[sync].push_back(received.seconds());
        sync_seconds[sync].push_back(receiver_storage.sync_seconds);
        rates[sync].push_back(rate);
        std::printf(
            "{\"bench\":\"step_sync_run\",\"round\":%d,\"sync\":%s,\"bytes\":%llu,\"seconds\":%.4f,\"sync_seconds\":%.4f,"
            "\"mib_per_s\":%.1f}\n",
            round, sync ? "true" : "false", static_cast<unsigned long long>(bytes), received.seconds(),
            receiver_storage.sync_seconds, rate);
        std::fflush(stdout);
      }
      if (status != 0) break;
    }
    if (status == 0) {
      for (const bool sync : {true, false}) {
        std::printf(
            "{\"bench\":\"step_sync\",\"sync\":%s,\"rounds\":%d,\"seconds\":%.4f,\"sync_seconds\":%.4f,"
            "\"mib_per_s\":%.1f}\n",
            sync ? "true" : "false", rounds, median(seconds[sync]), median(sync_seconds[sync]), median(rates[sync]));
      }
      std::vector<double> ratios;
      for (int r = 0; r < rounds; ++r) ratios.push_back(seconds[1][r] / seconds[0][r]);
      std::printf("{\"bench\":\"step_sync_ratio\",\"what\":\"sync/nosync seconds\",\"value\":%.3f}\n", median(ratios));
    }
    int stopped = 0;
    for (Node* n : {&a, &b}) asio::co_spawn(io, n->data->stop(), [&stopped](std::exception_ptr) { ++stopped; });
    io.restart();
    while (stopped < 2) io.run_one();
    io.run_for(std::chrono::seconds(2));
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    status = 1;
  }
  if (root_fd >= 0) ::close(root_fd);
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  return status;
}
