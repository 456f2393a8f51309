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
//                    [--root R] [--repeats K] [--timeout-seconds T]
//
// Every rank's array holds rank-dependent values; after each repeat the result is checked
// on the ranks that hold it (the sum within a tolerance), so a broken run cannot be reported
// as a time. cpu_seconds is the CPU time (user + system, every thread) of all ranks together
// from the barrier to the result, the mean over the repeats.
#include "bench/median.h"

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

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

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
  int timeout_seconds = 600;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gloo_collectives: %s\nusage: gloo_collectives --op ring|halving-doubling|broadcast|reduce --bytes N "
               "--rank R --size S --store DIR --prefix P (--hostname ADDRESS | --iface NAME) [--root R] "
               "[--repeats K] [--timeout-seconds T]\n",
               why.c_str());
  std::exit(2);
}

std::uint64_t number(std::string_view flag, const char* text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-') usage(std::string(flag) + ": not a number: " + text);
  return value;
}

int small_number(std::string_view flag, const char* text) {
  const std::uint64_t value = number(flag, text);
  if (value > 1000000) usage(std::string(flag) + ": too large: " + text);
  return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) usage(std::string(flag) + " needs a value");
    const char* value = argv[++i];
    if (flag == "--op") o.op = value;
    else if (flag == "--bytes") o.bytes = number(flag, value);
    else if (flag == "--rank") o.rank = small_number(flag, value);
    else if (flag == "--size") o.size = small_number(flag, value);
    else if (flag == "--store") o.store = value;
    else if (flag == "--prefix") o.prefix = value;
    else if (flag == "--hostname") o.hostname = value;
    else if (flag == "--iface") o.iface = value;
    else if (flag == "--root") o.root = small_number(flag, value);
    else if (flag == "--repeats") o.repeats = small_number(flag, value);
    else if (flag == "--timeout-seconds") o.timeout_seconds = small_number(flag, value);
    else usage("unknown flag " + std::string(flag));
  }
  if (o.op != "ring" && o.op != "halving-doubling" && o.op != "broadcast" && o.op != "reduce")
    usage("--op must be ring, halving-doubling, broadcast or reduce");
  if (o.size < 1) usage("--size must be at least 1");
  if (o.rank < 0 || o.rank >= o.size) usage("--rank must be 0..size-1");
  if (o.root >= o.size) usage("--root must be below --size");
  if (o.store.empty() || o.prefix.empty()) usage("--store and --prefix are required");
  if (o.hostname.empty() == o.iface.empty()) usage("give exactly one of --hostname and --iface");
  if (o.bytes == 0 || o.bytes % sizeof(float) != 0) usage("--bytes must be a positive multiple of 4 (f32)");
  if (o.bytes / sizeof(float) > static_cast<std::uint64_t>(INT32_MAX)) usage("--bytes is too large");
  if (o.repeats < 1 || o.repeats > 1000) usage("--repeats must be 1..1000");
  if (o.timeout_seconds < 1) usage("--timeout-seconds must be positive");
  return o;
}

// Element e of rank r's array: small values, so that sums of up to 200 ranks are exact.
float value_at(int rank, std::size_t e) { return static_cast<float>((rank * 7 + e * 13) % 17); }

void fill(std::vector<float>& data, int rank) {
  for (std::size_t e = 0; e < data.size(); ++e) data[e] = value_at(rank, e);
}

// Whether `data` holds the root's array (broadcast) or the sum of every rank's array.
bool correct(const std::vector<float>& data, const Options& o) {
  for (std::size_t e = 0; e < data.size(); e += 1 + e / 64) {  // a sparse sample
    double expected = value_at(o.root, e);
    if (o.op != "broadcast") {
      expected = 0;
      for (int r = 0; r < o.size; ++r) expected += value_at(r, e);
    }
    if (std::fabs(static_cast<double>(data[e]) - expected) > 1e-6 * std::max(1.0, std::fabs(expected))) return false;
  }
  return true;
}

double cpu_seconds_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
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

  std::vector<double> seconds;
  double cpu_total = 0;
  bool all_correct = true;
  for (int r = 0; r < o.repeats; ++r) {
    fill(data, o.rank);
    std::fill(result.begin(), result.end(), 0.0F);
    const double cpu_start = cpu_seconds_now();
    gloo::BarrierOptions barrier(context);
    gloo::barrier(barrier);
    const auto start = std::chrono::steady_clock::now();
    collective.run();
    const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpu_seconds_now() - cpu_start;
    seconds.push_back(combine(context, mine, static_cast<ReduceFunction>(&gloo::max<double>)));
    cpu_total += combine(context, cpu, static_cast<ReduceFunction>(&gloo::sum<double>));
    const int ok = !collective.holds() || correct(collective.held(), o) ? 1 : 0;
    all_correct = combine(context, ok, static_cast<ReduceFunction>(&gloo::min<int>)) == 1 && all_correct;
  }
  if (o.rank == 0) {
    std::printf(
        "{\"impl\": \"gloo\", \"op\": \"%s\", \"bytes\": %llu, \"dtype\": \"f32\", \"reduce\": \"sum\", "
        "\"nodes\": %d, \"root\": %d, \"correct\": %s, \"median_seconds\": %.6f, \"cpu_seconds\": %.6f, "
        "\"seconds\": [",
        o.op.c_str(), static_cast<unsigned long long>(o.bytes), o.size, o.root, all_correct ? "true" : "false",
        baton::bench::median(seconds), cpu_total / o.repeats);
    for (std::size_t i = 0; i < seconds.size(); ++i) std::printf("%s%.6f", i ? ", " : "", seconds[i]);
    std::printf("]}\n");
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
