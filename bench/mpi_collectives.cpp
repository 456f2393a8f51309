// The reference users run today, beside Baton's collectives (docs/collectives.md,
// "Benchmark"): Open MPI's MPI_Reduce, MPI_Allreduce and MPI_Bcast of one array, timed
// from a common barrier until the last rank has its result, as a JSON line.
//
//   mpirun ... mpi_collectives --op reduce|allreduce|bcast --bytes N [--dtype f32|f64|i32|i64|u32|u64]
//                              [--reduce sum|min|max] [--root R] [--repeats K]
//
// Every rank's array holds rank-dependent values; after each repeat the result is checked
// on the ranks that hold it (an integer sum exactly, floats within a tolerance), so a
// broken run cannot be reported as a time. cpu_seconds is the CPU time (user + system, every
// thread) of all ranks together from the barrier to the result, the mean over the repeats.
#include "bench/median.h"

#include <mpi.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Options {
  std::string op = "reduce";
  std::uint64_t bytes = 1 << 20;
  std::string dtype = "f32";
  std::string reduce = "sum";
  int root = 0;
  int repeats = 5;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "mpi_collectives: %s\nusage: mpi_collectives --op reduce|allreduce|bcast --bytes N "
               "[--dtype f32|f64|i32|i64|u32|u64] [--reduce sum|min|max] [--root R] [--repeats K]\n",
               why.c_str());
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

std::uint64_t number(std::string_view flag, const char* text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-') usage(std::string(flag) + ": not a number: " + text);
  return value;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) usage(std::string(flag) + " needs a value");
    const char* value = argv[++i];
    if (flag == "--op") o.op = value;
    else if (flag == "--bytes") o.bytes = number(flag, value);
    else if (flag == "--dtype") o.dtype = value;
    else if (flag == "--reduce") o.reduce = value;
    else if (flag == "--root") o.root = static_cast<int>(number(flag, value));
    else if (flag == "--repeats") o.repeats = static_cast<int>(number(flag, value));
    else usage("unknown flag " + std::string(flag));
  }
  if (o.op != "reduce" && o.op != "allreduce" && o.op != "bcast") usage("--op must be reduce, allreduce or bcast");
  if (o.repeats < 1 || o.repeats > 1000) usage("--repeats must be 1..1000");
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
  usage("--dtype must be f32, f64, i32, i64, u32 or u64");
}

MPI_Op op_of(const std::string& reduce) {
  if (reduce == "sum") return MPI_SUM;
  if (reduce == "min") return MPI_MIN;
  if (reduce == "max") return MPI_MAX;
  usage("--reduce must be sum, min or max");
}

// Element e of rank r's array: small values, so that sums of up to 200 ranks are exact in
// every dtype.
double value_at(int rank, std::size_t e) { return static_cast<double>((rank * 7 + e * 13) % 17); }

template <typename T>
void fill(std::vector<std::byte>& bytes, int rank) {
  T* data = reinterpret_cast<T*>(bytes.data());
  for (std::size_t e = 0; e < bytes.size() / sizeof(T); ++e) data[e] = static_cast<T>(value_at(rank, e));
}

// Whether `bytes` holds what the collective should give: the root's array (bcast) or the
// reduction of every rank's array.
template <typename T>
bool correct(const std::vector<std::byte>& bytes, const Options& o, int ranks) {
  const T* data = reinterpret_cast<const T*>(bytes.data());
  for (std::size_t e = 0; e < bytes.size() / sizeof(T); e += 1 + e / 64) {  // a sparse sample
    double expected = value_at(o.root, e);
    if (o.op != "bcast") {
      expected = value_at(0, e);
      for (int r = 1; r < ranks; ++r) {
        const double v = value_at(r, e);
        if (o.reduce == "sum") expected += v;
        else if (o.reduce == "min") expected = std::min(expected, v);
        else expected = std::max(expected, v);
      }
    }
    if (std::fabs(static_cast<double>(data[e]) - expected) > 1e-6 * std::max(1.0, std::fabs(expected))) return false;
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

double cpu_seconds_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
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
  std::vector<double> seconds;
  double cpu_total = 0;
  bool all_correct = true;
  for (int r = 0; r < o.repeats; ++r) {
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
    cpu_total += cpu_all;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    const std::vector<std::byte>& held = o.op == "bcast" ? data : result;
    const bool holds = o.op != "reduce" || rank == o.root;
    int ok = !holds || check(held, o, ranks) ? 1 : 0, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    all_correct = all_correct && all_ok == 1;
    seconds.push_back(slowest);
  }
  if (rank == 0) {
    std::printf(
        "{\"impl\": \"openmpi\", \"op\": \"%s\", \"bytes\": %llu, \"dtype\": \"%s\", \"reduce\": \"%s\", "
        "\"nodes\": %d, \"root\": %d, \"correct\": %s, \"median_seconds\": %.6f, \"cpu_seconds\": %.6f, \"seconds\": [",
        o.op.c_str(), static_cast<unsigned long long>(o.bytes), o.dtype.c_str(), o.reduce.c_str(), ranks, o.root,
        all_correct ? "true" : "false", baton::bench::median(seconds), cpu_total / o.repeats);
    for (std::size_t i = 0; i < seconds.size(); ++i) std::printf("%s%.6f", i ? ", " : "", seconds[i]);
    std::printf("]}\n");
  }
  MPI_Finalize();
  return all_correct ? 0 : 1;
}
