// Gloo's collectives beside Baton's and Open MPI's (docs/collectives-bench.md, "Peers"): one
// process per node, rendezvous through a gloo::rendezvous::FileStore on a directory every
// node sees, Gloo's TCP device bound to the node's address. Runs Gloo's ring all-reduce (the
// segmented reduce-scatter + all-gather of gloo::allreduce), its halving-doubling all-reduce
// (gloo::AllreduceHalvingDoubling), gloo::broadcast or gloo::reduce of one f32 array, timed
// from a barrier until the last rank has its result, and prints one JSON line on rank 0
// shaped like bench/mpi_collectives.cpp's.
//
//   gloo_collectives --op ring|halving-doubling|broadcast|reduce --bytes N --rank R --size S
//                    --store DIR --prefix P (--hostname ADDRESS | --iface NAME)
//                    [--root R] [--repeats K] [--warmups W] [--timeout-seconds T]
//
// The K timed repeats follow W untimed ones (default 1) on the same context, so that no
// timed repeat pays for Gloo's first use of its pairs. Every rank's array holds
// rank-dependent values; after each repeat the result is checked on the ranks that hold it
// (the sum within a tolerance), so a broken run cannot be reported as a time. cpu_seconds
// is the CPU time (user + system, every thread) of all ranks together from the barrier to
// the result, the mean over the timed repeats.
#include "bench/peer_collectives.h"

#include <gloo/allreduce.h>
#include <gloo/allreduce_halving_doubling.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/math.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace {

using baton::bench::close_to;
using baton::bench::cpu_seconds_now;
using baton::bench::peer_value;

struct Options {
  std::string op;
  std::uint64_t bytes = 1 << 20;
  int rank = -1;
  int size = 0;
  std::string store;
  std::string prefix;
  std::string hostname;
  std::string iface;
  int root = 0;
  int repeats = 5;
  int warmups = 1;
  int timeout_seconds = 600;
};

Options parse(int argc, char** argv) {
  Options o;
  CLI::App app{"Gloo's all-reduce, broadcast or reduce of one f32 array, timed", "gloo_collectives"};
  app.add_option("--op", o.op, "the collective")
      ->required()
      ->check(CLI::IsMember({"ring", "halving-doubling", "broadcast", "reduce"}));
  app.add_option("--bytes", o.bytes, "the array's size, a multiple of 4 (f32)")
      ->check(CLI::Range(std::uint64_t{4}, std::uint64_t{4} * INT32_MAX));
  app.add_option("--rank", o.rank, "this process's rank")->required()->check(CLI::NonNegativeNumber);
  app.add_option("--size", o.size, "the number of ranks")->required()->check(CLI::Range(1, 1000000));
  app.add_option("--store", o.store, "the rendezvous directory every rank sees")->required();
  app.add_option("--prefix", o.prefix, "this run's keys in the store")->required();
  auto* hostname = app.add_option("--hostname", o.hostname, "the address Gloo's TCP device binds");
  auto* iface = app.add_option("--iface", o.iface, "the interface Gloo's TCP device binds");
  hostname->excludes(iface);
  app.add_option("--root", o.root, "the root rank")->check(CLI::NonNegativeNumber);
  app.add_option("--repeats", o.repeats, "timed repeats")->check(CLI::Range(1, 1000));
  app.add_option("--warmups", o.warmups, "untimed repeats before them")->check(CLI::Range(0, 1000));
  app.add_option("--timeout-seconds", o.timeout_seconds, "the rendezvous' timeout")->check(CLI::Range(1, 1000000));
  try {
    app.parse(argc, argv);
    if (hostname->count() + iface->count() != 1) throw CLI::ValidationError("give one of --hostname and --iface");
    if (o.rank >= o.size) throw CLI::ValidationError("--rank must be below --size");
    if (o.root >= o.size) throw CLI::ValidationError("--root must be below --size");
    if (o.bytes % sizeof(float) != 0) throw CLI::ValidationError("--bytes must be a multiple of 4 (f32)");
  } catch (const CLI::ParseError& e) {
    std::exit(app.exit(e));
  }
  return o;
}

void fill(std::vector<float>& data, int rank) {
  for (std::size_t e = 0; e < data.size(); ++e) data[e] = static_cast<float>(peer_value(rank, e));
}

// Whether `data` holds the root's array (broadcast) or the sum of every rank's array.
bool correct(const std::vector<float>& data, const Options& o) {
  for (std::size_t e = 0; e < data.size(); e += 1 + e / 64) {  // a sparse sample
    double expected = peer_value(o.root, e);
    if (o.op != "broadcast") {
      expected = 0;
      for (int r = 0; r < o.size; ++r) expected += peer_value(r, e);
    }
    if (!close_to(static_cast<double>(data[e]), expected)) return false;
  }
  return true;
}

using ReduceFunction = void (*)(void*, const void*, const void*, std::size_t);

// One double or int of every rank combined into every rank (max, sum, min).
template <typename T>
T combine(const std::shared_ptr<gloo::Context>& context, T mine, ReduceFunction fn) {
  gloo::AllreduceOptions options(context);
  options.setOutput(&mine, 1);
  options.setReduceFunction(fn);
  gloo::allreduce(options);
  return mine;
}

// The measured collective of one repeat: what each op does with `data`, `result` and the
// halving-doubling algorithm (set up once, its buffers registered with the pairs).
struct Collective {
  const Options& o;
  std::shared_ptr<gloo::Context> context;
  std::vector<float>& data;
  std::vector<float>& result;
  std::unique_ptr<gloo::AllreduceHalvingDoubling<float>> halving_doubling;

  void run() {
    const auto count = data.size();
    const auto sum = static_cast<ReduceFunction>(&gloo::sum<float>);
    if (o.op == "ring") {
      gloo::AllreduceOptions options(context);
      options.setAlgorithm(gloo::AllreduceOptions::Algorithm::RING);
      options.setInput(data.data(), count);
      options.setOutput(result.data(), count);
      options.setReduceFunction(sum);
      gloo::allreduce(options);
    } else if (o.op == "halving-doubling") {
      halving_doubling->run();  // in place: data becomes the sum
    } else if (o.op == "broadcast") {
      gloo::BroadcastOptions options(context);
      options.setRoot(o.root);
      if (context->rank == o.root) options.setInput(data.data(), count);
      options.setOutput(result.data(), count);
      gloo::broadcast(options);
    } else {
      gloo::ReduceOptions options(context);
      options.setRoot(o.root);
      options.setInput(data.data(), count);
      options.setOutput(result.data(), count);
      options.setReduceFunction(sum);
      gloo::reduce(options);
    }
  }

  const std::vector<float>& held() const { return o.op == "halving-doubling" ? data : result; }
  bool holds() const { return o.op != "reduce" || context->rank == o.root; }
};

int run(const Options& o) {
  gloo::transport::tcp::attr attr;
  if (!o.hostname.empty()) attr.hostname = o.hostname;
  else attr.iface = o.iface;
  auto device = gloo::transport::tcp::CreateDevice(attr);
  gloo::rendezvous::FileStore file_store(o.store);
  gloo::rendezvous::PrefixStore store(o.prefix, file_store);
  auto rendezvous = std::make_shared<gloo::rendezvous::Context>(o.rank, o.size);
  rendezvous->setTimeout(std::chrono::seconds(o.timeout_seconds));
  rendezvous->connectFullMesh(store, device);
  std::shared_ptr<gloo::Context> context = rendezvous;

  std::vector<float> data(o.bytes / sizeof(float)), result(data.size());
  Collective collective{o, context, data, result, nullptr};
  if (o.op == "halving-doubling")
    collective.halving_doubling = std::make_unique<gloo::AllreduceHalvingDoubling<float>>(
        context, std::vector<float*>{data.data()}, static_cast<int>(data.size()));

  std::vector<double> seconds, warmup_seconds;
  double cpu_total = 0;
  bool all_correct = true;
  for (int r = -o.warmups; r < o.repeats; ++r) {  // r < 0: a warm-up
    fill(data, o.rank);
    std::fill(result.begin(), result.end(), 0.0F);
    const double cpu_start = cpu_seconds_now();
    gloo::BarrierOptions barrier(context);
    gloo::barrier(barrier);
    const auto start = std::chrono::steady_clock::now();
    collective.run();
    const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpu_seconds_now() - cpu_start;
    (r < 0 ? warmup_seconds : seconds)
        .push_back(combine(context, mine, static_cast<ReduceFunction>(&gloo::max<double>)));
    const double cpu_all = combine(context, cpu, static_cast<ReduceFunction>(&gloo::sum<double>));
    if (r >= 0) cpu_total += cpu_all;
    const int ok = !collective.holds() || correct(collective.held(), o) ? 1 : 0;
    all_correct = combine(context, ok, static_cast<ReduceFunction>(&gloo::min<int>)) == 1 && all_correct;
  }
  if (o.rank == 0) {
    baton::bench::print_peer_result({.impl = "gloo",
                                     .op = o.op,
                                     .dtype = "f32",
                                     .reduce = "sum",
                                     .bytes = o.bytes,
                                     .nodes = o.size,
                                     .root = o.root,
                                     .correct = all_correct,
                                     .seconds = seconds,
                                     .warmup_seconds = warmup_seconds,
                                     .cpu_seconds = cpu_total / o.repeats});
  }
  return all_correct ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gloo_collectives: rank %d: %s\n", o.rank, e.what());
    return 1;
  }
}
