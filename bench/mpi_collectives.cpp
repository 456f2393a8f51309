// The reference users run today, beside Baton's collectives (docs/collectives.md,
// "Benchmark"): Open MPI's MPI_Reduce, MPI_Allreduce and MPI_Bcast of one array, timed
// from a common barrier until the last rank has its result, as a JSON line.
//
//   mpirun ... mpi_collectives --op reduce|allreduce|bcast --bytes N [--dtype f32|f64|i32|i64|u32|u64]
//                              [--reduce sum|min|max] [--root R] [--repeats K] [--warmups W]
//
// The K timed repeats follow W untimed ones (default 1) in the same communicator, so that
// no timed repeat pays for opening connections. Every rank's array holds rank-dependent
// values; after each repeat the result is checked on the ranks that hold it (an integer sum
// exactly, floats within a tolerance), so a broken run cannot be reported as a time.
// cpu_seconds is the CPU time (user + system, every thread) of all ranks together from the
// barrier to the result, the mean over the timed repeats.
#include "bench/peer_collectives.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace {

using baton::bench::close_to;
using baton::bench::cpu_seconds_now;
using baton::bench::peer_value;

struct Options {
  std::string op = "reduce";
  std::uint64_t bytes = 1 << 20;
  std::string dtype = "f32";
  std::string reduce = "sum";
  int root = 0;
  int repeats = 5;
  int warmups = 1;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "mpi_collectives: %s (see --help)\n", why.c_str());
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  CLI::App app{"Open MPI's MPI_Reduce, MPI_Allreduce or MPI_Bcast of one array, timed", "mpi_collectives"};
  app.add_option("--op", o.op, "the collective")->check(CLI::IsMember({"reduce", "allreduce", "bcast"}));
  app.add_option("--bytes", o.bytes, "the array's size")->check(CLI::PositiveNumber);
  app.add_option("--dtype", o.dtype, "the elements' type")
      ->check(CLI::IsMember({"f32", "f64", "i32", "i64", "u32", "u64"}));
  app.add_option("--reduce", o.reduce, "the operation")->check(CLI::IsMember({"sum", "min", "max"}));
  app.add_option("--root", o.root, "the root rank")->check(CLI::NonNegativeNumber);
  app.add_option("--repeats", o.repeats, "timed repeats")->check(CLI::Range(1, 1000));
  app.add_option("--warmups", o.warmups, "untimed repeats before them")->check(CLI::Range(0, 1000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
    MPI_Finalize();
    std::exit(0);
  } catch (const CLI::ParseError& e) {
    usage(e.what());
  }
  return o;
}

struct Type {
  MPI_Datatype mpi;
  std::size_t size;
  bool floating;
};

Type type_of(const std::string& dtype) {
  if (dtype == "f32") return {MPI_FLOAT, 4, true};
  if (dtype == "f64") return {MPI_DOUBLE, 8, true};
  if (dtype == "i32") return {MPI_INT32_T, 4, false};
  if (dtype == "i64") return {MPI_INT64_T, 8, false};
  if (dtype == "u32") return {MPI_UINT32_T, 4, false};
  if (dtype == "u64") return {MPI_UINT64_T, 8, false};
  usage("--dtype must be f32, f64, i32, i64, u32 or u64");  // parse() checked it
}

MPI_Op op_of(const std::string& reduce) {
  if (reduce == "sum") return MPI_SUM;
  if (reduce == "min") return MPI_MIN;
  if (reduce == "max") return MPI_MAX;
  usage("--reduce must be sum, min or max");
}

template <typename T>
void fill(std::vector<std::byte>& bytes, int rank) {
  T* data = reinterpret_cast<T*>(bytes.data());
  for (std::size_t e = 0; e < bytes.size() / sizeof(T); ++e) data[e] = static_cast<T>(peer_value(rank, e));
}

// Whether `bytes` holds what the collective should give: the root's array (bcast) or the
// reduction of every rank's array.
template <typename T>
bool correct(const std::vector<std::byte>& bytes, const Options& o, int ranks) {
  const T* data = reinterpret_cast<const T*>(bytes.data());
  for (std::size_t e = 0; e < bytes.size() / sizeof(T); e += 1 + e / 64) {  // a sparse sample
    double expected = peer_value(o.root, e);
    if (o.op != "bcast") {
      expected = peer_value(0, e);
      for (int r = 1; r < ranks; ++r) {
        const double v = peer_value(r, e);
        if (o.reduce == "sum") expected += v;
        else if (o.reduce == "min") expected = std::min(expected, v);
        else expected = std::max(expected, v);
      }
    }
    if (!close_to(static_cast<double>(data[e]), expected)) return false;
  }
  return true;
}

bool check(const std::vector<std::byte>& bytes, const Options& o, int ranks) {
  if (o.dtype == "f32") return correct<float>(bytes, o, ranks);
  if (o.dtype == "f64") return correct<double>(bytes, o, ranks);
  if (o.dtype == "i32") return correct<std::int32_t>(bytes, o, ranks);
  if (o.dtype == "i64") return correct<std::int64_t>(bytes, o, ranks);
  if (o.dtype == "u32") return correct<std::uint32_t>(bytes, o, ranks);
  return correct<std::uint64_t>(bytes, o, ranks);
}

void fill_for(std::vector<std::byte>& bytes, const std::string& dtype, int rank) {
  if (dtype == "f32") fill<float>(bytes, rank);
  else if (dtype == "f64") fill<double>(bytes, rank);
  else if (dtype == "i32") fill<std::int32_t>(bytes, rank);
  else if (dtype == "i64") fill<std::int64_t>(bytes, rank);
  else if (dtype == "u32") fill<std::uint32_t>(bytes, rank);
  else fill<std::uint64_t>(bytes, rank);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const Options o = parse(argc, argv);
  const Type type = type_of(o.dtype);
  const MPI_Op op = op_of(o.reduce);
  if (o.root >= ranks) usage("--root must be below the number of ranks");
  if (o.bytes == 0 || o.bytes % type.size != 0) usage("--bytes must be a positive multiple of the dtype's size");
  const int count = static_cast<int>(o.bytes / type.size);
  if (static_cast<std::uint64_t>(count) * type.size != o.bytes) usage("--bytes is too large for one MPI call");

  std::vector<std::byte> data(o.bytes), result(o.bytes);
  std::vector<double> seconds, warmup_seconds;
  double cpu_total = 0;
  bool all_correct = true;
  for (int r = -o.warmups; r < o.repeats; ++r) {  // r < 0: a warm-up
    fill_for(data, o.dtype, rank);
    std::memset(result.data(), 0, result.size());
    const double cpu_start = cpu_seconds_now();
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (o.op == "reduce") MPI_Reduce(data.data(), result.data(), count, type.mpi, op, o.root, MPI_COMM_WORLD);
    else if (o.op == "allreduce") MPI_Allreduce(data.data(), result.data(), count, type.mpi, op, MPI_COMM_WORLD);
    else MPI_Bcast(data.data(), count, type.mpi, o.root, MPI_COMM_WORLD);
    const double mine = MPI_Wtime() - start;
    const double cpu = cpu_seconds_now() - cpu_start;
    double cpu_all = 0;
    MPI_Reduce(&cpu, &cpu_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (r >= 0) cpu_total += cpu_all;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    const std::vector<std::byte>& held = o.op == "bcast" ? data : result;
    const bool holds = o.op != "reduce" || rank == o.root;
    int ok = !holds || check(held, o, ranks) ? 1 : 0, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    all_correct = all_correct && all_ok == 1;
    (r < 0 ? warmup_seconds : seconds).push_back(slowest);
  }
  if (rank == 0) {
    baton::bench::print_peer_result({.impl = "openmpi",
                                     .op = o.op,
                                     .dtype = o.dtype,
                                     .reduce = o.reduce,
                                     .bytes = o.bytes,
                                     .nodes = ranks,
                                     .root = o.root,
                                     .correct = all_correct,
                                     .seconds = seconds,
                                     .warmup_seconds = warmup_seconds,
                                     .cpu_seconds = cpu_total / o.repeats});
  }
  MPI_Finalize();
  return all_correct ? 0 : 1;
}
